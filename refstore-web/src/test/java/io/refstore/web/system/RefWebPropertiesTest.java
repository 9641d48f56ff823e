package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

import io.refstore.batch.support.RefBatchProperties;
import io.refstore.web.security.DemoProperties;
import io.refstore.web.security.SecurityProperties;

/**
 * The settings records as Spring binds and validates them at startup: their defaults, the
 * values the settings took before they were typed (a bare number of milliseconds), and a
 * bad value that stops the start with a message naming the setting.
 */
class RefWebPropertiesTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Settings.class)
		.withPropertyValues("refstore.home=/srv/refstore", "refstore.repositories.roots[0]=/srv/refstore/repos");

	@Test
	void unsetSettingsTakeTheirDefaults() {
		this.runner.run((context) -> {
			RefWebProperties settings = context.getBean(RefWebProperties.class);
			assertThat(settings.home()).isEqualTo(Path.of("/srv/refstore"));
			assertThat(settings.api().maxBodySize()).isEqualTo(DataSize.ofMegabytes(1));
			assertThat(settings.api().maxBatchUpdates()).isEqualTo(10_000);
			assertThat(settings.campaigns().pollMillis()).isEqualTo(Duration.ofSeconds(1));
			assertThat(settings.jobs().sweepMillis()).isEqualTo(Duration.ofSeconds(15));
			assertThat(settings.metrics().jobsRefresh()).isEqualTo(Duration.ofSeconds(10));
			assertThat(settings.metrics().initialDelay()).isZero();
			assertThat(settings.metrics().refresh()).isEqualTo(Duration.ofSeconds(60));
			assertThat(context.getBean(RefBatchProperties.class).jobs().leaseTtl()).isEqualTo(Duration.ofSeconds(60));
		});
	}

	@Test
	void millisecondSettingsReadABareNumberAsBeforeAndTakeAUnit() {
		this.runner
			.withPropertyValues("refstore.campaigns.poll-millis=200", "refstore.jobs.sweep-millis=2s",
					"refstore.api.max-body-size=64KB", "refstore.metrics.refresh=5m")
			.run((context) -> {
				RefWebProperties settings = context.getBean(RefWebProperties.class);
				assertThat(settings.campaigns().pollMillis()).isEqualTo(Duration.ofMillis(200));
				assertThat(settings.jobs().sweepMillis()).isEqualTo(Duration.ofSeconds(2));
				assertThat(settings.api().maxBodySize()).isEqualTo(DataSize.ofKilobytes(64));
				assertThat(settings.metrics().refresh()).isEqualTo(Duration.ofMinutes(5));
			});
	}

	@Test
	void aBadValueStopsTheStartNamingTheSetting() {
		assertFailure("refstore.campaigns.poll-millis=0", "refstore.campaigns", "pollMillis");
		assertFailure("refstore.metrics.refresh=-1s", "refstore.metrics", "refresh");
		assertFailure("refstore.api.max-batch-updates=0", "refstore.api", "maxBatchUpdates");
		assertFailure("refstore.api.max-body-size=0B", "refstore.api.max-body-size must be positive");
		assertFailure("refstore.jobs.lease-ttl=0s", "refstore.jobs", "leaseTtl");
		assertFailure("refstore.security.users[0].password={bcrypt}$2a$10$x", "refstore.security.users[0]", "name");
		assertFailure("refstore.jobs.sweep-millis=soon", "refstore.jobs.sweep-millis", "soon");
	}

	private void assertFailure(String setting, String... named) {
		this.runner.withPropertyValues(setting).run((context) -> {
			assertThat(context).hasFailed();
			StringBuilder messages = new StringBuilder();
			for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
				messages.append(cause.getMessage()).append('\n');
			}
			assertThat(messages.toString()).as(setting).contains(named);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties({ RefWebProperties.class, RefBatchProperties.class, SecurityProperties.class,
			DemoProperties.class })
	static class Settings {

	}

}
