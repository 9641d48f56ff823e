package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Protected refs are kept whatever a deletion selects (GitLab's keep-around refs,
 * Gerrit's review data and config, notes, {@code HEAD}'s branch), are reported with the
 * pattern that kept them, and go only when the protection is overridden: on both formats,
 * judged by git afterwards.
 */
class ProtectedRefsIT {

	/** What the defaults keep, with the entry that keeps each, in git's order. */
	private static final Map<String, String> PROTECTED = ordered("refs/changes/34/1234/meta", "refs/changes/**/meta",
			"refs/heads/main", "HEAD", "refs/keep-around/0123456789abcdef0123456789abcdef01234567",
			"refs/keep-around/**", "refs/meta/config", "refs/meta/**", "refs/notes/commits", "refs/notes/**",
			"refs/notes/review/x", "refs/notes/**");

	/** Refs the defaults do not protect, near misses included, in git's order. */
	private static final List<String> OTHERS = List.of("refs/changes/34/1234/1", "refs/changes/34/1234/2",
			"refs/changes/34/1234/metadata", "refs/heads/main2", "refs/heads/topic", "refs/keep-aroundx",
			"refs/metax/y", "refs/notesx/a", "refs/pull/1/head", "refs/tags/v1");

	@TempDir
	Path tmp;

	private TempRepo repo(String format) {
		TempRepo repo = format.equals("reftable")
				? TempRepo.init(GitCli.reftable(), this.tmp.resolve("repo"), "--ref-format=reftable")
				: TempRepo.init(GitCli.system(), this.tmp.resolve("repo"));
		String commit = repo.commit("c", null);
		StringBuilder stdin = new StringBuilder();
		Stream.concat(PROTECTED.keySet().stream(), OTHERS.stream())
			.forEach((name) -> stdin.append("create ").append(name).append(' ').append(commit).append('\n'));
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		return repo;
	}

