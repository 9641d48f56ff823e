package io.refstore.core.graph;

import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;

/**
 * How commits relate to one base commit: whether each is merged into it (reachable from
 * it) and how far it is ahead of and behind it, for as many commits as asked, after one
 * walk of the base's history.
 *
 * <p>
 * The walk takes the base's first-parent chain from the root up, adding each chain
 * commit's history that the commits before it did not reach, and records for every commit
 * of the base's history the chain position that added it. The history of chain commit
 * {@code j} is then exactly the commits added at positions {@code >= j}, with a count
 * known per position. A tip costs a walk of its own commits the base does not reach
 * ({@code ahead}); {@code behind} is the base's count minus what the tip reaches of it:
 * the count of the nearest chain commit the tip reaches, plus the commits of side
 * histories (merged branches the tip forked from) that chain commit does not reach. A
 * hundred thousand branches forked from a main line cost one walk of the main line and
 * their own commits, not a walk of the history each.
 *
 * <p>
 * Not thread-safe: it belongs to the {@link CommitWalk} it walks.
 */
public final class Divergence {

	private static final int NOT_IN_BASE = -1;

	private final CommitWalk walk;

	private final int base;

	/** The base's history. */
	private final BitSet inBase;

	private final int baseCount;

	/**
	 * Per node of the base's history, the chain position that added it; grown as the walk
	 * numbers new nodes.
	 */
	private int[] addedAt;

	/** Per node, the chain position it holds, or -1. */
	private int[] chainAt;

	/** Per chain position, how many commits its history holds. */
	private final int[] reachCount;

	/** Per node, the tip walk that last visited it (a stamp instead of a cleared set). */
	private int[] visited;

	private int stamp;

	private int[] stack = new int[64];

	/** The parents {@link #loadParents} loaded last; grown for an octopus merge. */
	private int[] parents = new int[8];

	/** A tip's commits in the base's history that are off its first-parent chain. */
	private int[] frontier = new int[16];

	/**
	 * Walks the history of {@code base}.
	 * @param walk the walk that numbers the commits
	 * @param base the base commit's node; negative for none (nothing is merged, and
	 * {@link #aheadBehind} counts every commit a tip reaches as ahead)
	 * @throws IOException if a commit cannot be read
	 */
	public Divergence(CommitWalk walk, int base) throws IOException {
		this.walk = walk;
		this.base = base;
		int[] chain = firstParentChain(base);
		this.inBase = new BitSet();
		this.addedAt = new int[Math.max(64, walk.nodeCount())];
		this.chainAt = new int[this.addedAt.length];
		Arrays.fill(this.chainAt, -1);
		this.reachCount = new int[chain.length];
		int count = 0;
		for (int position = chain.length - 1; position >= 0; position--) {
			count += addHistory(chain[position], position);
			this.reachCount[position] = count;
			grow(chain[position]);
			this.chainAt[chain[position]] = position;
		}
		this.baseCount = count;
		this.visited = new int[this.addedAt.length];
	}

	/** The base's node, or a negative number for none. */
	public int base() {
		return this.base;
	}

	/** How many commits the base's history holds (the base included). */
	public int baseCount() {
		return this.baseCount;
	}

	/** Whether the commit is merged into the base: the base reaches it. */
	public boolean merged(int node) {
		return node >= 0 && this.inBase.get(node);
	}

	private int[] firstParentChain(int start) throws IOException {
		if (start < 0) {
			return new int[0];
		}
		int[] chain = new int[64];
		int length = 0;
		BitSet seen = new BitSet();
		for (int node = start; node >= 0 && !seen.get(node);) {
			seen.set(node);
			if (length == chain.length) {
				chain = Arrays.copyOf(chain, length * 2);
			}
			chain[length++] = node;
			node = (loadParents(node) > 0) ? this.parents[0] : -1;
		}
		return Arrays.copyOf(chain, length);
	}

