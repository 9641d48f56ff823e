package io.refstore.core.migrate;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.refstore.core.ref.RefFormat;

/**
 * What a migration did.
 *
 * @param from the source format
 * @param to the target format
 * @param refs refs carried over (root refs included)
 * @param logEntries reflog entries carried over
 * @param sourceDigest the {@link RefDigest} of the source store
 * @param targetDigest the digest of the new store, read back before the swap (equal to
 * the source's)
 * @param staged where the new store was built (for a dry run, where it stays)
 * @param backup where the old store was kept ({@code null} for a dry run)
 * @param swapped whether the repository now uses {@code to}
 * @param elapsed the wall time
 * @param carried refs a git process wrote into the old store during the swap, carried
 * into the new one (see {@link CarryOver}); their values and new log entries are in the
 * new store, not in the digests. For a rollback also every ref written, moved or deleted
 * since the migration and so in the restored store ({@link CatchUp})
 * @param finishedFirst the swap a killed run had begun, which this run finished before it
 * did what it was asked (see {@link FormatMigrator#rollback(Path)}), or {@code null}
 */
public record MigrationReport(RefFormat from, RefFormat to, long refs, long logEntries, String sourceDigest,
		String targetDigest, Path staged, Path backup, boolean swapped, Duration elapsed, List<String> carried,
		InterruptedSwap finishedFirst) {

	public MigrationReport {
		carried = List.copyOf(carried);
	}

	/** A report of a run that finished no other run's swap first. */
	public MigrationReport(RefFormat from, RefFormat to, long refs, long logEntries, String sourceDigest,
			String targetDigest, Path staged, Path backup, boolean swapped, Duration elapsed, List<String> carried) {
		this(from, to, refs, logEntries, sourceDigest, targetDigest, staged, backup, swapped, elapsed, carried, null);
	}

	/** A report of a swap that carried nothing. */
	public MigrationReport(RefFormat from, RefFormat to, long refs, long logEntries, String sourceDigest,
			String targetDigest, Path staged, Path backup, boolean swapped, Duration elapsed) {
		this(from, to, refs, logEntries, sourceDigest, targetDigest, staged, backup, swapped, elapsed, List.of());
	}

	/**
	 * This report, saying that the run finished {@code interrupted} first; its elapsed
	 * time counts from {@code started} ({@link System#nanoTime()}), before that.
	 */
	MigrationReport afterFinishing(InterruptedSwap interrupted, long started) {
		return new MigrationReport(this.from, this.to, this.refs, this.logEntries, this.sourceDigest, this.targetDigest,
				this.staged, this.backup, this.swapped, Swap.elapsed(started), this.carried, interrupted);
	}

}
