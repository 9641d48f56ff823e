package io.refstore.core.interop;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.refstore.core.interop.RefModel.Failure;
import io.refstore.core.interop.SessionGenerator.CommandStep;
import io.refstore.core.interop.SessionGenerator.Step;
import io.refstore.core.interop.SessionGenerator.UpdateRefStep;
import io.refstore.core.testing.GitCli;

/**
 * Runs generated steps on both twins and checks, after every step: git on twin A answered
 * what the model predicted (exit code, standard output, refs), the tool on twin B
 * answered exactly as git did (exit code and standard output bytes), both twins' stores
 * hold the same (byte-identical ref files for files; the same refs and reflogs as git and
 * refstore read them for reftable, see {@link StoreSnapshot}), and a step that failed
 * left twin B as it was. Every few steps, and at the end, readers of both twins are
 * compared too; at the end also every reflog, {@code git fsck} and the format's
 * consistency checks. Counts what it did, reftable compactions included. Not thread-safe.
 */
final class DifferentialRun {

	/** What a run did, for the report printed at its end. */
	static final class Counts {

		int steps;

		int sessions;

		int transactions;

		int committed;

		int jarSteps;

		int readerCommands;

		int reflogs;

		final Map<Failure, Integer> expectedFailures = new EnumMap<>(Failure.class);

		int failuresSeenGit;

		int failuresSeenB;

		final List<String> stderrDifferences = new ArrayList<>();

		int stderrDifferenceCount;

		final List<String> directoryDifferences = new ArrayList<>();

		/** Failures of twin B recorded in survey mode, in order. */
		final List<String> differences = new ArrayList<>();

		int directoryDifferenceCount;

		int verifications;

		/**
		 * Steps after which a stack (reftable) lists fewer of the tables it had: by
		 * pack-refs, or else automatic.
		 */
		int packedA;

		int packedB;

		int autoCompactedA;

		int autoCompactedB;

		int deepestA;

		int deepestB;

		/**
		 * Steps after which the twins' stacks end at different update indices
		 * (legitimate; reported).
		 */
		int updateIndexDifferences;

		String firstUpdateIndexDifference;

		/** The reftable stacks' story (empty for files). */
		String stacks() {
			if (this.deepestA == 0 && this.deepestB == 0) {
				return "";
			}
			return String.format(
					"stacks: deepest %d tables (twin A) / %d (twin B), compacted by pack-refs %d / %d "
							+ "times, automatically %d / %d times; steps ending at different update indices %d%s; "
							+ "refs verify runs %d",
					this.deepestA, this.deepestB, this.packedA, this.packedB, this.autoCompactedA, this.autoCompactedB,
					this.updateIndexDifferences, (this.firstUpdateIndexDifference != null)
							? " (first: " + this.firstUpdateIndexDifference + ")" : "",
					this.verifications);
		}

		@Override
		public String toString() {
			int expected = this.expectedFailures.values().stream().mapToInt(Integer::intValue).sum();
			return String.format("steps %d, update-ref sessions %d, transactions %d (committed %d), "
					+ "failures expected %d / seen by git %d / seen on twin B %d, by reason %s, jar steps %d, "
					+ "reader commands %d, reflogs compared %d, stderr differences %d, steps leaving other directories %d",
					this.steps, this.sessions, this.transactions, this.committed, expected, this.failuresSeenGit,
					this.failuresSeenB, this.expectedFailures, this.jarSteps, this.readerCommands, this.reflogs,
					this.stderrDifferenceCount, this.directoryDifferenceCount);
		}

	}

	private final Twins twins;

	private final RefTool git;

	private final RefTool toolB;

	private final RefTool jarB;

	private final SessionGenerator generator;

	private final Counts counts = new Counts();

	private final int readerEvery;

	private final boolean survey;

	private RefModel model;

	/**
	 * Twin A's store after the last step (only git writes it, so it is still current).
	 */
	private StoreSnapshot lastA;

