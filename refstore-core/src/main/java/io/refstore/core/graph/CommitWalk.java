package io.refstore.core.graph;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Reachability questions about many refs at once, answered by one walk of the commit
 * history ({@code for-each-ref --merged}, {@code --contains}, and the
 * {@code ahead-behind} atom, with {@link Divergence}). Commits are numbered nodes: the
 * positions of the {@link CommitGraph} when the repository has one, then commits parsed
 * from the object database as the walk meets them. A graph commit never reaches a commit
 * outside the graph, so walks that start in the graph read nothing else.
 *
 * <p>
 * Not thread-safe: a walk belongs to one command.
 */
public final class CommitWalk {

	private final CommitGraph graph;

	private final ObjectDatabase objects;

	private final HashAlgorithm algorithm;

	private final int graphCount;

	/** Commits outside the graph; their nodes follow the graph's positions. */
	private final NodeTable extras;

	/** Parents of commits outside the graph, {@code null} until parsed. */
	private int[][] extraParents = new int[16][];

	/** Committer times of commits outside the graph, set when their parents are. */
	private long[] extraTimes = new long[16];

	private int[] parentBuffer = new int[8];

	/** One id, decoded from a parent line or copied out of {@link #extras}. */
	private final byte[] rawBuffer;

	/**
	 * A walk over a repository's history.
	 * @param graph the commit-graph, or {@code null} to read every commit from the object
	 * database
	 * @param objects the object database
	 * @param algorithm the repository's hash
	 */
	public CommitWalk(CommitGraph graph, ObjectDatabase objects, HashAlgorithm algorithm) {
		this.graph = graph;
		this.objects = objects;
		this.algorithm = algorithm;
		this.graphCount = (graph != null) ? graph.count() : 0;
		this.extras = new NodeTable(algorithm.rawLength());
		this.rawBuffer = new byte[algorithm.rawLength()];
	}

	/**
	 * The commit an object names, following annotated tags, as git's
	 * {@code lookup_commit_reference}.
	 * @param raw the buffer holding the raw id
	 * @param offset where the id starts
	 * @return the commit's node, or -1 if the object is missing or does not peel to a
	 * commit
	 * @throws IOException if the object database cannot be read
	 */
	public int commitOf(byte[] raw, int offset) throws IOException {
		int node = knownNode(raw, offset);
		if (node >= 0) {
			return node;
		}
		ObjectId id = ObjectId.fromRaw(this.algorithm, raw, offset);
		return commitOf(id, this.objects.type(id));
	}

	/**
	 * {@link #commitOf(byte[], int)} for many ids at once, whose types were looked up
	 * already (in one pass over the object database, {@link ObjectDatabase#types}).
	 * @param ids {@code count} raw ids back to back from offset 0
	 * @param count how many ids
	 * @param types the type of each id, {@code null} where the object is missing
	 * @return the node of each id, -1 where it does not peel to a commit
	 * @throws IOException if the object database cannot be read
	 */
	public int[] commitsOf(byte[] ids, int count, ObjectType[] types) throws IOException {
		int rawLength = this.algorithm.rawLength();
		int[] nodes = new int[count];
		for (int i = 0; i < count; i++) {
			int at = i * rawLength;
			int node = knownNode(ids, at);
			nodes[i] = (node >= 0) ? node : commitOf(ObjectId.fromRaw(this.algorithm, ids, at), types[i]);
		}
		return nodes;
	}

	/**
	 * The types of some of many ids, looked up in one pass over the object database.
	 * @param ids raw ids back to back
	 * @param indexes which of them, {@code count} of them
	 * @return the type of each, {@code null} where the object is missing
	 */
	ObjectType[] types(byte[] ids, int[] indexes, int count) throws IOException {
		int rawLength = this.algorithm.rawLength();
		byte[] lookup = new byte[count * rawLength];
		for (int j = 0; j < count; j++) {
			System.arraycopy(ids, indexes[j] * rawLength, lookup, j * rawLength, rawLength);
		}
		ObjectType[] types = new ObjectType[count];
		this.objects.types(this.algorithm, lookup, count, types);
		return types;
	}

	/** The node of a commit met before or in the graph, else -1. */
	int knownNode(byte[] raw, int offset) {
		int node = (this.graph != null) ? this.graph.find(raw, offset) : -1;
		if (node >= 0) {
			return node;
		}
		int extra = this.extras.find(raw, offset);
		return (extra >= 0) ? this.graphCount + extra : -1;
	}

