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
 * Runs generated steps on both twins and checks, after every step: git on twin A answered what the model
 * predicted (exit code, standard output, refs), the tool on twin B answered exactly as git did (exit code and
 * standard output bytes), both twins' ref files are byte-identical, and a step that failed left twin B as it
 * was. Every few steps, and at the end, readers of both twins are compared too. Counts what it did. Not
 * thread-safe.
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

		@Override
		public String toString() {
			int expected = this.expectedFailures.values().stream().mapToInt(Integer::intValue).sum();
			return String.format("steps %d, update-ref sessions %d, transactions %d (committed %d), "
					+ "failures expected %d / seen by git %d / seen on twin B %d, by reason %s, jar steps %d, "
					+ "reader commands %d, reflogs compared %d, stderr differences %d, steps leaving other directories %d",
					this.steps, this.sessions,
					this.transactions, this.committed, expected, this.failuresSeenGit, this.failuresSeenB,
					this.expectedFailures, this.jarSteps, this.readerCommands, this.reflogs,
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
	 * @param toolB the tool that writes twin B in most steps
	 * @param jarB the tool for every twelfth step on twin B (the same as {@code toolB} when B is git)
	 * @param survey whether to record differences of twin B and go on (reset to twin A) instead of stopping
	 */
	DifferentialRun(Twins twins, RefTool git, RefTool toolB, RefTool jarB, ObjectPool pool, long seed,
			boolean symrefMessages, int readerEvery, boolean survey) {
		this.survey = survey;
		this.twins = twins;
		this.git = git;
		this.toolB = toolB;
		this.jarB = jarB;
		this.readerEvery = readerEvery;
		this.generator = new SessionGenerator(new Random(seed), NamePool.standard(), pool, symrefMessages);
		this.model = new RefModel(RepoSnapshot.of(twins.a().gitDir()).refs(), pool);
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

	/** Runs steps until at least {@code transactions} transactions ran, then compares everything once more. */
	void run(int transactions) {
		while (this.counts.transactions < transactions) {
			step(this.generator.next(this.model));
			if (this.counts.steps % this.readerEvery == 0) {
				survey(() -> this.counts.readerCommands += this.twins.compareReaders(false));
			}
		}
		survey(() -> this.twins.compareFiles("the last step", this::directoryDifference));
		survey(() -> this.counts.readerCommands += this.twins.compareReaders(true));
		survey(() -> this.counts.reflogs += this.twins.compareReflogs(RepoSnapshot.of(this.twins.a().gitDir())));
		this.twins.fsck();
	}

	private void step(Step step) {
		this.counts.steps++;
		List<String> args = arguments(step);
		byte[] stdin = (step instanceof UpdateRefStep session) ? session.session().input() : new byte[0];
		RepoSnapshot beforeB = RepoSnapshot.of(this.twins.b().gitDir());
		GitCli.Result resultA = this.git.run(this.twins.a().dir(), stdin, args);
		checkPrediction(step, stdin, resultA);
		boolean jar = this.counts.steps % 12 == 5;
		RefTool tool = jar ? this.jarB : this.toolB;
		this.counts.jarSteps += (jar && tool != this.toolB) ? 1 : 0;
		GitCli.Result resultB = tool.run(this.twins.b().dir(), stdin, args);
		if (resultA.exitCode() != 0) {
			this.counts.failuresSeenGit++;
		}
		if (resultB.exitCode() != 0) {
			this.counts.failuresSeenB++;
		}
		compareErrors(resultA, resultB);
		survey(() -> {
			this.twins.same(resultA, resultB, tool.name() + " on twin B (input:\n" + Twins.show(stdin) + ")");
			this.twins.compareFiles(args + " with input:\n" + Twins.show(stdin), this::directoryDifference);
			if (resultA.exitCode() != 0 && committedNothing(step)) {
				String changed = beforeB.differences(RepoSnapshot.of(this.twins.b().gitDir()), "before", "after");
				if (changed != null) {
					throw new AssertionError(this.twins.context() + ": a failed command changed twin B:\n" + changed);
				}
			}
		});
		this.model = step.after();
	}

	/**
	 * Runs a comparison of twin B; in survey mode a difference is recorded, twin B is reset to twin A's refs,
	 * and the run goes on, so one run reports every kind of difference instead of the first one only.
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

	/** The harness's own check: git did what the model said, or the model (not refstore) is wrong. */
	private void checkPrediction(Step step, byte[] stdin, GitCli.Result result) {
		int exit;
		byte[] stdout = null;
		if (step instanceof UpdateRefStep session) {
			exit = session.expected().exitCode();
			stdout = session.expected().stdout();
		}
		else {
			exit = ((CommandStep) step).expectedExit();
		}
		RepoSnapshot snapshot = RepoSnapshot.of(this.twins.a().gitDir());
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

	/** Error messages may be worded differently; they are counted and sampled, not failed on. */
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
