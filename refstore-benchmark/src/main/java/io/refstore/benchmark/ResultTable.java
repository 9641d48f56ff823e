package io.refstore.benchmark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;

import io.refstore.benchmark.OperationResult.Side;

/**
 * Renders the results as a Markdown table (printed and written to the work directory as
 * is): medians of wall time per side, refstore's ratio to git (above 1: slower than git),
 * peak RSS of the processes, and heap and allocation of the in-process command. A number
 * that must not be trusted, or a side that could not run, carries a numbered note below
 * the table. Stateless.
 */
final class ResultTable {

	private static final String[] HEADER = { "id", "operation", "git", "refstore process", "× git", "refstore cmd warm",
			"× git", "core API warm", "× git", "git RSS", "refstore RSS", "cmd heap peak", "alloc cmd / API" };

	private ResultTable() {
	}

	/** The table and its notes. */
	static String render(List<OperationResult> results) {
		List<String> notes = new ArrayList<>();
		StringBuilder out = new StringBuilder();
		row(out, HEADER);
		String[] rule = new String[HEADER.length];
		for (int i = 0; i < rule.length; i++) {
			rule[i] = (i < 2) ? "---" : "---:";
		}
		row(out, rule);
		for (OperationResult result : results) {
			Operation op = result.operation();
			Side git = result.git();
			row(out, new String[] { "`" + op.id() + "`", op.label(), time(git, "git", op, notes),
					time(result.process(), "refstore process", op, notes), ratio(result.process(), git),
					time(result.command(), "refstore command in-process", op, notes), ratio(result.command(), git),
					time(result.api(), "core API", op, notes), ratio(result.api(), git), rss(git),
					rss(result.process()), bytes(result.command().heapPeakBytes()), allocations(result) });
		}
		if (!notes.isEmpty()) {
			out.append('\n');
			for (int i = 0; i < notes.size(); i++) {
				out.append(i + 1).append(". ").append(notes.get(i)).append('\n');
			}
		}
		return out.toString();
	}

	/**
	 * For each single lookup, how the refstore process's time splits into JVM start-up
	 * (the start-up row) and the lookup itself.
	 */
	static String startupSplit(List<OperationResult> results) {
		Optional<OperationResult> startup = results.stream()
			.filter((result) -> result.operation().id().equals(Suite.STARTUP_ID))
			.findFirst();
		if (startup.isEmpty() || !startup.get().process().measured()) {
			return "";
		}
		long jvm = startup.get().process().medianNanos();
		StringBuilder out = new StringBuilder();
		for (OperationResult result : results) {
			if (result.operation().id().startsWith(Suite.LOOKUP_ID) && result.process().measured()) {
				long total = result.process().medianNanos();
				out.append(String.format(Locale.ROOT, "- `%s`: refstore process %s = start-up %s + work %s; git %s%n",
						result.operation().id(), millis(total), millis(jvm), millis(Math.max(0, total - jvm)),
						result.git().measured() ? millis(result.git().medianNanos()) : "n/a"));
			}
		}
		return out.toString();
	}

	/**
	 * For each undo row whose forward row ran too ({@link Suite#UNDOES}), the undo's time
	 * divided by the forward operation's, per side: issue 36 wants refstore's undo at
	 * most {@link Suite#UNDO_TARGET} times what it undoes.
	 */
	static String undoRatios(List<OperationResult> results) {
		Map<String, OperationResult> byId = new HashMap<>();
		results.forEach((result) -> byId.put(result.operation().id(), result));
		StringBuilder out = new StringBuilder();
		for (OperationResult undo : results) {
			String id = undo.operation().id();
			String kind = id.substring(0, id.indexOf('/') + 1);
			OperationResult forward = Suite.UNDOES.containsKey(kind)
					? byId.get(Suite.UNDOES.get(kind) + id.substring(kind.length())) : null;
			if (forward == null) {
				continue;
			}
			String ratio = ratio(undo.process(), forward.process());
			out.append(
					String.format(Locale.ROOT, "- `%s` ÷ `%s`: refstore process %s%s, refstore cmd warm %s, git %s%n",
							id, forward.operation().id(), ratio.isEmpty() ? "n/a" : ratio,
							ratio.isEmpty() ? ""
									: (Double.parseDouble(ratio) <= Suite.UNDO_TARGET) ? " (meets the target)"
											: " (over the target)",
							orNa(ratio(undo.command(), forward.command())), orNa(ratio(undo.git(), forward.git()))));
		}
		return out.toString();
	}

	private static String orNa(String ratio) {
		return ratio.isEmpty() ? "n/a" : ratio;
	}

	private static String allocations(OperationResult result) {
		long command = result.command().allocatedBytes();
		long api = result.api().allocatedBytes();
		return (command < 0 && api < 0) ? "" : bytes(command) + " / " + bytes(api);
	}

	private static void row(StringBuilder out, String[] cells) {
		out.append('|');
		for (String cell : cells) {
			out.append(' ').append(cell.replace("|", "\\|")).append(" |");
		}
		out.append('\n');
	}

	private static String time(Side side, String what, Operation op, List<String> notes) {
		if (side.problem() == null) {
			return side.measured() ? millis(side.medianNanos()) : "—";
		}
		notes.add("`" + op.id() + "`, " + what + ": " + side.problem().replace('\n', ' '));
		String note = " [" + notes.size() + "]";
		if (side.measured()) {
			return millis(side.medianNanos()) + note + (side.failed() ? " ✗" : "");
		}
		return (side.failed() ? "failed" : "n/a") + note;
	}

	private static String ratio(Side side, Side git) {
		if (!side.measured() || !git.measured() || git.medianNanos() == 0) {
			return "";
		}
		double ratio = (double) side.medianNanos() / git.medianNanos();
		return String.format(Locale.ROOT, (ratio < 10) ? "%.2f" : "%.0f", ratio);
	}

	private static String rss(Side side) {
		return (side.peakRssKib() < 0) ? "" : bytes(side.peakRssKib() * 1024);
	}

	/** A duration in nanoseconds, in µs, ms or s with three significant digits. */
	static String millis(long nanos) {
		double ms = nanos / 1e6;
		if (ms < 1) {
			double us = nanos / 1e3;
			return String.format(Locale.ROOT, (us >= 100) ? "%.0f µs" : (us >= 10) ? "%.1f µs" : "%.2f µs", us);
		}
		if (ms >= 1000) {
			return String.format(Locale.ROOT, "%.2f s", ms / 1000);
		}
		return String.format(Locale.ROOT, (ms >= 100) ? "%.0f ms" : (ms >= 10) ? "%.1f ms" : "%.2f ms", ms);
	}

	/** A size in bytes, in KiB, MiB or GiB; empty for a negative (unmeasured) size. */
	static String bytes(long bytes) {
		if (bytes < 0) {
			return "";
		}
		if (bytes < (1 << 20)) {
			return String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
		}
		double mib = bytes / (double) (1 << 20);
		if (mib >= 1024) {
			return String.format(Locale.ROOT, "%.2f GiB", mib / 1024);
		}
		return String.format(Locale.ROOT, (mib >= 100) ? "%.0f MiB" : "%.1f MiB", mib);
	}

}
