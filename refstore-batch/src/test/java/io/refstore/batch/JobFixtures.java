package io.refstore.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;

import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Repositories made by real gits for the job tests, and what git shows of them.
 */
public final class JobFixtures {

	/** The reftable-capable git; it judges both formats. */
	public static final GitCli NEWEST = GitCli.reftable();

	private JobFixtures() {
	}

	/**
	 * A repository below {@code root} with {@code branches} branches (under
	 * {@code refs/heads/b/}), tags (lightweight and annotated), a symbolic ref and
	 * reflogs, made by git 2.39 (files) or the newest git (reftable).
	 */
	public static TempRepo create(Path root, String name, RefFormat format, int branches) {
		TempRepo repo = (format == RefFormat.REFTABLE)
				? TempRepo.init(NEWEST, root.resolve(name), "--ref-format=reftable")
				: TempRepo.init(GitCli.system(), root.resolve(name));
		repo.git("config", "gc.auto", "0");
		repo.git("config", "maintenance.auto", "false");
		repo.git("config", "core.logAllRefUpdates", "true");
		List<String> commits = repo.commits(3, "commit");
		StringBuilder stdin = new StringBuilder();
		stdin.append("create refs/heads/main ").append(commits.get(2)).append('\n');
		for (int i = 0; i < branches; i++) {
			stdin.append(String.format("create refs/heads/b/%05d %s%n", i, commits.get(i % 3)));
		}
		for (int i = 0; i < 5; i++) {
			stdin.append(String.format("create refs/tags/v%d %s%n", i, commits.get(i % 3)));
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("tag", "-a", "-m", "annotated", "release", commits.get(1));
		repo.git("symbolic-ref", "refs/heads/alias", "refs/heads/main");
		repo.git("update-ref", "-m", "moved", "refs/heads/main", commits.get(1));
		return repo;
	}

	/**
	 * Every ref with root refs, value and symbolic target, as the newest git lists them.
	 */
	public static String refs(Path dir) {
		return NEWEST.ok(dir, "for-each-ref", "--include-root-refs", "--format=%(refname) %(objectname) %(symref)");
	}

	/** {@code show-ref -d}: refs and peeled tags. */
	public static String showRef(Path dir) {
		return NEWEST.ok(dir, "show-ref", "-d");
	}

	/** The ref format git reads. */
	public static String format(Path dir) {
		return NEWEST.ok(dir, "rev-parse", "--show-ref-format").strip();
	}

	/**
	 * Checks the store the way git does: {@code refs verify} and {@code fsck} must be
	 * clean.
	 */
	public static void assertSound(Path dir) {
		GitCli.Result verify = NEWEST.run(dir, "refs", "verify");
		assertThat(verify.exitCode()).as("git refs verify: " + verify.stderr()).isZero();
		GitCli.Result fsck = NEWEST.run(dir, "fsck", "--no-progress");
		assertThat(fsck.exitCode()).as("git fsck: " + fsck.stderr()).isZero();
	}

	/** Waits (at most 120 s) until the execution has ended and returns it. */
	public static JobSummary await(RefJobs jobs, long executionId) {
		return Awaitility.await("execution " + executionId + " to end")
			.atMost(Duration.ofSeconds(120))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> jobs.find(executionId).orElseThrow(), (summary) -> summary.ended() != null);
	}

}
