package io.refstore.web.refs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.refstore.core.graph.CommitHistory;
import io.refstore.core.graph.RefTips;
import io.refstore.core.graph.TipFacts;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.Wildmatch;

/**
 * The facts about every ref under one prefix, taken at one store fingerprint: the names
 * back to back in the store's order, each ref's creator date and, given a base, whether
 * the base reaches it. Built by one scan of the prefix and one
 * {@link CommitHistory#facts} call over the raw values (no object per ref), so that the
 * ref browser can filter by merged and age and sort by date over a namespace of 100,000
 * branches in memory, and page through the result by its cursor.
 *
 * <p>
 * A symbolic ref is judged by the value it resolves to (as {@code for-each-ref} shows
 * it); one that resolves to nothing has no commit and no date. Immutable once built (the
 * date orders are computed once, on first use); thread-safe.
 */
final class TipIndex {

	/** What this index was taken of: its prefix, fingerprint and base. */
	final String prefix;

	final String fingerprint;

	/** The branch the merged facts are against, or {@code null} for none. */
	final String base;

	/** {@link #base}'s commit when the index was taken, or {@code null}. */
	final ObjectId baseId;

	private final byte[] names;

	/**
	 * Where each name ends in {@link #names}; name {@code i} starts at end {@code i-1}.
	 */
	private final int[] ends;

	private final long[] dates;

	private final boolean[] merged;

	private final int count;

	/** Indexes from the newest to the oldest, ties by name; computed on first use. */
	private volatile int[] newest;

	/** Indexes from the oldest to the newest, ties by name; computed on first use. */
	private volatile int[] oldest;

	/** The Branches view's facts of the branches; computed on first use. */
	private volatile BranchFacts branches;

	private TipIndex(String prefix, String fingerprint, String base, ObjectId baseId, byte[] names, int[] ends,
			int count, TipFacts facts) {
		this.prefix = prefix;
		this.fingerprint = fingerprint;
		this.base = base;
		this.baseId = baseId;
		this.names = names;
		this.ends = ends;
		this.count = count;
		this.dates = new long[count];
		this.merged = (baseId != null) ? new boolean[count] : null;
		for (int i = 0; i < count; i++) {
			this.dates[i] = facts.date(i);
			if (this.merged != null) {
				this.merged[i] = facts.merged(i);
			}
		}
	}

	/**
	 * Reads every ref under {@code prefix} (under {@code refs/} only) and their facts.
	 * @param base the branch to judge merged against, or {@code null}
	 * @param baseId its commit, or {@code null} for no merged facts
	 */
	static TipIndex build(RefStore store, CommitHistory history, String prefix, String fingerprint, String base,
			ObjectId baseId) throws IOException {
		RefTips tips = RefTips.read(store, new RefQuery(prefix, "", false));
		TipFacts facts = tips.facts(history, baseId, false);
		int count = tips.count();
		int[] ends = new int[count];
		for (int i = 0; i < count; i++) {
			ends[i] = tips.nameEnd(i);
		}
		return new TipIndex(prefix, fingerprint, base, baseId,
				Arrays.copyOf(tips.nameBytes(), (count == 0) ? 0 : ends[count - 1]), ends, count, facts);
	}

	/** How many refs. */
	int count() {
		return this.count;
	}

	/** Whether the index knows which refs are merged. */
	boolean hasMerged() {
		return this.merged != null;
	}

	/** Ref {@code i}'s name. */
	String name(int i) {
		int start = start(i);
		return new String(this.names, start, this.ends[i] - start, StandardCharsets.UTF_8);
	}

	/** Ref {@code i}'s creator date in seconds, or {@link TipFacts#NO_DATE}. */
	long date(int i) {
		return this.dates[i];
	}

	/** Whether the base reaches ref {@code i}'s commit ({@code false} without a base). */
	boolean merged(int i) {
		return this.merged != null && this.merged[i];
	}

