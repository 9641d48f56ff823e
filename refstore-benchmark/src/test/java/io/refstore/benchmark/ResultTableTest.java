package io.refstore.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.refstore.benchmark.OperationResult.Side;

class ResultTableTest {

	@Test
	void medianOfOddAndEvenCounts() {
		assertThat(OperationResult.median(List.of(5L, 1L, 3L))).isEqualTo(3);
		assertThat(OperationResult.median(List.of(4L, 1L, 3L, 10L))).isEqualTo(3);
		assertThatIllegalArgumentException().isThrownBy(() -> OperationResult.median(List.of()));
	}

	@Test
	void durationsAndSizesKeepThreeSignificantDigits() {
		assertThat(ResultTable.millis(4_321)).isEqualTo("4.32 µs");
		assertThat(ResultTable.millis(654_321)).isEqualTo("654 µs");
		assertThat(ResultTable.millis(1_234_567)).isEqualTo("1.23 ms");
		assertThat(ResultTable.millis(12_345_678)).isEqualTo("12.3 ms");
		assertThat(ResultTable.millis(123_456_789)).isEqualTo("123 ms");
		assertThat(ResultTable.millis(12_345_678_901L)).isEqualTo("12.35 s");
		assertThat(ResultTable.bytes(2048)).isEqualTo("2 KiB");
		assertThat(ResultTable.bytes(15L << 20)).isEqualTo("15.0 MiB");
		assertThat(ResultTable.bytes(3L << 30)).isEqualTo("3.00 GiB");
		assertThat(ResultTable.bytes(-1)).isEmpty();
	}

	@Test
	void rowsShowMediansRatiosAndNumberedNotes() {
		Operation op = Operation.read("show-ref/files", "files: `show-ref`", Operation.Weight.NORMAL, Path.of("r"),
				List.of("show-ref"), null);
		Side git = new Side(List.of(10_000_000L, 20_000_000L, 30_000_000L), 4096, -1, -1, null, false);
		Side process = new Side(List.of(300_000_000L), 65536, -1, -1, "output differs from git's: line 1", true);
		Side command = new Side(List.of(5_000_000L), -1, 2L << 20, 3L << 20, null, false);
		String table = ResultTable
			.render(List.of(new OperationResult(op, git, process, command, Side.missing("no core API for it"))));
		assertThat(table)
			.contains("| `show-ref/files` | files: `show-ref` | 20.0 ms | 300 ms [1] ✗ | 15 | 5.00 ms | 0.25 |"
					+ " n/a [2] |  | 4.0 MiB | 64.0 MiB | 2.0 MiB | 3.0 MiB /  |");
		assertThat(table).contains("1. `show-ref/files`, refstore process: output differs from git's: line 1\n")
			.contains("2. `show-ref/files`, core API: no core API for it\n");
	}

	@Test
	void aSideThatFailedWithoutTimesSaysSo() {
		Operation op = Operation.read("lookup/files", "lookup", Operation.Weight.FAST, Path.of("r"),
				List.of("show-ref"), null);
		Side git = new Side(List.of(1_000_000L), -1, -1, -1, null, false);
		Side failed = new Side(List.of(), -1, -1, -1, "timed out after 1 min (--timeout)", true);
		String table = ResultTable
			.render(List.of(new OperationResult(op, git, failed, Side.missing("skipped"), Side.missing(null))));
		assertThat(table).contains("| 1.00 ms | failed [1] |  | n/a [2] |  | — |");
	}

	@Test
	void lookupsSplitIntoStartUpAndWork() {
		Operation startup = Operation.startup(Suite.STARTUP_ID, "start-up", Path.of("r"), List.of("version"),
				List.of("-h"), Map.of());
		Operation lookup = Operation.read(Suite.LOOKUP_ID + "files", "lookup", Operation.Weight.FAST, Path.of("r"),
				List.of("show-ref"), null);
		Side none = Side.missing(null);
		List<OperationResult> results = List.of(
				new OperationResult(startup, side(2_000_000), side(100_000_000), none, none),
				new OperationResult(lookup, side(3_000_000), side(250_000_000), none, none));
		assertThat(ResultTable.startupSplit(results))
			.isEqualTo("- `lookup/files`: refstore process 250 ms = start-up 100 ms + work 150 ms; git 3.00 ms\n");
	}

	@Test
	void undoRowsAreSetAgainstTheOperationTheyUndo() {
		Side none = Side.missing(null);
		Operation delete = Operation.write("delete-refs/files", "delete", Operation.Weight.SLOW, Path.of("r"),
				List.of("update-ref", "--stdin"), null, "files", null);
		Operation restore = Operation.write("restore/files", "restore", Operation.Weight.SLOW, Path.of("r"),
				List.of("update-ref", "--stdin"), null, "files", null);
		Operation migrate = Operation.write("migrate/reftable", "migrate", Operation.Weight.SLOW, Path.of("r"),
				List.of("refs", "migrate"), null, "files", null);
		Operation rollback = Operation.write("rollback/reftable", "rollback", Operation.Weight.SLOW, Path.of("r"),
				List.of("refs", "migrate"), null, "reftable", null);
		Operation lonely = Operation.write("rollback/files", "rollback", Operation.Weight.SLOW, Path.of("r"),
				List.of("refs", "migrate"), null, "files", null);
		List<OperationResult> results = List.of(
				new OperationResult(delete, side(2_000_000_000L), side(4_000_000_000L), side(3_000_000_000L), none),
				new OperationResult(restore, side(3_000_000_000L), side(8_000_000_000L), none, none),
				new OperationResult(migrate, side(1_000_000_000L), side(2_000_000_000L), side(1_000_000_000L), none),
				new OperationResult(rollback, side(500_000_000L), side(2_500_000_000L), side(1_500_000_000L), none),
				new OperationResult(lonely, side(1_000_000_000L), side(1_000_000_000L), none, none));
		assertThat(ResultTable.undoRatios(results)).isEqualTo(
				"""
						- `restore/files` ÷ `delete-refs/files`: refstore process 2.00 (over the target), refstore cmd warm n/a, git 1.50
						- `rollback/reftable` ÷ `migrate/reftable`: refstore process 1.25 (meets the target), refstore cmd warm 1.50, git 0.50
						""");
		assertThat(RunInfo.footer(results))
			.contains("Undo ÷ the operation it undoes, medians (target: refstore at most 1.5):\n\n- `restore/files`");
	}

	private static Side side(long nanos) {
		return new Side(List.of(nanos), -1, -1, -1, null, false);
	}

}
