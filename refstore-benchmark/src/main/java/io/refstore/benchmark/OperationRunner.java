package io.refstore.benchmark;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.refstore.benchmark.OperationResult.Side;
import io.refstore.core.cli.Refstore;

/**
 * Runs one operation on every side and measures it: git and the refstore command as whole
 * processes, interleaved run by run so that a change in the machine's load hits both
 * alike; then the refstore command's code and the core API in this JVM, warmed up first.
 * A mutating operation gets a fresh copy of its repository for every run, made (and
 * synced to disk) outside the timed part, and the side's setup, if it has one, runs there
 * before the clock starts. Every side's first run is judged against git's. Not
 * thread-safe.
 */
final class OperationRunner {

	private final Processes processes;

	private final List<String> git;

	private final List<String> refstore;

	private final Path scratch;

	private final int runs;

	private final Judge judge;

	private final HeapMeter heap = new HeapMeter();

	private final PrintStream log;

	/** What a setup runs: the same git and refstore as the timed runs. */
	private final Operation.Tools tools = new Operation.Tools() {

		@Override
		public String git(Path repo, String... args) {
			return tool(OperationRunner.this.git, repo, args);
		}

		@Override
		public String refstore(Path repo, String... args) {
			return tool(OperationRunner.this.refstore, repo, args);
		}

	};

	/**
	 * @param git the git command (executable and fixed arguments)
	 * @param refstore the refstore command as the {@code ./refstore} launcher runs it
	 * @param scratch an empty directory for copies and outputs
	 * @param runs the requested number of timed runs
	 */
	OperationRunner(Processes processes, List<String> git, List<String> refstore, Path scratch, int runs,
			PrintStream log) {
		this.processes = processes;
		this.git = List.copyOf(git);
		this.refstore = List.copyOf(refstore);
		this.scratch = scratch;
		this.runs = runs;
		this.judge = new Judge(processes, git.get(0), scratch);
		this.log = log;
	}

	/**
	 * Measures {@code operation}.
	 * @param refstoreMissing why refstore cannot run it (only git is measured then), or
	 * {@code null}
	 */
	OperationResult run(Operation operation, String refstoreMissing) throws IOException {
		Plan plan = plan(operation.weight());
		this.log.printf("%-28s %s%n", operation.id(), operation.label());
		Side[] processes = wholeProcesses(operation, plan, refstoreMissing);
		if (processes[0].problem() != null) {
			String why = "git failed: " + processes[0].problem();
			return new OperationResult(operation, processes[0], Side.missing(why), Side.missing(why),
					Side.missing(why));
		}
		if (processes[1].problem() != null && processes[1].problem().startsWith("timed out")) {
			Side skipped = Side.missing("not run, as the refstore process " + processes[1].problem());
			return new OperationResult(operation, processes[0], processes[1], skipped, skipped);
		}
		if (operation.check() == Operation.Check.NONE) {
			// start-up has no in-process counterpart: the benchmark JVM has started
			// already
			return new OperationResult(operation, processes[0], processes[1], Side.missing(null), Side.missing(null));
		}
		Side command = (refstoreMissing != null) ? Side.missing(refstoreMissing)
				: inProcess(operation, plan, (repo, args, out) -> runCommand(operation, repo, args, out));
		Side api = (operation.api() == null) ? Side.missing("no core API for it")
				: inProcess(operation, plan, (repo, args, out) -> operation.api().run(repo, this.processes.env(), out));
		return new OperationResult(operation, processes[0], processes[1], command, api);
	}

	private Plan plan(Operation.Weight weight) {
		return switch (weight) {
			case FAST -> new Plan(2, Math.max(this.runs, 15), 200, Duration.ofSeconds(2), Math.max(this.runs, 15),
					Duration.ofSeconds(1), 10_000, false, false);
			case NORMAL -> new Plan(1, this.runs, 3, Duration.ofSeconds(2), this.runs, Duration.ZERO, 100, true, false);
			case SLOW -> new Plan(0, Math.min(this.runs, 3), 1, Duration.ZERO, Math.min(this.runs, 3), Duration.ZERO, 3,
					true, true);
		};
	}

