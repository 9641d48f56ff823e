package io.refstore.core.interop;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One run of the differential test on a pair of twins of one {@link StoreFormat}, as the
 * test classes start it: sets up the object pool and the tools from the system
 * properties, runs, prints a report, and asserts that twin B never differed from git. Not
 * thread-safe; one instance per run.
 *
 * <p>
 * System properties: {@code refstore.seed} (the seed; printed on failure),
 * {@code refstore.difftest.twinB} ({@code refstore}, the default, or {@code git} to prove
 * the harness with git on both twins), {@code refstore.difftest.symrefMessages}
 * ({@code symbolic-ref -m}, default true), {@code refstore.difftest.stopAtFirst} (stop at
 * the first difference instead of recording it, resetting twin B to twin A and going on).
 */
final class DifferentialTest {

	private final String label;

	private final StoreFormat format;

	private final long defaultSeed;

	private final AtomicLong gitTime = new AtomicLong();

	private final AtomicLong refstoreTime = new AtomicLong();

	private final AtomicLong jarTime = new AtomicLong();

	/**
	 * @param label the test class's name, for the report
	 * @param defaultSeed the seed unless {@code refstore.seed} is set
	 */
	DifferentialTest(String label, StoreFormat format, long defaultSeed) {
		this.label = label;
		this.format = format;
		this.defaultSeed = defaultSeed;
	}

	/**
	 * Runs at least {@code transactions} transactions on the twins {@code a} (git's) and
	 * {@code b}, made identically by the format's git, and asserts that twin B never
	 * differed.
	 * @param seedOffset added to the seed, so that several runs of one class differ
	 * @return what the run did, for further assertions
	 */
	DifferentialRun.Counts run(TempRepo a, TempRepo b, int transactions, long seedOffset) {
		ObjectPool pool = ObjectPool.create(a, 48);
		assertThat(ObjectPool.create(b, 48).sameAs(pool)).as("both twins hold the same objects").isTrue();
		if (a.gitDir().equals(a.dir())) {
			a.git("config", "core.logAllRefUpdates", "always");
			b.git("config", "core.logAllRefUpdates", "always");
		}
		long seed = Long.getLong("refstore.seed", this.defaultSeed) + seedOffset;
		boolean gitOnBoth = System.getProperty("refstore.difftest.twinB", "refstore").equals("git");
		RefTool gitTool = RefTool.git(this.format.git()).timed(this.gitTime);
		RefTool toolB = gitOnBoth ? gitTool
				: RefTool.refstoreInProcess(this.format.git().env()).timed(this.refstoreTime);
		RefTool jarB = gitOnBoth ? gitTool : RefTool.refstoreJar().timed(this.jarTime);
		DifferentialRun[] holder = new DifferentialRun[1];
		Twins twins = new Twins(a, b, this.format, gitTool, gitOnBoth ? null : toolB, gitOnBoth ? null : jarB,
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
		}
		DifferentialRun.Counts counts = holder[0].counts();
		assertThat(counts.differences.size())
			.as("steps where twin B differed from git (each reset to twin A afterwards):\n%s",
					String.join("\n", counts.differences.stream().map(DifferentialTest::headline).toList()))
			.isZero();
		assertThat(counts.transactions).isGreaterThanOrEqualTo(transactions);
		assertThat(counts.failuresSeenGit).as("failures seen by git").isEqualTo(counts.failuresSeenB);
		assertThat(counts.expectedFailures.values().stream().mapToInt(Integer::intValue).sum()).as("failures expected")
			.isEqualTo(counts.failuresSeenGit);
		return counts;
	}

	private static String headline(String difference) {
		return difference.lines().findFirst().orElse("");
	}

	private void report(DifferentialRun run, RefTool toolB, long seed, long start) {
		String prefix = "[" + this.label + "] ";
		long millis = (System.nanoTime() - start) / 1_000_000;
		System.out.println(
				prefix + "seed " + seed + ", twin B by " + toolB.name() + ", " + run.counts() + ", " + millis + " ms");
		if (!run.counts().stacks().isEmpty()) {
			System.out.println(prefix + run.counts().stacks());
		}
		System.out.printf("%stime in git %d ms, refstore in-process %d ms, refstore jar %d ms%n", prefix,
				this.gitTime.get() / 1_000_000, this.refstoreTime.get() / 1_000_000, this.jarTime.get() / 1_000_000);
		if (!run.counts().stderrDifferences.isEmpty()) {
			System.out.println(prefix + "first differences in error output (not failed on):");
			run.counts().stderrDifferences.forEach((line) -> System.out.println("  " + line));
		}
		List<String> differences = run.counts().differences;
		if (!differences.isEmpty()) {
			System.out.println(prefix + differences.size() + " differences of twin B:");
			differences.forEach((difference) -> System.out.println("  " + headline(difference)));
			System.out.println(prefix + "in full:");
			differences.stream().limit(30).forEach(System.out::println);
		}
		if (!run.counts().directoryDifferences.isEmpty()) {
			System.out.println(prefix + "first directories found in one twin only (not failed on):");
			run.counts().directoryDifferences.forEach((line) -> System.out.println("  " + line));
		}
	}

}
