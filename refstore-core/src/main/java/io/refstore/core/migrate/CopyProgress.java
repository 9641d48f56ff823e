package io.refstore.core.migrate;

import java.util.Objects;

/**
 * How far the copy phase of a {@link StagedMigration} has come: the checkpoint a caller
 * keeps (a batch step keeps it in its execution context) and hands back to continue, in
 * this process or another one.
 *
 * @param lastName the name of the last ref copied, in bytewise order ({@code ""} before
 * the first)
 * @param segments how many segments (one per chunk) hold the refs copied so far
 * @param refs how many refs were copied so far
 * @param done whether the source had no more refs after {@code lastName}
 */
public record CopyProgress(String lastName, int segments, long refs, boolean done) {

	/** Nothing copied yet. */
	public static final CopyProgress START = new CopyProgress("", 0, 0, false);

	/**
	 * @throws IllegalArgumentException naming the field if a count is negative
	 */
	public CopyProgress {
		Objects.requireNonNull(lastName, "lastName");
		if (segments < 0) {
			throw new IllegalArgumentException("segments must not be negative, not " + segments);
		}
		if (refs < 0) {
			throw new IllegalArgumentException("refs must not be negative, not " + refs);
		}
	}

	/** This checkpoint, marked as the end of the copy. */
	CopyProgress finished() {
		return new CopyProgress(this.lastName, this.segments, this.refs, true);
	}

}