	/**
	 * @param toolB the tool that writes twin B in most steps
	 * @param jarB the tool for every twelfth step on twin B (the same as {@code toolB}
	 * when B is git)
	 * @param survey whether to record differences of twin B and go on (reset to twin A)
	 * instead of stopping
	 */
	DifferentialRun(Twins twins, RefTool git, RefTool toolB, RefTool jarB, ObjectPool pool, long seed,
			boolean symrefMessages, int readerEvery, boolean survey) {
		this.survey = survey;
		this.twins = twins;
		this.git = git;
		this.toolB = toolB;
		this.jarB = jarB;
		this.readerEvery = readerEvery;
		this.generator = new SessionGenerator(new Random(seed), NamePool.standard(), pool, symrefMessages,
				twins.format().backend());
		this.lastA = twins.snapshotA();
		this.model = new RefModel(this.lastA.refs(), pool, twins.format().backend());
	}

	Counts counts() {
		return this.counts;
	}

	/** The step being run, for failure messages. */
	String where() {
		return "step " + this.counts.steps;
	}

	/** The harness's own failures say where they happened. */
	private String context() {
		return this.twins.context();
	}

	/**
	 * Runs steps until at least {@code transactions} transactions ran, then compares
	 * everything once more.
	 */
	void run(int transactions) {
		while (this.counts.transactions < transactions) {
			step(this.generator.next(this.model));
			if (this.counts.steps % this.readerEvery == 0) {
				survey(() -> this.counts.readerCommands += this.twins.compareReaders(false));
			}
		}
		survey(() -> this.twins.compareStores("the last step", this.twins.snapshotA(), this::directoryDifference));
		survey(() -> this.counts.readerCommands += this.twins.compareReaders(true));
		survey(() -> this.counts.reflogs += this.twins.compareReflogs(this.twins.snapshotA()));
		this.twins.fsck();
		this.counts.verifications += this.twins.verify();
	}

	private void step(Step step) {
		this.counts.steps++;
		List<String> args = arguments(step);
		byte[] stdin = (step instanceof UpdateRefStep session) ? session.session().input() : new byte[0];
		StoreSnapshot beforeB = this.twins.snapshotB();
		GitCli.Result resultA = this.git.run(this.twins.a().dir(), stdin, args);
		StoreSnapshot afterA = this.twins.snapshotA();
		checkPrediction(step, stdin, resultA, afterA);
		boolean packRefs = args.get(0).equals("pack-refs");
		countStack(packRefs, this.lastA, afterA, true);
		this.lastA = afterA;
		boolean jar = this.counts.steps % 12 == 5;
		RefTool tool = jar ? this.jarB : this.toolB;
		this.counts.jarSteps += (jar && tool != this.toolB) ? 1 : 0;
		GitCli.Result resultB = tool.run(this.twins.b().dir(), stdin, args);
		this.counts.failuresSeenGit += (resultA.exitCode() != 0) ? 1 : 0;
		this.counts.failuresSeenB += (resultB.exitCode() != 0) ? 1 : 0;
		compareErrors(resultA, resultB);
		survey(() -> {
			this.twins.same(resultA, resultB, tool.name() + " on twin B (input:\n" + Twins.show(stdin) + ")");
			StoreSnapshot afterB = this.twins.compareStores(args + " with input:\n" + Twins.show(stdin), afterA,
					this::directoryDifference);
			if (resultA.exitCode() != 0 && committedNothing(step)) {
				checkUnchanged(beforeB, afterB);
			}
			countStack(packRefs, beforeB, afterB, false);
			compareUpdateIndices(afterA, afterB, args);
		});
		this.model = step.after();
	}

	/** A command that failed without committing anything must leave twin B as it was. */
	private void checkUnchanged(StoreSnapshot before, StoreSnapshot after) {
		String changed = before.changes(after);
		if (changed != null) {
			throw new AssertionError(this.twins.context() + ": a failed command changed twin B:\n" + changed);
		}
	}

	/**
	 * Counts compactions: tables that one step's snapshot lists and the next no longer
	 * does.
	 */
	private void countStack(boolean packRefs, StoreSnapshot before, StoreSnapshot after, boolean twinA) {
		boolean compacted = before.tablesGoneIn(after) > 0;
		if (after instanceof ReftableSnapshot stack) {
			int depth = stack.tables().size();
			if (twinA) {
				this.counts.deepestA = Math.max(this.counts.deepestA, depth);
				this.counts.packedA += (compacted && packRefs) ? 1 : 0;
				this.counts.autoCompactedA += (compacted && !packRefs) ? 1 : 0;
			}
			else {
				this.counts.deepestB = Math.max(this.counts.deepestB, depth);
				this.counts.packedB += (compacted && packRefs) ? 1 : 0;
				this.counts.autoCompactedB += (compacted && !packRefs) ? 1 : 0;
			}
		}
	}

