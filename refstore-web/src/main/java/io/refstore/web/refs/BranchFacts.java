package io.refstore.web.refs;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import java.util.function.Supplier;

import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.graph.TipFacts;

/**
 * What the Branches view derives from a {@link TipIndex}'s branches
 * ({@code refs/heads/}), once per index and so once per store fingerprint: where the
 * branches lie in the index, their positions oldest first and newest first with the dates
 * in order, and the "Delete merged branches" summary. With them a tab's count at any
 * stale cutoff is a binary search, a tab's page in a date order is a slice, and a request
 * no longer reads every branch's facts (at 500,000 branches that read was most of the
 * view's time).
 *
 * <p>
 * A stale branch is one with a date older than the cutoff: in the oldest-first order
 * (undated branches first) the stale ones are the slice after the undated ones, in the
 * newest-first order (undated last) the slice before them. Immutable but for the merged
 * summary, which is computed on first use for the {@code HEAD} chain and protection asked
 * (both part of what the fingerprint covers, or fixed by configuration); thread safe.
 */
final class BranchFacts {

	private static final byte[] BRANCHES = BranchService.BRANCHES.getBytes(StandardCharsets.UTF_8);

	private final TipIndex index;

	/** The branches' positions in the index: {@code [from, to)}. */
	private final int from;

	private final int to;

	/** Positions oldest first, undated ones first, ties by name. */
	private final int[] oldest;

	/** {@link #oldest}'s dates, in its order. */
	private final long[] oldestDates;

	/** Positions newest first, undated ones last, ties by name. */
	private final int[] newest;

	/** How many branches have no date. */
	private final int undated;

	private volatile Merged merged;

	/** The names for searches; made by the first search. */
	private volatile Names names;

	/**
	 * The branches' names after {@code refs/heads/} in lower case, each followed by a
	 * line feed, and where each starts (bytes as ISO-8859-1 characters, one to one).
	 */
	private record Names(String text, int[] starts) {
	}

	private record Merged(List<String> chain, ProtectedRefs protection, MergedBranches branches) {
	}

	private BranchFacts(TipIndex index) {
		this.index = index;
		int start = index.lowerBound(BRANCHES);
		// the branches follow each other in name order: the end is the first name past
		// the prefix
		int low = start;
		int high = index.count();
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (index.startsWith(middle, BRANCHES) || index.compareName(middle, BRANCHES) < 0) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		this.from = start;
		this.to = low;
		int count = this.to - start;
		this.oldest = branchesOf(index.byDate(false), start, this.to, count);
		this.newest = branchesOf(index.byDate(true), start, this.to, count);
		this.oldestDates = new long[count];
		int none = 0;
		for (int k = 0; k < count; k++) {
			this.oldestDates[k] = index.date(this.oldest[k]);
			if (this.oldestDates[k] == TipFacts.NO_DATE) {
				none++;
			}
		}
		this.undated = none;
	}

	/** The facts of the branches of {@code index}. */
	static BranchFacts of(TipIndex index) {
		return new BranchFacts(index);
	}

	private static int[] branchesOf(int[] order, int from, int to, int count) {
		if (order.length == count) {
			return order;
		}
		int[] branches = new int[count];
		int n = 0;
		for (int i : order) {
			if (i >= from && i < to) {
				branches[n++] = i;
			}
		}
		return branches;
	}

	TipIndex index() {
		return this.index;
	}

	/** How many branches. */
	int count() {
		return this.to - this.from;
	}

	/** The first branch's position in the index. */
	int from() {
		return this.from;
	}

	/** How many branches are stale at {@code cutoff}: dated before it. */
	int stale(long cutoff) {
		int low = this.undated;
		int high = this.oldestDates.length;
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (this.oldestDates[middle] < cutoff) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low - this.undated;
	}

	/** Whether the branch at index position {@code i} is stale at {@code cutoff}. */
	boolean isStale(int i, long cutoff) {
		long date = this.index.date(i);
		return date != TipFacts.NO_DATE && date < cutoff;
	}

	/**
	 * The index position of the {@code k}-th branch of all in {@code sort}'s order.
	 */
	int at(BranchService.Sort sort, int k) {
		return switch (sort) {
			case NAME -> this.from + k;
			case NAME_DESC -> this.to - 1 - k;
			case NEWEST -> this.newest[k];
			case OLDEST -> this.oldest[k];
		};
	}

