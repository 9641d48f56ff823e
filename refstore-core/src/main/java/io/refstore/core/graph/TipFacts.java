package io.refstore.core.graph;

/**
 * What {@link CommitHistory#facts} found out about many refs' values, by index in the
 * order they were given: what each names, its date, and how it relates to a base commit.
 *
 * <p>
 * The date is git's {@code creatordate}: the tagger's date of an annotated tag, the
 * committer's date of a commit. Merged, ahead and behind are about the commit a value
 * peels to (through annotated tags), as {@code for-each-ref --merged} and the
 * {@code ahead-behind} atom judge them; a value that peels to no commit is never merged
 * and has no counts.
 *
 * <p>
 * Immutable once returned.
 */
public final class TipFacts {

	/** What a value names. */
	public enum Kind {

		/** A commit. */
		COMMIT,
		/** An annotated tag that peels to a commit. */
		TAG,
		/** A tree, a blob, or an annotated tag of one. */
		OTHER,
		/** Nothing in the object database (a dangling ref). */
		MISSING

	}

	/** {@link #date} of a value without a date. */
	public static final long NO_DATE = Long.MIN_VALUE;

	private final Kind[] kinds;

	private final long[] dates;

	private final int[] nodes;

	private final boolean[] merged;

	private final int[] ahead;

	private final int[] behind;

	TipFacts(Kind[] kinds, long[] dates, int[] nodes, boolean[] merged, int[] ahead, int[] behind) {
		this.kinds = kinds;
		this.dates = dates;
		this.nodes = nodes;
		this.merged = merged;
		this.ahead = ahead;
		this.behind = behind;
	}

	/** How many values. */
	public int count() {
		return this.kinds.length;
	}

	/** What value {@code i} names. */
	public Kind kind(int i) {
		return this.kinds[i];
	}

	/** Whether value {@code i} peels to a commit. */
	public boolean isCommit(int i) {
		return this.nodes[i] >= 0;
	}

	/**
	 * The creator date of value {@code i} in seconds since the epoch, or {@link #NO_DATE}
	 * (a tree, a blob, a missing object, a tag without a tagger).
	 */
	public long date(int i) {
		return this.dates[i];
	}

	/** Whether value {@code i} is merged into the base: the base reaches its commit. */
	public boolean merged(int i) {
		return this.merged != null && this.merged[i];
	}

	/** Whether ahead and behind were counted. */
	public boolean hasCounts() {
		return this.ahead != null;
	}

	/**
	 * Commits value {@code i} reaches that the base does not, or -1 if it peels to no
	 * commit or counts were not asked for.
	 */
	public int ahead(int i) {
		return (this.ahead != null) ? this.ahead[i] : -1;
	}

	/**
	 * Commits the base reaches that value {@code i} does not, or -1 if it peels to no
	 * commit or counts were not asked for.
	 */
	public int behind(int i) {
		return (this.behind != null) ? this.behind[i] : -1;
	}

}
