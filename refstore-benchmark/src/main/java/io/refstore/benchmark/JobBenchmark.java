package io.refstore.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

import io.refstore.batch.RefBatchConfiguration;
import io.refstore.batch.support.JobParameterNames;
import io.refstore.batch.support.JobSummary;
import io.refstore.batch.support.RefJobType;
import io.refstore.batch.support.RefJobs;
import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.migrate.MigrationOptions;
import io.refstore.core.migrate.MigrationReport;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;

/**
 * Times {@code migrateRefsJob} against the core's direct migration ({@link FormatMigrator}) on two copies of
 * the same repository, one run each, and prints both figures and their ratio (the target is a job at most 1.5
 * times the core). The job is timed from launch to end, without the application's start.
 *
 * <pre>
 * ./mvnw -q -o -pl refstore-benchmark -am package -DskipTests dependency:build-classpath -Dmdep.outputFile=/tmp/refstore-cp.txt
 * java -cp refstore-benchmark/target/classes:$(cat /tmp/refstore-cp.txt) io.refstore.benchmark.JobBenchmark \
 *     /tmp/refstore-bench/corpus-1000000/files.git reftable [chunkSize]
 * </pre>
 * The repository (for example a corpus of {@link Benchmark}) is copied twice into a temporary directory first;
 * it is never changed.
 */
public final class JobBenchmark {

	private JobBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Path source = Path.of(args[0]);
		RefFormat target = RefFormat.fromConfigName(args[1]);
		String chunkSize = (args.length > 2) ? args[2] : "10000";
		Path work = Files.createTempDirectory("refstore-job-bench");
		Path roots = Files.createDirectories(work.resolve("roots"));
		copy(source, work.resolve("core.git"));
		copy(source, roots.resolve("job.git"));

		long started = System.nanoTime();
		MigrationReport report;
		try (Repository repository = Repository.open(work.resolve("core.git"))) {
			report = new FormatMigrator(repository).migrate(MigrationOptions.to(target));
		}
		Duration core = Duration.ofNanos(System.nanoTime() - started);

		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties("spring.datasource.url=jdbc:h2:file:" + work.resolve("db/history") + ";WRITE_DELAY=0",
					"spring.datasource.username=sa", "spring.batch.jdbc.initialize-schema=never",
					"spring.batch.job.enabled=false", "spring.main.banner-mode=off", "logging.level.root=WARN",
					"refstore.repositories.roots=" + roots, "refstore.jobs.instance-id=benchmark")
			.run()) {
			RefJobs jobs = context.getBean(RefJobs.class);
			started = System.nanoTime();
			long id = jobs.launch(RefJobType.MIGRATE, Map.of(JobParameterNames.REPOSITORY, "job.git",
					JobParameterNames.TARGET_FORMAT, target.configName(), JobParameterNames.CHUNK_SIZE, chunkSize),
					"benchmark").executionId();
			JobSummary done = jobs.find(id).orElseThrow();
			while (done.ended() == null) {
				Thread.sleep(5);
				done = jobs.find(id).orElseThrow();
			}
			Duration job = Duration.ofNanos(System.nanoTime() - started);
			if (!done.status().equals("COMPLETED")) {
				throw new IllegalStateException("the job ended " + done.status() + ": " + done.exitMessage());
			}
			if (!done.results().get("migration.targetDigest").equals(report.targetDigest())) {
				throw new IllegalStateException("the job's store differs from the core's");
			}
			System.out.printf("refs %d, %s -> %s, chunk %s%n", report.refs(), report.from().configName(),
					target.configName(), chunkSize);
			System.out.printf("core FormatMigrator: %.2f s%n", core.toNanos() / 1e9);
			System.out.printf("migrateRefsJob:      %.2f s%n", job.toNanos() / 1e9);
			for (JobSummary.StepSummary step : done.steps()) {
				System.out.printf("  %-16s %.2f s%n", step.name(),
						Duration.between(step.started(), step.ended()).toNanos() / 1e9);
			}
			System.out.printf("ratio job/core:      %.2f%n", (double) job.toNanos() / core.toNanos());
		}
	}

	private static void copy(Path from, Path to) throws IOException, InterruptedException {
		Process cp = new ProcessBuilder(List.of("cp", "-a", from.toString(), to.toString())).inheritIO().start();
		if (cp.waitFor() != 0) {
			throw new IOException("cannot copy " + from + " to " + to);
		}
	}

	/** The application around the jobs: the refstore job configuration and Boot's auto-configuration. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(RefBatchConfiguration.class)
	static class App {

	}

}