	private static DryRun dryRun(TempRepo repo, RefSelection selection) throws IOException {
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			return new RefDeleter(store).dryRun(selection, 100);
		}
	}

	private static DeleteResult delete(TempRepo repo, RefSelection selection, Path manifest) throws IOException {
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			return new RefDeleter(store).delete(selection, DeleteOptions.to(manifest).withChunkSize(3));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void deletingEverythingKeepsTheProtectedRefsAndReportsThem(String format) throws IOException {
		TempRepo repo = repo(format);
		RefSelection all = RefSelection.builder().prefix("refs/").build();

		DryRun dry = dryRun(repo, all);
		assertThat(dry.sample()).isEqualTo(OTHERS);
		assertThat(dry.matched()).isEqualTo(OTHERS.size());
		assertThat(dry.kept().count()).isEqualTo(PROTECTED.size());
		assertThat(dry.kept().sample()).extracting(ProtectedRefs.Report.Kept::name)
			.containsExactlyElementsOf(PROTECTED.keySet());
		assertThat(dry.kept().sample())
			.allSatisfy((kept) -> assertThat(kept.pattern()).isEqualTo(PROTECTED.get(kept.name())));
		assertThat(dry.kept().byPattern()).containsExactly(Map.entry("refs/keep-around/**", 1L),
				Map.entry("refs/changes/**/meta", 1L), Map.entry("refs/notes/**", 2L), Map.entry("refs/meta/**", 1L),
				Map.entry("HEAD", 1L));

		DeleteResult result = delete(repo, all, this.tmp.resolve("m"));
		assertThat(result.failed()).isEmpty();
		assertThat(result.deleted()).isEqualTo(OTHERS.size());
		assertThat(result.kept().count()).isEqualTo(PROTECTED.size());
		assertThat(DeletionFixture.names(repo)).containsExactlyElementsOf(PROTECTED.keySet());
		assertThat(repo.git("symbolic-ref", "HEAD").trim()).isEqualTo("refs/heads/main");
		repo.git("fsck", "--no-progress");
	}

	@Test
	void globsAndListedNamesKeepProtectedRefsToo() throws IOException {
		TempRepo repo = repo("files");
		RefSelection.Builder selection = RefSelection.builder().glob("refs/**");
		PROTECTED.keySet().forEach(selection::name);
		selection.name("refs/heads/topic").name("refs/notes/absent");

		DryRun dry = dryRun(repo, selection.build());
		assertThat(dry.kept().count()).isEqualTo(PROTECTED.size());
		assertThat(dry.missing()).isEqualTo(1);
		assertThat(dry.sample()).isEqualTo(OTHERS);

		RefSelection listed = RefSelection.builder()
			.name("refs/heads/main")
			.name("refs/notes/commits")
			.name("refs/heads/topic")
			.build();
		DeleteResult result = delete(repo, listed, this.tmp.resolve("m"));
		assertThat(result.deleted()).isEqualTo(1);
		assertThat(result.kept().sample()).containsExactly(new ProtectedRefs.Report.Kept("refs/heads/main", "HEAD"),
				new ProtectedRefs.Report.Kept("refs/notes/commits", "refs/notes/**"));
		assertThat(DeletionFixture.names(repo)).doesNotContain("refs/heads/topic")
			.contains("refs/heads/main", "refs/notes/commits");
	}

	@ParameterizedTest
	@ValueSource(strings = { "refs/keep-around/**", "refs/changes/**/meta", "refs/notes/**", "refs/meta/**" })
	void eachDefaultPatternKeepsWhatForEachRefLists(String pattern) throws IOException {
		TempRepo repo = repo("files");
		DryRun dry = dryRun(repo,
				RefSelection.builder().prefix("refs/").protect(ProtectedRefs.of(List.of(pattern))).build());
		assertThat(dry.kept().sample()).extracting(ProtectedRefs.Report.Kept::name)
			.containsExactlyElementsOf(DeletionFixture.forEachRef(repo, pattern));
	}

	@Test
	void theBranchProtectedIsTheOneHeadPointsToWhenTheSelectionIsRead() throws IOException {
		TempRepo repo = repo("files");
		repo.git("symbolic-ref", "HEAD", "refs/heads/topic");
		RefSelection heads = RefSelection.builder().prefix("refs/heads/").build();
		delete(repo, heads, this.tmp.resolve("m"));
		assertThat(DeletionFixture.forEachRef(repo, "refs/heads/")).containsExactly("refs/heads/topic");

		String commit = repo.git("rev-parse", "refs/heads/topic").trim();
		repo.git("update-ref", "--no-deref", "HEAD", commit);
		DryRun detached = dryRun(repo, heads);
		assertThat(detached.sample()).containsExactly("refs/heads/topic");
		assertThat(detached.kept()).isEqualTo(ProtectedRefs.Report.NONE);
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void overridingTheProtectionDeletesTheProtectedRefs(String format) throws IOException {
		TempRepo repo = repo(format);
		RefSelection only = RefSelection.builder()
			.prefix("refs/")
			.protect(ProtectedRefs.none().plus("refs/notes/**"))
			.build();
		DeleteResult result = delete(repo, only, this.tmp.resolve("m"));
		assertThat(result.kept().count()).isEqualTo(2);
		assertThat(DeletionFixture.names(repo)).containsExactly("refs/notes/commits", "refs/notes/review/x");
		repo.git("fsck", "--no-progress");
		if (format.equals("reftable")) {
			assertThat(repo.git("refs", "verify", "--strict")).isEmpty();
		}
	}

	@Test
	void aNameIsJudgedOneByOneAsAPlanWouldKeepIt() {
		ProtectedRefs defaults = ProtectedRefs.defaults();
		PROTECTED.forEach((name, entry) -> assertThat(defaults.protecting(name, List.of("refs/heads/main"))).as(name)
			.isEqualTo(entry));
		OTHERS.forEach((name) -> assertThat(defaults.protecting(name, List.of("refs/heads/main"))).as(name).isNull());
		// without HEAD among the entries, HEAD's branch is no longer kept
		assertThat(ProtectedRefs.of(List.of("refs/notes/**")).protecting("refs/heads/main", List.of("refs/heads/main")))
			.isNull();
		assertThat(defaults.protecting("refs/heads/main", List.of())).isNull();
	}

	@Test
	void aBadEntryIsRefusedNamingIt() {
		assertThatThrownBy(() -> ProtectedRefs.of(List.of("refs/notes/**", "notes/*")))
			.isInstanceOf(InvalidSelectionException.class)
			.hasMessage("protect 'notes/*': it can never match: every ref it may delete starts with 'refs/'");
		assertThatThrownBy(() -> ProtectedRefs.of(List.of("refs/x/[a"))).isInstanceOf(InvalidSelectionException.class)
			.hasMessageStartingWith("protect 'refs/x/[a': ");
		assertThat(ProtectedRefs.of(List.of("HEAD", "refs/meta/**", "HEAD")).entries()).containsExactly("HEAD",
				"refs/meta/**");
		assertThat(ProtectedRefs.defaults().entries()).containsExactlyElementsOf(ProtectedRefs.DEFAULT_PATTERNS);
	}

	private static Map<String, String> ordered(String... pairs) {
		Map<String, String> map = new LinkedHashMap<>();
		List<String> list = new ArrayList<>(List.of(pairs));
		for (int i = 0; i < list.size(); i += 2) {
			map.put(list.get(i), list.get(i + 1));
		}
		return map;
	}

}
