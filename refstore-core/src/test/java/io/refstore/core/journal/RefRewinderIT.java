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

	private static RefRewinder.Result apply(TempRepo repo, RewindPlan plan) throws IOException {
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment());
				RefStore store = RefStores.open(repository)) {
			return new RefRewinder(store, "rewind").apply(plan, 10, (done) -> {
			});
		}
	}

}