	/**
	 * The index positions of the tab's branches {@code [start, end)} in {@code sort}'s
	 * order at {@code cutoff}: a slice (or two) of a date order, or a walk in name order
	 * that skips the other tab's branches.
	 */
	int[] page(BranchService.Tab tab, BranchService.Sort sort, long cutoff, int start, int end) {
		int[] positions = new int[Math.max(0, end - start)];
		if (positions.length == 0) {
			return positions;
		}
		int count = count();
		int stale = stale(cutoff);
		if (tab == BranchService.Tab.ALL) {
			for (int k = start; k < end; k++) {
				positions[k - start] = at(sort, k);
			}
			return positions;
		}
		if (sort == BranchService.Sort.NAME || sort == BranchService.Sort.NAME_DESC) {
			boolean wantStale = tab == BranchService.Tab.STALE;
			int seen = 0;
			int n = 0;
			for (int k = 0; k < count && n < positions.length; k++) {
				int i = at(sort, k);
				if (isStale(i, cutoff) == wantStale) {
					if (seen >= start) {
						positions[n++] = i;
					}
					seen++;
				}
			}
			return positions;
		}
		// the tab's branches as slices of the date order: [a, b), then from c on
		int a;
		int b;
		int c;
		if (sort == BranchService.Sort.OLDEST) {
			if (tab == BranchService.Tab.STALE) {
				a = this.undated;
				b = this.undated + stale;
				c = b;
			}
			else {
				a = 0;
				b = this.undated;
				c = this.undated + stale;
			}
		}
		else {
			int activeDated = count - this.undated - stale;
			if (tab == BranchService.Tab.STALE) {
				a = activeDated;
				b = activeDated + stale;
				c = b;
			}
			else {
				a = 0;
				b = activeDated;
				c = count - this.undated;
			}
		}
		for (int k = start; k < end; k++) {
			int slot = (k < b - a) ? a + k : c + (k - (b - a));
			positions[k - start] = at(sort, slot);
		}
		return positions;
	}

	/**
	 * The branches whose name after {@code refs/heads/} contains {@code needle} (ASCII
	 * letters in lower case, matched without case), as a set of index positions less
	 * {@link #from()}: one {@link String#indexOf(String, int)} pass over the names kept
	 * in lower case, line by line (the JIT's vectorised search, some milliseconds for
	 * 500,000 names), instead of a comparison per name.
	 */
	BitSet matching(byte[] needle) {
		BitSet hits = new BitSet(count());
		for (byte b : needle) {
			if (b == '\n' || b == 0) {
				// no ref name holds a line feed or a NUL
				return hits;
			}
		}
		Names names = names();
		String sought = new String(needle, StandardCharsets.ISO_8859_1);
		int[] starts = names.starts();
		int count = starts.length;
		int j = 0;
		for (int at = names.text().indexOf(sought); at >= 0;) {
			while (j + 1 < count && starts[j + 1] <= at) {
				j++;
			}
			hits.set(j);
			if (j + 1 >= count) {
				break;
			}
			at = names.text().indexOf(sought, starts[j + 1]);
		}
		return hits;
	}

	/** The names in lower case, one a line, and where each starts; made on first use. */
	private Names names() {
		Names names = this.names;
		if (names == null) {
			int[] starts = new int[count()];
			byte[] text = this.index.lowerNames(this.from, this.to, BRANCHES.length, starts);
			names = new Names(new String(text, StandardCharsets.ISO_8859_1), starts);
			this.names = names;
		}
		return names;
	}

	/**
	 * The "Delete merged branches" summary for {@code HEAD}'s chain and the protection,
	 * computed once for them.
	 */
	MergedBranches merged(List<String> chain, ProtectedRefs protection, Supplier<MergedBranches> compute) {
		Merged known = this.merged;
		if (known != null && known.chain().equals(chain) && known.protection() == protection) {
			return known.branches();
		}
		MergedBranches branches = compute.get();
		this.merged = new Merged(List.copyOf(chain), protection, branches);
		return branches;
	}

}