	private int commitOf(ObjectId id, ObjectType type) throws IOException {
		if (type == ObjectType.TAG) {
			ObjectId peeled = this.objects.peel(id);
			if (peeled == null) {
				return -1;
			}
			return commitOf(peeled.toRaw(), 0);
		}
		return (type == ObjectType.COMMIT) ? extraNode(id.toRaw(), 0) : -1;
	}

	/** {@link #commitOf(byte[], int)} for an id. */
	public int commitOf(ObjectId id) throws IOException {
		return commitOf(id.toRaw(), 0);
	}

	/** The type of an object, or {@code null} if it is missing. */
	public ObjectType objectType(ObjectId id) throws IOException {
		return this.objects.type(id);
	}

	/** How many nodes exist so far (graph commits and those parsed). */
	public int nodeCount() {
		return this.graphCount + this.extras.size();
	}

	/**
	 * The topological level of a node, or {@link Integer#MAX_VALUE} where unknown (a
	 * commit outside the graph, which may reach anything).
	 */
	public int generation(int node) {
		if (node < this.graphCount) {
			int generation = this.graph.generation(node);
			return (generation == 0) ? Integer.MAX_VALUE : generation;
		}
		return Integer.MAX_VALUE;
	}

	/**
	 * Every commit reachable from the given ones (themselves included).
	 * @param starts nodes; negative entries are skipped
	 * @return the reachable nodes
	 * @throws IOException if a commit cannot be read
	 */
	public BitSet reachable(int... starts) throws IOException {
		BitSet seen = new BitSet(nodeCount());
		int[] stack = new int[64];
		int top = 0;
		for (int start : starts) {
			if (start >= 0 && !seen.get(start)) {
				seen.set(start);
				stack = push(stack, top++, start);
			}
		}
		while (top > 0) {
			int node = stack[--top];
			int n = parents(node);
			int[] parents = this.parentBuffer;
			for (int i = 0; i < n; i++) {
				int parent = parents[i];
				if (!seen.get(parent)) {
					seen.set(parent);
					stack = push(stack, top++, parent);
				}
			}
		}
		return seen;
	}

	/**
	 * Which of the tips contain (reach) at least one of the targets: one memoized walk
	 * for all tips, which stops at commits whose generation is below every target's.
	 * @param tips nodes to classify; negative entries are skipped
	 * @param targets the commits looked for
	 * @return the nodes known to reach a target (every tip among them is such a tip)
	 * @throws IOException if a commit cannot be read
	 */
	public BitSet containing(int[] tips, int... targets) throws IOException {
		BitSet yes = new BitSet();
		BitSet done = new BitSet();
		int minGeneration = Integer.MAX_VALUE;
		for (int target : targets) {
			if (target >= 0) {
				yes.set(target);
				done.set(target);
				minGeneration = Math.min(minGeneration, generation(target));
			}
		}
		// each frame: a node and how many of its parents were looked at
		int[] nodes = new int[64];
		int[] next = new int[64];
		for (int tip : tips) {
			if (tip < 0 || done.get(tip)) {
				continue;
			}
			int top = 0;
			nodes[top] = tip;
			next[top++] = 0;
			while (top > 0) {
				int node = nodes[top - 1];
				int n = parents(node);
				int i = next[top - 1];
				while (i < n && done.get(this.parentBuffer[i]) && !yes.get(this.parentBuffer[i])) {
					i++;
				}
				if (i < n && yes.get(this.parentBuffer[i])) {
					yes.set(node);
					done.set(node);
					top--;
					continue;
				}
				if (i == n) {
					done.set(node);
					top--;
					continue;
				}
				int parent = this.parentBuffer[i];
				// come back to this parent once it is done
				next[top - 1] = i;
				if (generation(parent) < minGeneration) {
					done.set(parent);
					continue;
				}
				if (top == nodes.length) {
					nodes = Arrays.copyOf(nodes, top * 2);
					next = Arrays.copyOf(next, top * 2);
				}
				nodes[top] = parent;
				next[top++] = 0;
			}
		}
		return yes;
	}

	/**
	 * A node's parents, in order.
	 * @param out receives the parents, as many as fit
	 * @return how many parents the node has; call again with a larger buffer if more than
	 * {@code out.length}
	 * @throws IOException if the commit cannot be read
	 */
	int parents(int node, int[] out) throws IOException {
		int n = parents(node);
		System.arraycopy(this.parentBuffer, 0, out, 0, Math.min(n, out.length));
		return n;
	}

