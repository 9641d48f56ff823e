package io.refstore.core.delete;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.refstore.core.graph.CommitHistory;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GeneratedHistory;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Deletion plans by criteria against git 2.55's answers on generated histories, in both
 * ref formats and both object formats: {@code merged-into} is
 * {@code for-each-ref --merged}, {@code older-than} compares {@code %(creatordate:unix)},
 * namespaces and globs narrow them, HEAD's branch stays protected, symbolic refs are
 * judged by what they resolve to, refs to trees and blobs have no commit. A plan is
 * checked again before execution: a branch merged meanwhile makes it stale.
 */
class DeletionCriteriaIT {

	private static final long MIDDLE = 1_620_000_000L;

	@TempDir
	Path temp;

	private TempRepo generated(String refFormat, String objectFormat, long seed) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.reftable(), this.temp.resolve("repo"), "--ref-format=" + refFormat,
				"--object-format=" + objectFormat);
		GeneratedHistory.generate(repo, new Random(seed), 300);
		return repo;
	}

	@ParameterizedTest(name = "{0} {1}")
	@CsvSource({ "files, sha1, 1", "reftable, sha1, 2", "files, sha256, 3", "reftable, sha256, 4" })
	void criteriaSelectWhatGitSays(String refFormat, String objectFormat, long seed) throws IOException {
		TempRepo repo = generated(refFormat, objectFormat, seed);
		List<String> merged = lines(repo.git("for-each-ref", "--merged", "main", "--format=%(refname)"));
		List<String> dated = lines(repo.git("for-each-ref", "--format=%(creatordate:unix) %(refname)"));
		Predicate<String> older = (name) -> dated.stream()
			.anyMatch((line) -> line.endsWith(" " + name) && !line.startsWith(" ")
					&& Long.parseLong(line.substring(0, line.indexOf(' '))) < MIDDLE);
		List<String> all = lines(repo.git("for-each-ref", "--format=%(refname)"));

		assertThat(plan(repo, "namespace refs/heads/", "merged-into main"))
			.isEqualTo(select(all,
					(name) -> name.startsWith("refs/heads/") && merged.contains(name)
							&& !name.equals("refs/heads/main")))
			.isNotEmpty();
		assertThat(plan(repo, "prefix refs/", "merged-into HEAD"))
			.isEqualTo(select(all, (name) -> merged.contains(name) && !name.equals("refs/heads/main")))
			.contains("refs/remotes/origin/HEAD");
		assertThat(plan(repo, "namespace refs/tags/", "older-than @" + MIDDLE))
			.isEqualTo(select(all, (name) -> name.startsWith("refs/tags/") && older.test(name)));
		assertThat(plan(repo, "glob refs/heads/topic/*", "older-than @" + MIDDLE, "merged-into refs/heads/main"))
			.isEqualTo(select(all,
					(name) -> name.startsWith("refs/heads/topic/") && older.test(name) && merged.contains(name)))
			.isNotEmpty();
		assertThat(plan(repo, "namespace refs/heads/", "namespace refs/pull/", "older-than @" + MIDDLE,
				"exclude refs/heads/line/*"))
			.isEqualTo(select(all, (name) -> (name.startsWith("refs/heads/") || name.startsWith("refs/pull/"))
					&& !name.startsWith("refs/heads/line/") && older.test(name)));
	}

	@Test
	void thePlanCountsEachCriterionAndSaysWhyARefWasSelected() throws IOException {
		TempRepo repo = generated("files", "sha1", 7);
		String main = repo.git("rev-parse", "main").trim();
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			DeletionPlan.Summary plan = DeletionPlan.write(this.temp.resolve("plan"), store,
					CommitHistory.open(repository),
					List.of("namespace refs/heads/", "merged-into main", "older-than " + Instant.ofEpochSecond(MIDDLE)),
					ProtectedRefs.defaults(), 3, Instant.now());
			long heads = lines(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/")).size();
			long merged = lines(repo.git("for-each-ref", "--merged", "main", "--format=%(refname)", "refs/heads/"))
				.size();
			assertThat(plan.criteria()).containsKeys("merged into refs/heads/main (" + main.substring(0, 12) + ")",
					"dated before 2021-05-03 00:00:00 UTC");
			assertThat(plan.criteria().values().iterator().next()).isEqualTo(heads - 1);
			assertThat(plan.criteria().get("merged into refs/heads/main (" + main.substring(0, 12) + ")"))
				.isEqualTo(merged - 1);
			assertThat(plan.reasons()).hasSize(plan.sample().size());
			assertThat(plan.reasons().get(0)).startsWith("merged into refs/heads/main; committed 20");
			assertThat(plan.kept().count()).isEqualTo(1);
			assertThat(java.nio.file.Files.readString(this.temp.resolve("plan")))
				.contains("select merged-into refs/heads/main " + main + "\n")
				.contains("select older-than @1620000000\n");
		}
	}

	@Test
	void aRefUpdatedRecentlyIsNotStaleByItsReflog() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.reftable(), this.temp.resolve("logged.git"), "--bare");
		GitCli then = GitCli.reftable().withEnv("GIT_COMMITTER_DATE", "@1500000000 +0000");
		String old = repo.with(then).git("commit-tree", "-m", "old", repo.git("mktree").trim()).trim();
		GitCli later = GitCli.reftable().withEnv("GIT_COMMITTER_DATE", "@1700000000 +0000");
		repo.with(later).git("update-ref", "--create-reflog", "refs/heads/moved", old);
		repo.git("update-ref", "refs/heads/quiet", old);
		assertThat(plan(repo, "namespace refs/heads/", "not-updated-since @1600000000"))
			.containsExactly("refs/heads/quiet");
		assertThat(plan(repo, "namespace refs/heads/", "not-updated-since @1750000000"))
			.containsExactly("refs/heads/moved", "refs/heads/quiet");
	}

	@Test
	void aPlanByCriteriaGoesStaleWhenABranchIsMergedMeanwhile() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.reftable(), this.temp.resolve("stale"));
		repo.git("commit", "--allow-empty", "-q", "-m", "one");
		repo.git("branch", "topic");
		repo.git("commit", "--allow-empty", "-q", "-m", "two");
		repo.git("checkout", "-q", "-b", "side");
		repo.git("commit", "--allow-empty", "-q", "-m", "side");
		repo.git("checkout", "-q", "main");
		Path file = this.temp.resolve("plans/1/plan");
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			DeletionPlan.write(file, store, CommitHistory.open(repository),
					List.of("namespace refs/heads/", "merged-into main"), ProtectedRefs.defaults(), 10, Instant.now());
			DeletionPlan.checkNotStale(file, store, CommitHistory.open(repository));
		}
		// main moves on, but the plan judges by the commit main had when planned
		repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side");
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			DeletionPlan.checkNotStale(file, store, CommitHistory.open(repository));
		}
		// a branch moved onto a merged commit is selected now but not in the plan
		repo.git("update-ref", "refs/heads/side2", "main~2");
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			assertThatThrownBy(() -> DeletionPlan.checkNotStale(file, store, CommitHistory.open(repository)))
				.isInstanceOf(StalePlanException.class)
				.hasMessageContaining("'refs/heads/side2' is selected now but is not in the plan");
		}
	}

	@Test
	void badCriteriaAreRefusedNamingThem() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.reftable(), this.temp.resolve("bad"));
		repo.git("commit", "--allow-empty", "-q", "-m", "one");
		repo.git("update-ref", "refs/tags/tree", repo.git("rev-parse", "HEAD^{tree}").trim());
		assertThatThrownBy(() -> plan(repo, "namespace refs/heads/", "merged-into nothing"))
			.isInstanceOf(InvalidSelectionException.class)
			.hasMessageContaining("mergedInto")
			.hasMessageContaining("no such branch");
		assertThatThrownBy(() -> plan(repo, "namespace refs/heads/", "merged-into refs/tags/tree"))
			.isInstanceOf(InvalidSelectionException.class)
			.hasMessageContaining("it does not name a commit");
		assertThatThrownBy(() -> plan(repo, "namespace refs/heads/", "older-than soon"))
			.isInstanceOf(InvalidSelectionException.class)
			.hasMessageContaining("olderThan")
			.hasMessageContaining("90d");
		assertThatThrownBy(() -> plan(repo, "namespace refs/heads/", "older-than 2999-01-01"))
			.isInstanceOf(InvalidSelectionException.class)
			.hasMessageContaining("it is in the future");
		assertThatThrownBy(() -> plan(repo, "namespace heads")).isInstanceOf(InvalidSelectionException.class)
			.hasMessageContaining("namespaces");
		assertThatThrownBy(() -> plan(repo, "merged-into main")).isInstanceOf(InvalidSelectionException.class)
			.hasMessageContaining("no prefix, glob, name or namespace given");
	}

	@Test
	void agesCountBackFromNow() {
		Instant now = Instant.parse("2026-03-31T10:00:00Z");
		assertThat(CriterionTime.parse("olderThan", "90d", now))
			.isEqualTo(Instant.parse("2025-12-31T10:00:00Z").getEpochSecond());
		assertThat(CriterionTime.parse("olderThan", "1m", now))
			.isEqualTo(Instant.parse("2026-02-28T10:00:00Z").getEpochSecond());
		assertThat(CriterionTime.parse("olderThan", "2w", now))
			.isEqualTo(Instant.parse("2026-03-17T10:00:00Z").getEpochSecond());
		assertThat(CriterionTime.parse("olderThan", "1y", now))
			.isEqualTo(Instant.parse("2025-03-31T10:00:00Z").getEpochSecond());
		assertThat(CriterionTime.parse("olderThan", "2026-01-31", now))
			.isEqualTo(Instant.parse("2026-01-31T00:00:00Z").getEpochSecond());
		assertThat(CriterionTime.parse("olderThan", "2026-01-31T12:00:00+02:00", now))
			.isEqualTo(Instant.parse("2026-01-31T10:00:00Z").getEpochSecond());
		assertThat(CriterionTime.parse("olderThan", "@1700000000", now)).isEqualTo(1700000000L);
	}

	private List<String> plan(TempRepo repo, String... parts) throws IOException {
		Path file = this.temp.resolve("plans").resolve(Integer.toString(Arrays.hashCode(parts))).resolve("plan");
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			DeletionPlan.write(file, store, CommitHistory.open(repository), List.of(parts), ProtectedRefs.defaults(), 0,
					Instant.now());
		}
		List<String> names = new ArrayList<>();
		try (DeletionPlan.Reader reader = new DeletionPlan.Reader(file, null)) {
			for (DeletionPlan.Entry entry = reader.next(); entry != null; entry = reader.next()) {
				names.add(entry.name());
			}
		}
		return names;
	}

	private static List<String> select(List<String> names, Predicate<String> predicate) {
		return names.stream().filter(predicate).toList();
	}

	private static List<String> lines(String text) {
		return text.isBlank() ? List.of() : List.of(text.strip().split("\n"));
	}

}
