package io.refstore.web.journal;

import java.time.Instant;
import java.util.List;

/**
 * What putting a repository's refs back as they were at a moment would do, worked out
 * from the journal ({@link io.refstore.core.journal.RefAtTime}): the refs it would
 * create, delete and move, those it cannot (an object gone), and those the journal cannot
 * tell about. Each list holds at most {@link #SHOWN} refs; the counts are whole.
 *
 * @param at the moment
 * @param prefix the refs covered
 * @param baseTime when the journal's base was taken, or {@code null} if the repository
 * has none (the hook was installed before refstore kept one)
 * @param creates refs to create at their value then
 * @param deletes refs to delete (created since)
 * @param moves refs to set back
 * @param missing refs whose value then is an object the repository no longer has: left
 * out
 * @param unknown refs whose value then the journal cannot tell: left alone
 * @param counts the whole counts: creates, deletes, moves, missing, unknown, and refs
 * that changed since but hold their value then again
 */
public record RewindPreview(Instant at, String prefix, Instant baseTime, List<Change> creates, List<Change> deletes,
		List<Change> moves, List<Change> missing, List<String> unknown, Counts counts) {

	/** The most refs a list shows. */
	public static final int SHOWN = 1000;

	/**
	 * One ref the restore would change.
	 *
	 * @param ref the full ref name
	 * @param current its value now, or {@code null} if it does not exist
	 * @param target its value then, or {@code null} if it did not exist
	 */
	public record Change(String ref, String current, String target) {

	}

	/** The whole counts of each list, and of refs back at their value already. */
	public record Counts(long creates, long deletes, long moves, long missing, long unknown, long unchanged) {

		/** How many refs the restore would change. */
		public long changes() {
			return this.creates + this.deletes + this.moves;
		}

	}

}