	/**
	 * git and refstore, alternating; git's first run becomes the reference refstore is
	 * judged by.
	 */
	private Side[] wholeProcesses(Operation operation, Plan plan, String refstoreMissing) throws IOException {
		Sampled git = new Sampled();
		Sampled refstore = new Sampled();
		if (refstoreMissing != null) {
			refstore.stop(refstoreMissing);
		}
		for (int i = 0; i < plan.processWarmups() + plan.processRuns(); i++) {
			boolean timed = i >= plan.processWarmups();
			processRun(operation, "git", this.git, operation.git(), git, timed, i == 0, null);
			if (git.stopped != null) {
				refstore.stop("git failed");
				break;
			}
			processRun(operation, "refstore", this.refstore, operation.refstore(), refstore, timed, false, i == 0);
		}
		return new Side[] { git.side(), refstore.side() };
	}

	private void processRun(Operation operation, String name, List<String> executable, Operation.Invocation invocation,
			Sampled into, boolean timed, boolean reference, Boolean judged) throws IOException {
		if (into.stopped != null) {
			return;
		}
		Path repo = prepare(operation, name);
		List<String> args = setUp(invocation, repo, into);
		if (args == null) {
			cleanUp(operation, repo);
			return;
		}
		Path out = this.scratch.resolve(name + "-out.txt");
		List<String> command = new ArrayList<>(executable);
		command.addAll(args);
		Processes.Measured measured = this.processes.measure(command, repo, invocation.stdin(), out, operation.env());
		if (measured.exitCode() == Processes.TIMED_OUT) {
			into.stop(measured.stderr());
		}
		else if (measured.exitCode() != 0) {
			into.stop("exit " + measured.exitCode() + ": " + measured.stderr());
		}
		else {
			if (reference) {
				this.judge.expect(operation, out, repo);
			}
			if (Boolean.TRUE.equals(judged)) {
				into.note(this.judge.judge(operation, out, repo));
			}
			if (timed) {
				into.add(measured.wallNanos(), -1);
				into.rss = Math.max(into.rss, measured.peakRssKib());
			}
		}
		cleanUp(operation, repo);
	}

	private Side inProcess(Operation operation, Plan plan, Task task) throws IOException {
		Sampled sampled = new Sampled();
		// warm-up counts the work's own time, not the copies made for it: a 10 ms
		// operation on a repository
		// that takes 150 ms to copy would otherwise be measured after a few hundred
		// milliseconds of work, before
		// the JIT has finished with it
		long warmed = 0;
		int done = 0;
		while (sampled.stopped == null
				&& (done < plan.warmMin() || (done < plan.cap() && warmed < plan.warm().toNanos()))) {
			warmed += sample(operation, plan, task, sampled, false, done++ == 0);
		}
		long start = System.nanoTime();
		done = 0;
		while (sampled.stopped == null && (done < plan.runMin()
				|| (done < plan.cap() && System.nanoTime() - start < plan.measure().toNanos()))) {
			sample(operation, plan, task, sampled, true, false);
			done++;
		}
		return sampled.side();
	}

