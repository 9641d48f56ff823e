package io.refstore.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The text around the results table: what ran, on what, under which load, and how to read
 * the numbers. Stateless.
 */
final class RunInfo {

	private RunInfo() {
	}

	/** The 1, 5 and 15 minute load averages, or "unknown" off Linux. */
	static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	/** The Markdown title and the run's facts. */
	static String header(BenchmarkOptions options, Processes processes, String git, Launcher launcher, String archive,
			String loadBefore, Instant finished) {
		StringBuilder out = new StringBuilder();
		out.append("# refstore vs git: ").append(options.refs()).append(" refs\n\n");
		out.append("- finished ")
			.append(finished.truncatedTo(ChronoUnit.SECONDS))
			.append("; runs per side: ")
			.append(options.runs())
			.append(" (fast operations at least 15, slow ones at most 3), medians shown\n");
		out.append("- git: `")
			.append(git)
			.append("` (")
			.append(quiet(processes, List.of(git, "version")))
			.append(")\n");
		out.append("- refstore: `")
			.append(launcher.script())
			.append("` running `")
			.append(launcher.jar().getFileName())
			.append("` of checkout ")
			.append(checkout(processes, git, launcher.script()))
			.append("; class-data archive: ")
			.append(archive)
			.append('\n');
		out.append("- Java ")
			.append(System.getProperty("java.vm.version"))
			.append(" (")
			.append(System.getProperty("java.vm.name"))
			.append("), ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" CPUs, benchmark heap max ")
			.append(ResultTable.bytes(Runtime.getRuntime().maxMemory()))
			.append('\n');
		out.append("- load average (1/5/15 min) before: ")
			.append(loadBefore)
			.append(", after: ")
			.append(loadAverage())
			.append("\n\n");
		return out.toString();
	}

	/** The start-up split of single lookups and how to read the table. */
	static String footer(List<OperationResult> results) {
		StringBuilder out = new StringBuilder("\n");
		String split = ResultTable.startupSplit(results);
		if (!split.isEmpty()) {
			out.append("Single lookups, whole process:\n\n").append(split).append('\n');
		}
		String undo = ResultTable.undoRatios(results);
		if (!undo.isEmpty()) {
			out.append("Undo ÷ the operation it undoes, medians (target: refstore at most ")
				.append(Suite.UNDO_TARGET)
				.append("):\n\n")
				.append(undo)
				.append('\n');
		}
		out.append(
				"""
						How to read it: times are medians of wall time. "× git" is refstore's time divided by git's (above 1:
						slower). "refstore process" starts a JVM per run, as the `refstore` command does; "refstore cmd warm"
						runs the same command code (`Refstore.run`) inside the warmed-up benchmark JVM; "core API warm" does
						the same work through RefStores/RefStore/RefCursor/RefTransaction there. Whole processes alternate git
						and refstore run by run, output goes to a file, and a mutating operation gets a fresh copy of its
						repository (objects hard-linked) before every run, outside the timed part and synced to disk (so the
						run does not share the disk with the copy's write-back); an undo row's side first does, on that copy and
						also untimed, what it undoes (the `delete-refs` before `restore-refs`, the migration before its
						rollback). RSS is the largest peak
						resident set of a timed run (GNU time %M). "cmd heap peak" is how far the heap's peak rose above the
						level after a full GC (sum of pool peaks, so garbage counts), measured in the warm-up runs (in the timed
						runs too for the slow operations: a collection before a short timed run would distort it), "alloc"
						the bytes allocated per run; both medians. Each side's first run is judged by git: the same output bytes, or for writes the same refs
						(`git show-ref`), the expected format and a clean `git refs verify`; ✗ marks numbers that failed it.
						""");
		return out.toString();
	}

	private static String checkout(Processes processes, String git, Path launcher) {
		Path root = launcher.getParent();
		String head = quiet(processes, List.of(git, "-C", root.toString(), "rev-parse", "--short", "HEAD"));
		String dirty = quiet(processes, List.of(git, "-C", root.toString(), "status", "--porcelain", "-uno"));
		return head + (dirty.isEmpty() || head.equals("unknown") ? "" : " (with uncommitted changes)");
	}

	private static String quiet(Processes processes, List<String> command) {
		try {
			return processes.check(command, Path.of("").toAbsolutePath()).strip();
		}
		catch (RuntimeException ex) {
			return "unknown";
		}
	}

}