	/**
	 * Loads a node's parents into {@link #parentBuffer}.
	 * @return how many
	 */
	private int parents(int node) throws IOException {
		if (node < this.graphCount) {
			int n = this.graph.parents(node, this.parentBuffer);
			if (n > this.parentBuffer.length) {
				this.parentBuffer = new int[n];
				this.graph.parents(node, this.parentBuffer);
			}
			return n;
		}
		int extra = node - this.graphCount;
		int[] parents = loaded(extra);
		if (parents.length > this.parentBuffer.length) {
			this.parentBuffer = new int[parents.length];
		}
		System.arraycopy(parents, 0, this.parentBuffer, 0, parents.length);
		return parents.length;
	}

	/**
	 * The committer time of a commit node in seconds since the epoch: the graph's record,
	 * or the {@code committer} line of a commit outside the graph (0 if it has none, as
	 * git reads such a line).
	 * @throws IOException if the commit cannot be read
	 */
	public long commitTime(int node) throws IOException {
		if (node < this.graphCount) {
			return this.graph.commitTime(node);
		}
		int extra = node - this.graphCount;
		loaded(extra);
		return this.extraTimes[extra];
	}

	/** The parents of an extra node, parsing its commit the first time. */
	private int[] loaded(int extra) throws IOException {
		int[] parents = this.extraParents[extra];
		if (parents == null) {
			this.extras.copy(extra, this.rawBuffer);
			parents = parse(ObjectId.fromRaw(this.algorithm, this.rawBuffer, 0), extra);
			this.extraParents[extra] = parents;
		}
		return parents;
	}

	/**
	 * Reads a commit's {@code parent} header lines, and its committer time into
	 * {@link #extraTimes}.
	 */
	private int[] parse(ObjectId id, int extra) throws IOException {
		byte[] content = this.objects.commitContent(id);
		if (content == null) {
			throw new IOException("unable to parse commit " + id.name());
		}
		int hexLength = this.algorithm.hexLength();
		int lineLength = 7 + hexLength + 1;
		// the tree line comes first, the parent lines right after it
		int first = 5 + hexLength + 1;
		int at = first;
		while (at + lineLength <= content.length && isParentLine(content, at)) {
			at += lineLength;
		}
		int[] parents = new int[(at - first) / lineLength];
		for (int i = 0; i < parents.length; i++) {
			int line = first + i * lineLength;
			if (!ObjectId.decodeHex(content, line + 7, this.rawBuffer, 0, this.rawBuffer.length)
					|| content[line + 7 + hexLength] != '\n') {
				throw new IOException("unable to parse commit " + id.name() + ": bad parent line");
			}
			parents[i] = parentNode(this.rawBuffer);
		}
		this.extraTimes[extra] = committerTime(content, at);
		return parents;
	}

	/**
	 * The seconds of the {@code committer} header at or after {@code from}: the digits
	 * after the last {@code >} of its line; 0 if there is no such line or number.
	 */
	static long committerTime(byte[] content, int from) {
		int at = from;
		while (at < content.length && content[at] != '\n') {
			int end = at;
			while (end < content.length && content[end] != '\n') {
				end++;
			}
			if (end - at > 10 && content[at] == 'c'
					&& new String(content, at, 10, StandardCharsets.US_ASCII).equals("committer ")) {
				int gt = end - 1;
				while (gt > at && content[gt] != '>') {
					gt--;
				}
				int digit = gt + 1;
				while (digit < end && content[digit] == ' ') {
					digit++;
				}
				long seconds = 0;
				int digits = 0;
				while (digit < end && content[digit] >= '0' && content[digit] <= '9' && digits < 18) {
					seconds = seconds * 10 + (content[digit++] - '0');
					digits++;
				}
				return (gt > at) ? seconds : 0;
			}
			at = end + 1;
		}
		return 0;
	}

	private static boolean isParentLine(byte[] content, int at) {
		return content[at] == 'p' && content[at + 1] == 'a' && content[at + 2] == 'r' && content[at + 3] == 'e'
				&& content[at + 4] == 'n' && content[at + 5] == 't' && content[at + 6] == ' ';
	}

	private int parentNode(byte[] raw) {
		int node = knownNode(raw, 0);
		return (node >= 0) ? node : extraNode(raw, 0);
	}

	private int extraNode(byte[] raw, int at) {
		int extra = this.extras.add(raw, at);
		if (extra == this.extraParents.length) {
			this.extraParents = Arrays.copyOf(this.extraParents, extra * 2);
			this.extraTimes = Arrays.copyOf(this.extraTimes, extra * 2);
		}
		return this.graphCount + extra;
	}

	static int[] push(int[] stack, int top, int value) {
		int[] s = (top == stack.length) ? Arrays.copyOf(stack, top * 2) : stack;
		s[top] = value;
		return s;
	}

}
