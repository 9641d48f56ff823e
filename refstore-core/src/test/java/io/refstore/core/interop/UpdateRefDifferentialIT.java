package io.refstore.core.interop;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The differential test of {@code update-ref --stdin}: seeded random transactions (creates, updates with and
 * without old values, deletes, verifies, {@code option no-deref}, updates through {@code HEAD} and other
 * symbolic refs, {@code start}/{@code prepare}/{@code commit}/{@code abort}, and transactions that must fail),
 * interleaved with {@code symbolic-ref} and {@code pack-refs}, applied by git to twin A and by refstore to
 * twin B. After every step both answer the same bytes and both twins hold the same ref files byte for byte;
 * readers (git's and refstore's) of both twins are compared every few steps and at the end, with all reflogs
 * and {@code git fsck}.
 *
 * <p>System properties: {@code refstore.seed} (the seed; printed on failure), {@code refstore.difftest.transactions}
 * (at least this many in the main run), {@code refstore.difftest.twinB} ({@code refstore}, the default, or
 * {@code git} to prove the harness with git on both twins), {@code refstore.difftest.symrefMessages}
 * ({@code symbolic-ref -m}, default true), {@code refstore.difftest.stopAtFirst} (stop at the first difference
 * instead of recording it, resetting twin B to twin A and going on).
 */
class UpdateRefDifferentialIT {

	private static final long DEFAULT_SEED = 20240611L;

	private final GitCli git = GitCli.system();

	private final AtomicLong gitTime = new AtomicLong();

	private final AtomicLong refstoreTime = new AtomicLong();

	private final AtomicLong jarTime = new AtomicLong();

	@Test
	void refstoreWritesWhatGitWritesInARepositoryWithAWorkingTree(@TempDir Path dir) {
		TempRepo a = TempRepo.init(this.git, dir.resolve("a"));
		TempRepo b = TempRepo.init(this.git, dir.resolve("b"));
		run(a, b, Integer.getInteger("refstore.difftest.transactions", 2000), 1);
	}

	@Test
	void refstoreWritesWhatGitWritesInABareRepositoryLoggingEveryRef(@TempDir Path dir) {
		TempRepo a = TempRepo.init(this.git, dir.resolve("a.git"), "--bare");
		TempRepo b = TempRepo.init(this.git, dir.resolve("b.git"), "--bare");
		run(a, b, Integer.getInteger("refstore.difftest.transactions", 2000) / 4, 2);
	}

	private void run(TempRepo a, TempRepo b, int transactions, long seedOffset) {
		ObjectPool pool = ObjectPool.create(a, 48);
		assertThat(ObjectPool.create(b, 48).sameAs(pool)).as("both twins hold the same objects").isTrue();
		if (a.gitDir().equals(a.dir())) {
			a.git("config", "core.logAllRefUpdates", "always");
			b.git("config", "core.logAllRefUpdates", "always");
		}
		long seed = Long.getLong("refstore.seed", DEFAULT_SEED) + seedOffset;
		boolean gitOnBoth = System.getProperty("refstore.difftest.twinB", "refstore").equals("git");
		RefTool gitTool = RefTool.git(this.git).timed(this.gitTime);
		RefTool toolB = gitOnBoth ? gitTool : RefTool.refstoreInProcess(this.git.env()).timed(this.refstoreTime);
		RefTool jarB = gitOnBoth ? gitTool : RefTool.refstoreJar().timed(this.jarTime);
		DifferentialRun[] holder = new DifferentialRun[1];
		Twins twins = new Twins(a, b, gitTool, gitOnBoth ? null : toolB, gitOnBoth ? null : jarB,
				() -> "seed " + seed + " (rerun with -Drefstore.seed=" + (seed - seedOffset) + "), "
						+ holder[0].where());
		boolean symrefMessages = Boolean.parseBoolean(System.getProperty("refstore.difftest.symrefMessages", "true"));
		boolean survey = !Boolean.getBoolean("refstore.difftest.stopAtFirst");
		holder[0] = new DifferentialRun(twins, gitTool, toolB, jarB, pool, seed, symrefMessages, 6, survey);
		long start = System.nanoTime();
		try {
			holder[0].run(transactions);
		}
		finally {
			report(holder[0], toolB, seed, start);
			System.out.printf("[UpdateRefDifferentialIT] time in git %d ms, refstore in-process %d ms, refstore jar %d ms%n",
					this.gitTime.get() / 1_000_000, this.refstoreTime.get() / 1_000_000, this.jarTime.get() / 1_000_000);
		}
		DifferentialRun.Counts counts = holder[0].counts();
		assertThat(counts.differences.size())
			.as("steps where twin B differed from git (each reset to twin A afterwards):\n%s",
					String.join("\n", counts.differences.stream().map(UpdateRefDifferentialIT::headline).toList()))
			.isZero();
		assertThat(counts.transactions).isGreaterThanOrEqualTo(transactions);
		assertThat(counts.failuresSeenGit).as("failures seen by git").isEqualTo(counts.failuresSeenB);
		assertThat(counts.expectedFailures.values().stream().mapToInt(Integer::intValue).sum())
			.as("failures expected").isEqualTo(counts.failuresSeenGit);
	}

	private static String headline(String difference) {
		return difference.lines().findFirst().orElse("");
	}

	private static void report(DifferentialRun run, RefTool toolB, long seed, long start) {
		long millis = (System.nanoTime() - start) / 1_000_000;
		System.out.println("[UpdateRefDifferentialIT] seed " + seed + ", twin B by " + toolB.name() + ", "
				+ run.counts() + ", " + millis + " ms");
		if (!run.counts().stderrDifferences.isEmpty()) {
			System.out.println("[UpdateRefDifferentialIT] first differences in error output (not failed on):");
			run.counts().stderrDifferences.forEach((line) -> System.out.println("  " + line));
		}
		List<String> differences = run.counts().differences;
		if (!differences.isEmpty()) {
			System.out.println("[UpdateRefDifferentialIT] " + differences.size() + " differences of twin B:");
			differences.forEach((difference) -> System.out.println("  " + headline(difference)));
			System.out.println("[UpdateRefDifferentialIT] in full:");
			differences.stream().limit(30).forEach(System.out::println);
		}
		if (!run.counts().directoryDifferences.isEmpty()) {
			System.out.println("[UpdateRefDifferentialIT] first directories found in one twin only (not failed on):");
			run.counts().directoryDifferences.forEach((line) -> System.out.println("  " + line));
		}
	}

}