	private void compareUpdateIndices(StoreSnapshot afterA, StoreSnapshot afterB, List<String> args) {
		if (afterA instanceof ReftableSnapshot stackA && afterB instanceof ReftableSnapshot stackB
				&& stackA.maxUpdateIndex() != stackB.maxUpdateIndex()) {
			this.counts.updateIndexDifferences++;
			if (this.counts.firstUpdateIndexDifference == null) {
				this.counts.firstUpdateIndexDifference = where() + " " + args + ": " + stackA.maxUpdateIndex() + " vs "
						+ stackB.maxUpdateIndex();
			}
		}
	}

	/**
	 * Runs a comparison of twin B; in survey mode a difference is recorded, twin B is
	 * reset to twin A's refs, and the run goes on, so one run reports every kind of
	 * difference instead of the first one only.
	 */
	private void survey(Runnable comparison) {
		try {
			comparison.run();
		}
		catch (AssertionError difference) {
			if (!this.survey) {
				throw difference;
			}
			this.counts.differences.add(difference.getMessage());
			this.twins.resetB();
		}
	}

	private List<String> arguments(Step step) {
		if (step instanceof UpdateRefStep session) {
			this.counts.sessions++;
			this.counts.transactions += session.transactions();
			this.counts.committed += session.expected().committed();
			count(session.expected().failure());
			return session.session().arguments();
		}
		CommandStep command = (CommandStep) step;
		count(command.failure());
		return command.args();
	}

	private void count(Failure failure) {
		if (failure != null) {
			this.counts.expectedFailures.merge(failure, 1, Integer::sum);
		}
	}

	private static boolean committedNothing(Step step) {
		return !(step instanceof UpdateRefStep session) || session.expected().committed() == 0;
	}

	/**
	 * The harness's own check: git did what the model said, or the model (not refstore)
	 * is wrong.
	 */
	private void checkPrediction(Step step, byte[] stdin, GitCli.Result result, StoreSnapshot snapshot) {
		int exit;
		byte[] stdout = null;
		if (step instanceof UpdateRefStep session) {
			exit = session.expected().exitCode();
			stdout = session.expected().stdout();
		}
		else {
			exit = ((CommandStep) step).expectedExit();
		}
		boolean sameRefs = snapshot.refs().equals(step.after().refs());
		if (result.exitCode() != exit || (stdout != null && !Arrays.equals(stdout, result.out())) || !sameRefs) {
			throw new AssertionError(context() + ": the test's model of git is wrong (a harness bug, not a refstore "
					+ "one): expected exit " + exit + (stdout != null ? " and stdout\n" + Twins.show(stdout) : "")
					+ "\nrefs as expected: " + sameRefs + "\nmodel: " + step.after().refs() + "\ngit:   "
					+ snapshot.refs() + "\ninput:\n" + Twins.show(stdin) + "\n" + Twins.describe("git", result));
		}
	}

	private void directoryDifference(String description) {
		this.counts.directoryDifferenceCount++;
		if (this.counts.directoryDifferences.size() < 10) {
			this.counts.directoryDifferences.add(description);
		}
	}

	/**
	 * Error messages may be worded differently; they are counted and sampled, not failed
	 * on.
	 */
	private void compareErrors(GitCli.Result resultA, GitCli.Result resultB) {
		if (!Arrays.equals(resultA.err(), resultB.err())) {
			this.counts.stderrDifferenceCount++;
			if (this.counts.stderrDifferences.size() < 40) {
				this.counts.stderrDifferences.add(resultA.command() + "\n    git:      "
						+ new String(resultA.err(), StandardCharsets.UTF_8).strip() + "\n    twin B:   "
						+ new String(resultB.err(), StandardCharsets.UTF_8).strip());
			}
		}
	}

}
