package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * What a selection's globs and exclusions match, judged by
 * {@code git for-each-ref <pattern>} and {@code git for-each-ref --exclude=<pattern>} on
 * names with unusual characters.
 */
class DeleteSelectionIT {

	private static final List<String> NAMES = List.of("refs/x", "refs/heads/b", "refs/heads/c", "refs/heads/abc",
			"refs/heads/aXc", "refs/heads/a-b", "refs/heads/a.b", "refs/heads/axxb", "refs/heads/a/b",
			"refs/heads/a/x/b", "refs/heads/deep", "refs/heads/x/deep", "refs/heads/x/y/deep", "refs/heads/x/y/z/w",
			"refs/heads/]x", "refs/heads/!x", "refs/heads/+x", "refs/heads/#x", "refs/heads/caf\u00e9",
			"refs/heads/cafe", "refs/heads/Upper", "refs/heads/lower9", "refs/heads/A1", "refs/heads/-dash",
			"refs/heads/@at", "refs/tags/v1.0", "refs/tags/v1.1", "refs/tags/v1.9", "refs/tags/v1.10", "refs/tags/v1.x",
			"refs/tags/v10", "refs/pull/1/head", "refs/pull/1/merge", "refs/pull/12/head", "refs/pull/12/merge",
			"refs/pull/123/head", "refs/remotes/o/x", "refs/remotes/o/HEADS", "refs/notes/commits");

	@TempDir
	static Path tmp;

	private static TempRepo repo;

	private static Repository repository;

	private static RefStore store;

	@BeforeAll
	static void makeRepository() throws IOException {
		repo = TempRepo.init(GitCli.system(), tmp.resolve("repo"));
		String commit = repo.commit("c", null);
		StringBuilder stdin = new StringBuilder();
		for (String name : NAMES) {
			stdin.append("create ").append(name).append(' ').append(commit).append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		assertThat(DeletionFixture.names(repo)).hasSize(NAMES.size());
		repository = Repository.open(repo.dir());
		store = RefStores.open(repository);
	}

	@AfterAll
	static void close() throws IOException {
		if (store != null) {
			store.close();
			repository.close();
		}
	}

	/**
	 * What {@code selection} picks, protection aside: these tests judge the patterns
	 * alone.
	 */
	private static List<String> selected(RefSelection.Builder selection) throws IOException {
		return new RefDeleter(store).dryRun(selection.protect(ProtectedRefs.none()).build(), Integer.MAX_VALUE)
			.sample();
	}

	@ParameterizedTest
	@ValueSource(strings = { "refs/heads/*", "refs/heads", "refs/heads/", "refs/hea", "refs", "refs/**", "refs/**/x",
			"**/x", "**/deep", "refs/*/x*", "refs/heads/a?c", "refs/heads/[a-c]*", "refs/heads/[!a-c]*",
			"refs/heads/[^a]*", "refs/heads/[]]*", "refs/heads/[]!]*", "refs/heads/*[[:digit:]]",
			"refs/heads/[[:upper:]]*", "refs/heads/[[:punct:]]*", "refs/heads/[[:alpha:]-]*", "refs/heads/caf*",
			"refs/heads/caf?", "refs/heads/caf??", "refs/tags/v1.*", "refs/tags/v1.[0-9]", "refs/tags/v1*",
			"refs/heads/a**b", "refs/heads/**/deep", "refs/heads/x/**", "refs/heads/**", "refs/heads/*/*",
			"refs/heads/*/*/*", "refs/heads/**/*", "refs/pull/*/head", "refs/pull/1*/*", "refs/pull/?/*",
			"refs/heads/a/**/b", "refs/heads/\\a", "refs/heads/[a]", "refs/heads/a[-.]b", "*", "*/*/*", "r*/x",
			"refs/remotes/o/HEAD", "refs/notes/commits" })
	void globsSelectWhatForEachRefLists(String pattern) throws IOException {
		List<String> git = DeletionFixture.forEachRef(repo, pattern).stream().toList();
		List<String> inGitOrder = DeletionFixture.names(repo).stream().filter(git::contains).toList();
		assertThat(selected(RefSelection.builder().glob(pattern))).isEqualTo(inGitOrder);
	}

	@ParameterizedTest
	@ValueSource(strings = { "refs/heads/a", "refs/heads/a/", "refs/heads/*", "refs/heads/**", "refs/pull/*/merge",
			"refs/tags/v1.?", "refs/heads/[[:lower:]]*", "**/deep", "refs/heads/caf\u00e9", "refs" })
	void exclusionsKeepWhatForEachRefExcludes(String pattern) throws IOException {
		String git = GitCli.reftable()
			.ok(repo.dir(), "for-each-ref", "--format=%(refname)", "--exclude=" + pattern, "refs/");
		assertThat(selected(RefSelection.builder().prefix("refs/").exclude(pattern))).isEqualTo(git.lines().toList());
	}

}
