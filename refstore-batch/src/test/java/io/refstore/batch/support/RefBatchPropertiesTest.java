package io.refstore.batch.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.refstore.core.delete.ProtectedRefs;

/**
 * {@code refstore.deletion.protected-refs} as Spring binds it: the defaults when unset, a
 * list when set, and a start refused naming the setting and the entry for a bad pattern.
 */
class RefBatchPropertiesTest {

	private static RefBatchProperties bind(Map<String, String> settings) {
		return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate("refstore",
				RefBatchProperties.class);
	}

	@Test
	void protectedRefsDefaultToTheHostingNamespacesAndHeadsBranch() {
		assertThat(bind(Map.of()).deletion().protection().entries())
			.containsExactly("refs/keep-around/**", "refs/changes/**/meta", "refs/notes/**", "refs/meta/**", "HEAD")
			.isEqualTo(ProtectedRefs.DEFAULT_PATTERNS);
	}

	@Test
	void protectedRefsAreAListOfPatterns() {
		assertThat(bind(Map.of("refstore.deletion.protected-refs", "refs/keep-around/**, refs/pipelines/*,HEAD"))
			.deletion()
			.protection()
			.entries()).containsExactly("refs/keep-around/**", "refs/pipelines/*", "HEAD");
		assertThat(bind(Map.of("refstore.deletion.protected-refs[0]", "refs/notes/**")).deletion().protectedRefs())
			.containsExactly("refs/notes/**");
	}

	@Test
	void aBadEntryIsRefusedNamingTheSetting() {
		assertThatThrownBy(
				() -> bind(Map.of("refstore.deletion.protected-refs", "refs/notes/**,notes/*")).deletion().protection())
			.isInstanceOf(IllegalStateException.class)
			.hasMessage("refstore.deletion.protected-refs 'notes/*': it can never match: every ref it may delete "
					+ "starts with 'refs/'");
		assertThatThrownBy(
				() -> bind(Map.of("refstore.deletion.protected-refs[0]", "refs/[a,b]/*")).deletion().protection())
			.isInstanceOf(IllegalStateException.class)
			.hasMessage("refstore.deletion.protected-refs 'refs/[a,b]/*': an entry must not hold a comma");
	}

	@Test
	void withoutARootOrStorageTheSearchIsRefusedNamingTheSetting() {
		assertThat(bind(Map.of("refstore.repositories.roots[0]", "/srv/git")).repositories().searchRoots())
			.containsExactly(java.nio.file.Path.of("/srv/git"));
		assertThatThrownBy(() -> bind(Map.of()).repositories().searchRoots()).isInstanceOf(IllegalStateException.class)
			.hasMessageStartingWith("refstore.repositories.roots: no repository root is set");
	}

}