	private int start(int i) {
		return (i == 0) ? 0 : this.ends[i - 1];
	}

	/** Whether ref {@code i}'s name starts with {@code prefix}. */
	boolean startsWith(int i, byte[] prefix) {
		int start = start(i);
		return this.ends[i] - start >= prefix.length
				&& Arrays.equals(this.names, start, start + prefix.length, prefix, 0, prefix.length);
	}

	/** Whether the glob matches ref {@code i}'s whole name; {@code scratch} is reused. */
	boolean matches(int i, byte[] glob, byte[][] scratch) {
		int start = start(i);
		int length = this.ends[i] - start;
		if (scratch[0].length < length) {
			scratch[0] = new byte[Math.max(length, scratch[0].length * 2)];
		}
		System.arraycopy(this.names, start, scratch[0], 0, length);
		return Wildmatch.matches(glob, scratch[0], length);
	}

	/**
	 * The names {@code [from, to)} from byte {@code skip} on, ASCII letters in lower
	 * case, each followed by a line feed (which no ref name holds); {@code starts}
	 * receives where each begins.
	 */
	byte[] lowerNames(int from, int to, int skip, int[] starts) {
		int length = 0;
		for (int i = from; i < to; i++) {
			length += this.ends[i] - start(i) - skip + 1;
		}
		byte[] text = new byte[length];
		int at = 0;
		for (int i = from; i < to; i++) {
			starts[i - from] = at;
			for (int b = start(i) + skip; b < this.ends[i]; b++) {
				text[at++] = lower(this.names[b]);
			}
			text[at++] = '\n';
		}
		return text;
	}

	/** An ASCII letter in lower case; any other byte as it is. */
	static byte lower(byte b) {
		return (b >= 'A' && b <= 'Z') ? (byte) (b + ('a' - 'A')) : b;
	}

	/**
	 * Bytewise comparison of ref {@code i}'s name with {@code other}, as stores order.
	 */
	int compareName(int i, byte[] other) {
		return Arrays.compareUnsigned(this.names, start(i), this.ends[i], other, 0, other.length);
	}

	/** The first index whose name sorts at or after {@code name}. */
	int lowerBound(byte[] name) {
		int low = 0;
		int high = this.count;
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (compareName(middle, name) < 0) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low;
	}

	/**
	 * The indexes by date, newest or oldest first, ties in name order (as
	 * {@code for-each-ref --sort=-creatordate} and {@code --sort=creatordate} list them;
	 * a ref without a date sorts as the oldest).
	 */
	int[] byDate(boolean newestFirst) {
		int[] order = newestFirst ? this.newest : this.oldest;
		if (order == null) {
			order = sortByDate(newestFirst);
			if (newestFirst) {
				this.newest = order;
			}
			else {
				this.oldest = order;
			}
		}
		return order;
	}

	/**
	 * The facts the Branches view derives from this index's branches, kept with it (so
	 * for as long as the store's fingerprint is this index's).
	 */
	BranchFacts branches() {
		BranchFacts facts = this.branches;
		if (facts == null) {
			facts = BranchFacts.of(this);
			this.branches = facts;
		}
		return facts;
	}

	private int[] sortByDate(boolean newestFirst) {
		// a stable sort of the name-ordered indexes by date keeps ties in name order
		Integer[] boxed = new Integer[this.count];
		for (int i = 0; i < this.count; i++) {
			boxed[i] = i;
		}
		long[] dates = this.dates;
		Arrays.sort(boxed,
				newestFirst ? (a, b) -> Long.compare(dates[b], dates[a]) : (a, b) -> Long.compare(dates[a], dates[b]));
		int[] order = new int[this.count];
		for (int i = 0; i < this.count; i++) {
			order[i] = boxed[i];
		}
		return order;
	}

	/** The bytes the names and facts take, roughly, for the cache's budget. */
	long weight() {
		return this.names.length + this.ends.length * 4L + this.count * 9L;
	}

}
