package io.refstore.benchmark;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The benchmark of refstore against git: builds (or reuses) repositories of
 * {@code --refs} refs in both formats, measures every operation of {@link Suite} on git
 * and on refstore, prints a Markdown table and writes it to
 * {@code <work>/results-<refs>.md}. See docs/benchmarks.md for the command.
 *
 * <pre>
 * java -jar refstore-benchmark.jar [--refs N] [--runs R] [--work DIR] [--launcher REFSTORE] [--only ID,...]
 * </pre>
 *
 * <p>
 * Exit codes: 0 when nothing failed (a side that cannot run an operation, such as a
 * migration the command lacks, is no failure), 1 when a run failed, timed out or differed
 * from git (the table says which), 2 for a bad command line or a missing tool.
 */
public final class Benchmark {

	private Benchmark() {
	}

	/** Runs the benchmark with the process's arguments and exits with its exit code. */
	public static void main(String[] args) {
		PrintStream log = System.err;
		BenchmarkOptions options;
		try {
			options = BenchmarkOptions.parse(Arrays.asList(args));
		}
		catch (IllegalArgumentException ex) {
			log.println("refstore-benchmark: " + ex.getMessage());
			log.print(BenchmarkOptions.USAGE);
			System.exit(2);
			return;
		}
		if (options.help()) {
			System.out.print(BenchmarkOptions.USAGE);
			return;
		}
		try {
			System.exit(run(options, log));
		}
		catch (IOException | UncheckedIOException | IllegalStateException | IllegalArgumentException ex) {
			log.println("refstore-benchmark: " + ex.getMessage());
			if (System.getenv("REFSTORE_TRACE") != null) {
				ex.printStackTrace(log);
			}
			System.exit(2);
		}
	}

	private static int run(BenchmarkOptions options, PrintStream log) throws IOException {
		for (String wanted : options.only()) {
			if (!Suite.ids().contains(wanted)) {
				throw new IllegalArgumentException(
						"--only names no operation '" + wanted + "'; the ids are " + String.join(", ", Suite.ids()));
			}
		}
		String git = Processes.reftableGit(System.getenv());
		Launcher launcher = Launcher.find(options.launcher());
		Path scratch = options.work().resolve("scratch");
		RepoFiles.deleteTree(scratch);
		Files.createDirectories(scratch);
		Map<String, String> env = new HashMap<>(System.getenv());
		env.putAll(Processes.fixedEnv());
		if (!Processes.gnuTimeAvailable()) {
			log.println("no " + Processes.GNU_TIME + " (apt-get install time): peak RSS is not measured");
		}
		Processes processes = new Processes(env, Processes.gnuTimeAvailable(), scratch, options.timeout());
		String before = RunInfo.loadAverage();
		CorpusRepos repos = CorpusRepos.prepare(options.work(), new RefCorpus(options.refs()), processes, git, log);
		GraphRepos graph = GraphRepos.prepare(options.work(), GraphRepos.commitsFor(options.refs()), processes, git,
				log);
		List<Operation> operations = selected(Suite.operations(repos, graph, options.refs()), options);
		String archive = launcher.prime(processes, repos.files(), scratch);
		String migrateMissing = operations.stream().anyMatch(Benchmark::migrates)
				? Suite.migrateMissing(processes, List.of(git), launcher.command(), repos, scratch) : null;
		OperationRunner runner = new OperationRunner(processes, List.of(git), launcher.command(), scratch,
				options.runs(), log);
		List<OperationResult> results = new ArrayList<>();
		for (Operation operation : operations) {
			String missing = migrates(operation) ? migrateMissing : null;
			results.add(runner.run(operation, missing));
		}
		String report = RunInfo.header(options, processes, git, launcher, archive, before, Instant.now())
				+ ResultTable.render(results) + RunInfo.footer(results);
		System.out.print(report);
		Path file = options.work().resolve("results-" + options.refs() + ".md");
		Files.writeString(file, report);
		log.println("written to " + file);
		RepoFiles.deleteTree(scratch);
		boolean failed = results.stream()
			.flatMap((r) -> Stream.of(r.git(), r.process(), r.command(), r.api()))
			.anyMatch(OperationResult.Side::failed);
		return failed ? 1 : 0;
	}

	/** Whether refstore must migrate for the operation: to time it, or to set it up. */
	private static boolean migrates(Operation operation) {
		return operation.id().startsWith("migrate/") || operation.id().startsWith("rollback/");
	}

	private static List<Operation> selected(List<Operation> operations, BenchmarkOptions options) {
		return operations.stream().filter((op) -> options.selected(op.id())).toList();
	}

}
