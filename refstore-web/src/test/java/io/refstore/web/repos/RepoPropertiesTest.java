package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.refstore.batch.support.RefBatchProperties;

/**
 * {@code refstore.repositories.*} as Spring Boot binds and validates it: the defaults,
 * and a start refused with the setting named when a value is out of range.
 */
class RepoPropertiesTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Settings.class)
		.withPropertyValues("refstore.repositories.roots[0]=/srv/git");

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties({ RepoProperties.class, RefBatchProperties.class })
	static class Settings {

	}

	@Test
	void defaultsSearchEightLevelsAndKeepSixtyFourStoresOpen() {
		this.runner.run((context) -> {
			RepoProperties properties = context.getBean(RepoProperties.class);
			assertThat(context.getBean(RefBatchProperties.class).repositories().roots())
				.as("the one binding of refstore.repositories.roots")
				.containsExactly(Path.of("/srv/git"));
			assertThat(properties.maxDepth()).isEqualTo(8);
			assertThat(properties.openStores()).isEqualTo(64);
		});
	}

	/**
	 * The fleet recipe (docs/operators.md) names one storage per node and leaves the
	 * roots alone: the implicit {@code ${refstore.home}/repos} must not become a storage
	 * {@code default} of every node (the second node stopped, its {@code default} another
	 * directory).
	 */
	@Test
	void theImplicitRootIsSearchedOnlyWhileNoRootOrStorageIsSet() {
		ApplicationContextRunner implicit = new ApplicationContextRunner().withUserConfiguration(Settings.class)
			.withPropertyValues("refstore.repositories.implicit-root=/srv/refstore/repos");
		implicit.run((context) -> assertThat(context.getBean(RefBatchProperties.class).repositories().searchRoots())
			.containsExactly(Path.of("/srv/refstore/repos")));
		implicit.withPropertyValues("refstore.repositories.storages.s1=/data/s1").run((context) -> {
			RefBatchProperties.Repositories repositories = context.getBean(RefBatchProperties.class).repositories();
			assertThat(repositories.searchRoots()).isEmpty();
			assertThat(repositories.storages()).containsExactly(java.util.Map.entry("s1", Path.of("/data/s1")));
		});
		implicit.withPropertyValues("refstore.repositories.roots[0]=/srv/git")
			.run((context) -> assertThat(context.getBean(RefBatchProperties.class).repositories().searchRoots())
				.containsExactly(Path.of("/srv/git")));
	}

	@Test
	void aDepthOutOfRangeStopsTheStartNamingTheSetting() {
		this.runner.withPropertyValues("refstore.repositories.max-depth=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("refstore.repositories")
				.hasMessageContaining("'maxDepth': rejected value [0]")
				.hasMessageContaining("must be greater than or equal to 1"));
		this.runner.withPropertyValues("refstore.repositories.max-depth=65")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'maxDepth': rejected value [65]"));
	}

	@Test
	void noRootOrNoOpenStoreStopsTheStart() {
		new ApplicationContextRunner().withUserConfiguration(Settings.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("refstore.repositories.roots: no repository root is set"));
		this.runner.withPropertyValues("refstore.repositories.open-stores=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'openStores': rejected value [0]"));
	}

}