	/**
	 * Adds what {@code start} reaches that is not in the base's history yet, marking it
	 * with {@code position}.
	 * @return how many commits were added
	 */
	private int addHistory(int start, int position) throws IOException {
		if (this.inBase.get(start)) {
			return 0;
		}
		int added = 0;
		int top = 0;
		this.stack = CommitWalk.push(this.stack, top++, start);
		mark(start, position);
		added++;
		while (top > 0) {
			int node = this.stack[--top];
			int n = loadParents(node);
			for (int i = 0; i < n; i++) {
				int parent = this.parents[i];
				if (!this.inBase.get(parent)) {
					mark(parent, position);
					added++;
					this.stack = CommitWalk.push(this.stack, top++, parent);
				}
			}
		}
		return added;
	}

	private void mark(int node, int position) {
		this.inBase.set(node);
		grow(node);
		this.addedAt[node] = position;
	}

	private void grow(int node) {
		if (node >= this.addedAt.length) {
			int length = Math.max(node + 1, this.addedAt.length * 2);
			int old = this.addedAt.length;
			this.addedAt = Arrays.copyOf(this.addedAt, length);
			this.chainAt = Arrays.copyOf(this.chainAt, length);
			Arrays.fill(this.chainAt, old, length, -1);
			if (this.visited != null) {
				this.visited = Arrays.copyOf(this.visited, length);
			}
		}
		if (this.visited != null && node >= this.visited.length) {
			this.visited = Arrays.copyOf(this.visited, this.addedAt.length);
		}
	}

	/**
	 * How far a commit is ahead of and behind the base, as git's {@code ahead-behind}
	 * atom counts: commits the tip reaches that the base does not, and commits the base
	 * reaches that the tip does not.
	 * @param tip the commit's node
	 * @param out receives {@code ahead} at {@code out[0]} and {@code behind} at
	 * {@code out[1]}
	 * @throws IOException if a commit cannot be read
	 */
	public void aheadBehind(int tip, int[] out) throws IOException {
		this.stamp++;
		int ahead = 0;
		// the nearest chain position the tip reaches, and the side-history commits found
		int nearest = this.reachCount.length;
		int frontierCount = 0;
		int top = 0;
		visit(tip);
		this.stack = CommitWalk.push(this.stack, top++, tip);
		while (top > 0) {
			int node = this.stack[--top];
			if (this.inBase.get(node)) {
				int position = this.chainAt[node];
				if (position >= 0) {
					nearest = Math.min(nearest, position);
				}
				else {
					this.frontier = CommitWalk.push(this.frontier, frontierCount++, node);
				}
				continue;
			}
			ahead++;
			int n = loadParents(node);
			for (int i = 0; i < n; i++) {
				if (visit(this.parents[i])) {
					this.stack = CommitWalk.push(this.stack, top++, this.parents[i]);
				}
			}
		}
		int reached = (nearest < this.reachCount.length) ? this.reachCount[nearest] : 0;
		// side histories: commits of the base's history added before the nearest
		// chain commit's own history (a smaller position), which that commit does not
		// reach; stamps already set by the walk above are commits outside the base
		// or frontier commits, so the frontier is pushed afresh
		for (int f = 0; f < frontierCount; f++) {
			int node = this.frontier[f];
			if (this.addedAt[node] >= nearest) {
				continue;
			}
			top = 0;
			this.stack = CommitWalk.push(this.stack, top++, node);
			while (top > 0) {
				int current = this.stack[--top];
				if (this.visited[current] == -this.stamp) {
					continue;
				}
				this.visited[current] = -this.stamp;
				reached++;
				int n = loadParents(current);
				for (int i = 0; i < n; i++) {
					int parent = this.parents[i];
					if (this.addedAt[parent] < nearest && this.visited[parent] != -this.stamp) {
						this.stack = CommitWalk.push(this.stack, top++, parent);
					}
				}
			}
		}
		out[0] = ahead;
		out[1] = this.baseCount - reached;
	}

	/**
	 * Loads a commit's parents into {@link #parents}.
	 * @return how many
	 */
	private int loadParents(int node) throws IOException {
		int n = this.walk.parents(node, this.parents);
		if (n > this.parents.length) {
			this.parents = new int[n];
			this.walk.parents(node, this.parents);
		}
		return n;
	}

	/** Stamps a node for this tip's walk; {@code false} if it already was. */
	private boolean visit(int node) {
		grow(node);
		if (this.visited[node] == this.stamp) {
			return false;
		}
		this.visited[node] = this.stamp;
		return true;
	}

}
