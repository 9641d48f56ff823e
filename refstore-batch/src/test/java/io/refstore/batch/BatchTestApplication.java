package io.refstore.batch;

import java.nio.file.Path;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The smallest application around the refstore jobs, for the tests: an H2 file database
 * (open to a second process through H2's automatic server, so a test can read the history
 * while a child process runs a job), the repository root, and an instance name.
 */
@SpringBootApplication
public class BatchTestApplication {

	/**
	 * The database's URL. {@code WRITE_DELAY=0}: H2 otherwise keeps commits of the last
	 * half second in memory, and a killed process would lose checkpoints it had reported
	 * committed.
	 */
	public static String url(Path database) {
		return "jdbc:h2:file:" + database + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
	}

	/** Starts an application context; the caller closes it. */
	public static ConfigurableApplicationContext start(Path database, Path root, String instance) {
		return new SpringApplicationBuilder(BatchTestApplication.class).web(WebApplicationType.NONE)
			.properties("spring.datasource.url=" + url(database), "spring.datasource.username=sa",
					"spring.batch.jdbc.initialize-schema=never",
					"spring.flyway.locations=classpath:db/migration,classpath:db/{vendor}",
					"spring.batch.job.enabled=false", "spring.main.banner-mode=off", "logging.level.root=WARN",
					"refstore.repositories.roots=" + root, "refstore.jobs.instance-id=" + instance,
					"refstore.jobs.lease-ttl=3s")
			.run();
	}

}