	/** One in-process run; returns its wall time. */
	private long sample(Operation operation, Plan plan, Task task, Sampled into, boolean timed, boolean judged)
			throws IOException {
		Path repo = prepare(operation, "in-process");
		List<String> args = setUp(operation.refstore(), repo, into);
		if (args == null) {
			cleanUp(operation, repo);
			return 0;
		}
		long wall = 0;
		Path out = this.scratch.resolve("in-process-out.txt");
		// buffered as a process's stdout is: the timed part writes into memory, the last
		// flush comes after it
		boolean meter = timed ? plan.meterTimed() : plan.meterWarmup();
		try (OutputStream sink = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16)) {
			this.heap.start(meter);
			long begin = System.nanoTime();
			task.run(repo, args, sink);
			wall = System.nanoTime() - begin;
			long allocated = this.heap.allocated();
			if (meter) {
				into.peak(this.heap.peakGrowth());
			}
			if (timed) {
				into.add(wall, allocated);
			}
		}
		catch (IOException | RuntimeException ex) {
			into.stop("failed: " + ex);
		}
		if (judged && into.stopped == null) {
			into.note(this.judge.judge(operation, out, repo));
		}
		cleanUp(operation, repo);
		return wall;
	}

	/**
	 * Runs the refstore command's code in this JVM, as {@code ./refstore} would run it in
	 * a new one.
	 */
	private void runCommand(Operation operation, Path repo, List<String> args, OutputStream out) throws IOException {
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int exit;
		Path stdin = operation.refstore().stdin();
		try (InputStream in = (stdin != null) ? Files.newInputStream(stdin) : InputStream.nullInputStream()) {
			exit = Refstore.run(repo, this.processes.env(), in, out, err, args.toArray(String[]::new));
		}
		if (exit != 0) {
			throw new IllegalStateException("exit " + exit + ": " + err.toString(StandardCharsets.UTF_8).strip());
		}
	}

	private Path prepare(Operation operation, String name) throws IOException {
		if (!operation.mutates()) {
			return operation.repo();
		}
		Path copy = this.scratch.resolve(name + "-repo");
		RepoFiles.deleteTree(copy);
		RepoFiles.copyRepo(operation.repo(), copy);
		// the copy (and the deletion of the last one) is written out before the clock
		// starts: otherwise the
		// timed run shares the disk with the write-back of tens of megabytes it did not
		// write
		RepoFiles.syncFileSystem(copy);
		return copy;
	}

	/**
	 * Runs the invocation's setup on the fresh copy {@code repo}, and syncs what it wrote
	 * to disk.
	 * @return the arguments of the timed run, or {@code null} when the setup failed (the
	 * side is stopped then)
	 */
	private List<String> setUp(Operation.Invocation invocation, Path repo, Sampled into) throws IOException {
		if (invocation.setup() == null) {
			return invocation.args();
		}
		List<String> args;
		try {
			args = invocation.setup().prepare(repo, invocation.args(), this.tools);
		}
		catch (IllegalStateException | UncheckedIOException ex) {
			into.stop("setup failed: " + ex.getMessage());
			return null;
		}
		RepoFiles.syncFileSystem(repo);
		return args;
	}

	private String tool(List<String> executable, Path repo, String... args) {
		List<String> command = new ArrayList<>(executable);
		command.addAll(List.of(args));
		return this.processes.check(command, repo);
	}

	private static void cleanUp(Operation operation, Path repo) throws IOException {
		if (operation.mutates()) {
			RepoFiles.deleteTree(repo);
		}
	}

	/** One run of in-process work. */
	@FunctionalInterface
	private interface Task {

		void run(Path repo, List<String> args, OutputStream out) throws IOException;

	}

	/**
	 * How often an operation runs: whole-process warm-ups and timed runs; in-process
	 * warm-up and timed runs, each at least {@code min} and then until its time is up
	 * (for warm-up, the time of the work itself) or {@code cap} is reached. The heap is
	 * metered (a full collection before the run, then the peak's rise) in the warm-up
	 * runs when {@code meterWarmup}, in the timed runs when {@code meterTimed}: a
	 * collection before each run leaves the heap shrunk, and a run of a few milliseconds
	 * then pays for growing it again.
	 */
	private record Plan(int processWarmups, int processRuns, int warmMin, Duration warm, int runMin, Duration measure,
			int cap, boolean meterWarmup, boolean meterTimed) {
	}

	/** The samples of one side so far. */
	private static final class Sampled {

		private final List<Long> walls = new ArrayList<>();

		private final List<Long> peaks = new ArrayList<>();

		private final List<Long> allocations = new ArrayList<>();

		private long rss = -1;

		/** Why the side stopped running. */
		private String stopped;

		/** Why its numbers must not be trusted, though it ran. */
		private String note;

		void add(long wall, long allocated) {
			this.walls.add(wall);
			this.allocations.add(allocated);
		}

		void peak(long growth) {
			this.peaks.add(growth);
		}

		void stop(String why) {
			this.stopped = why;
		}

		void note(String why) {
			if (this.note == null) {
				this.note = why;
			}
		}

		Side side() {
			long peak = this.peaks.isEmpty() ? -1 : OperationResult.median(this.peaks);
			long allocated = this.allocations.isEmpty() ? -1 : OperationResult.median(this.allocations);
			String problem = (this.stopped != null) ? this.stopped : this.note;
			return new Side(this.walls, this.rss, peak, allocated, problem, problem != null);
		}

	}

}
