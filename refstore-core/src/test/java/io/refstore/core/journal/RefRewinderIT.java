package io.refstore.core.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * A rewind plan applied by {@link RefRewinder} to a repository git writes, in both
 * formats, judged by git 2.55: refs created, moved and deleted in chunks; a ref git
 * changed after the plan is left alone and named; a run again changes nothing; the plan's
 * inverse undoes it; a plan naming a missing object stops with the ref's name. The plan
 * itself survives its file format.
 */
class RefRewinderIT {

	@TempDir
	Path dir;

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void aPlanIsAppliedAroundAConcurrentWriterAgainSafelyAndUndone(String format) throws Exception {
		TempRepo repo = TempRepo.init(GitCli.reftable(), this.dir.resolve("repo"), "--bare", "--ref-format=" + format);
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		HashAlgorithm sha1 = HashAlgorithm.SHA1;
		ObjectId one = ObjectId.fromHex(sha1, c1);
		ObjectId two = ObjectId.fromHex(sha1, c2);
		ObjectId zero = sha1.zeroId();
		List<RewindPlan.Step> steps = new ArrayList<>();
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < 25; i++) {
			// now at c2, then at c1
			stdin.append("create refs/heads/move/").append(i).append(' ').append(c2).append('\n');
			steps.add(new RewindPlan.Step("refs/heads/move/" + i, two, one));
			// now present, then absent
			stdin.append("create refs/heads/new/").append(i).append(' ').append(c1).append('\n');
			steps.add(new RewindPlan.Step("refs/heads/new/" + i, one, zero));
			// now absent, then present
			steps.add(new RewindPlan.Step("refs/heads/gone/" + i, zero, two));
		}
		repo.run(stdin.toString().getBytes(), "update-ref", "--stdin");
		// a ref whose directory a deletion of the plan frees: deletions come first
		repo.git("update-ref", "refs/heads/d/x", c1);
		steps.add(new RewindPlan.Step("refs/heads/d", zero, one));
		steps.add(new RewindPlan.Step("refs/heads/d/x", one, zero));
		Map<String, String> before = repo.refs();
		RewindPlan plan;
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment())) {
			plan = new RewindPlan(sha1, RepositoryId.of(repository), Instant.ofEpochSecond(1_796_000_000, 5),
					"refs/heads/", steps);
		}
		Path file = this.dir.resolve("rewind.plan");
		plan.write(file);
		assertThat(RewindPlan.read(file)).isEqualTo(plan);
		assertThat(plan.steps().get(0).name()).startsWith("refs/heads/new/");

		// another writer, after the plan
		repo.git("update-ref", "refs/heads/move/7", c1, c2);
		repo.git("update-ref", "refs/heads/gone/3", c1);
		Map<String, String> expected = new TreeMap<>(before);
		for (int i = 0; i < 25; i++) {
			expected.put("refs/heads/move/" + i, c1);
			expected.remove("refs/heads/new/" + i);
			expected.put("refs/heads/gone/" + i, c2);
		}
		expected.put("refs/heads/d", c1);
		expected.remove("refs/heads/d/x");
		expected.put("refs/heads/gone/3", c1);

		RefRewinder.Result result = apply(repo, RewindPlan.read(file));
		// move/7 holds c1 already, which the plan sets: done; gone/3 was made by another
		// writer: left alone
		assertThat(result).isEqualTo(new RefRewinder.Result(75, 1, 1, List.of("refs/heads/gone/3")));
		assertThat(repo.refs()).isEqualTo(expected);
		assertThat(apply(repo, plan)).isEqualTo(new RefRewinder.Result(0, 76, 1, List.of("refs/heads/gone/3")));
		assertThat(repo.refs()).isEqualTo(expected);

		apply(repo, plan.inverse());
		Map<String, String> undone = new TreeMap<>(before);
		undone.put("refs/heads/gone/3", c1);
		assertThat(repo.refs()).isEqualTo(undone);
		assertThat(repo.git("fsck", "--connectivity-only")).isEmpty();

		Files.writeString(file,
				Files.readString(file) + "step " + zero.name() + " " + "c".repeat(40) + " refs/heads/zzz-missing\n");
		assertThatThrownBy(() -> apply(repo, RewindPlan.read(file))).isInstanceOf(IOException.class)
			.hasMessageContaining("refs/heads/zzz-missing");
	}

	/**
	 * git writes refs of the plan while it is applied: every ref git wrote holds the
	 * value of git's last confirmed write, whether it came before the rewinder read the
	 * ref, between its read and its commit, or after; every other ref holds the plan's
	 * value.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void gitsConfirmedWritesDuringARewindAreNeverOverwritten(String format) throws Exception {
		TempRepo repo = TempRepo.init(GitCli.reftable(), this.dir.resolve("racing"), "--bare",
				"--ref-format=" + format);
		List<String> commits = repo.commits(3 + 150, "c");
		HashAlgorithm sha1 = HashAlgorithm.SHA1;
		ObjectId from = ObjectId.fromHex(sha1, commits.get(0));
		ObjectId to = ObjectId.fromHex(sha1, commits.get(1));
		int refs = 3000;
		StringBuilder stdin = new StringBuilder();
		List<RewindPlan.Step> steps = new ArrayList<>();
		for (int i = 0; i < refs; i++) {
			String name = String.format("refs/heads/r/%05d", i);
			stdin.append("create ").append(name).append(' ').append(from.name()).append('\n');
			steps.add(new RewindPlan.Step(name, from, to));
		}
		repo.run(stdin.toString().getBytes(), "update-ref", "--stdin").requireOk();
		RewindPlan plan = new RewindPlan(sha1, null, Instant.now(), "refs/heads/r/", steps);
		Map<String, String> written = new TreeMap<>();
		Random random = new Random(42);
		long[] writes = new long[2];
		Thread git = new Thread(() -> {
			for (int w = 0; w < 150; w++) {
				writes[(w == 0) ? 0 : 1] = System.nanoTime();
				String name = String.format("refs/heads/r/%05d", random.nextInt(refs));
				String value = commits.get(3 + w);
				if (repo.git()
					.run(repo.dir(), "-c", "reftable.lockTimeout=10000", "-c", "core.filesRefLockTimeout=10000",
							"update-ref", name, value)
					.exitCode() == 0) {
					written.put(name, value);
				}
			}
		});
		git.start();
		long start = System.nanoTime();
		RefRewinder.Result result;
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment());
				RefStore store = RefStores.open(repository)) {
			result = new RefRewinder(store, "rewind").apply(plan, 50, (done) -> {
			});
		}
		long end = System.nanoTime();
		git.join();
		// git wrote while the rewind ran
		assertThat(writes[0]).isLessThan(end);
		assertThat(writes[1]).isGreaterThan(start);

		Map<String, String> now = repo.refs();
		assertThat(written).isNotEmpty();
		for (int i = 0; i < refs; i++) {
			String name = String.format("refs/heads/r/%05d", i);
			assertThat(now.get(name)).as(name).isEqualTo(written.getOrDefault(name, to.name()));
		}
		assertThat(result.applied() + result.present() + result.conflicts()).isEqualTo(refs);
		assertThat(result.conflicts()).isLessThanOrEqualTo(written.size());
	}

	private static RefRewinder.Result apply(TempRepo repo, RewindPlan plan) throws IOException {
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment());
				RefStore store = RefStores.open(repository)) {
			return new RefRewinder(store, "rewind").apply(plan, 10, (done) -> {
			});
		}
	}

}
