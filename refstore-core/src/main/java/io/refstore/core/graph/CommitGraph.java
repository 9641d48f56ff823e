package io.refstore.core.graph;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.ref.HashAlgorithm;

/**
 * git's commit-graph: {@code objects/info/commit-graph}, or else the split chain listed
 * in {@code objects/info/commit-graphs/commit-graph-chain}, read through memory maps.
 * Commits are numbered by their position in the concatenated layers (base first), the
 * numbering the files' parent fields use; the graph is closed under reachability, so a
 * walk that starts in it never leaves it.
 *
 * <p>
 * Each layer: the {@code CGPH} header (version 1, hash version 1 for SHA-1 and 2 for
 * SHA-256), a chunk table, the {@code OIDF} fan-out, the sorted {@code OIDL} ids, the
 * {@code CDAT} records (tree, two parent positions, topological level and commit time)
 * and {@code EDGE} for the third and further parents of octopus merges. Immutable once
 * opened; safe for use by several threads.
 */
public final class CommitGraph {

	/** A parent field saying there is no parent. */
	private static final int NO_PARENT = 0x70000000;

	/** In the second parent field: the rest indexes {@code EDGE}. */
	private static final int EXTRA_EDGES = 0x80000000;

	private static final int CHUNK_OIDF = 0x4f494446;

	private static final int CHUNK_OIDL = 0x4f49444c;

	private static final int CHUNK_CDAT = 0x43444154;

	private static final int CHUNK_EDGE = 0x45444745;

	private final HashAlgorithm algorithm;

	private final Layer[] layers;

	private final int count;

	private record Layer(ByteBuffer buffer, int first, int count, int fanout, int oids, int data, int edges) {
	}

	private CommitGraph(HashAlgorithm algorithm, Layer[] layers) {
		this.algorithm = algorithm;
		this.layers = layers;
		int total = 0;
		for (Layer layer : layers) {
			total += layer.count();
		}
		this.count = total;
	}

	/**
	 * Opens the repository's commit-graph, as git finds it: the single file first, else
	 * the chain.
	 * @param objectsDir the {@code objects} directory
	 * @param algorithm the repository's hash; a graph of another hash is ignored
	 * @return the graph, or {@code null} if there is none (or it is not one refstore
	 * reads, in which case the caller reads commits from the object database, as git
	 * does)
	 * @throws IOException if a graph file exists but cannot be read
	 */
	public static CommitGraph open(Path objectsDir, HashAlgorithm algorithm) throws IOException {
		Path info = objectsDir.resolve("info");
		List<Path> files = new ArrayList<>();
		if (Files.isRegularFile(info.resolve("commit-graph"))) {
			files.add(info.resolve("commit-graph"));
		}
		else {
			Path chain = info.resolve("commit-graphs").resolve("commit-graph-chain");
			List<String> lines;
			try {
				lines = Files.readAllLines(chain, StandardCharsets.US_ASCII);
			}
			catch (NoSuchFileException ex) {
				return null;
			}
			for (String line : lines) {
				if (!line.isBlank()) {
					files.add(chain.resolveSibling("graph-" + line.strip() + ".graph"));
				}
			}
		}
		Layer[] layers = new Layer[files.size()];
		int first = 0;
		for (int i = 0; i < layers.length; i++) {
			layers[i] = readLayer(files.get(i), algorithm, first);
			if (layers[i] == null) {
				return null;
			}
			first += layers[i].count();
		}
		return (layers.length == 0) ? null : new CommitGraph(algorithm, layers);
	}

	private static Layer readLayer(Path file, HashAlgorithm algorithm, int first) throws IOException {
		MappedByteBuffer buffer;
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			if (channel.size() > Integer.MAX_VALUE || channel.size() < 8) {
				return null;
			}
			buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		int hashVersion = (algorithm == HashAlgorithm.SHA1) ? 1 : 2;
		if (buffer.getInt(0) != 0x43475048 || buffer.get(4) != 1 || buffer.get(5) != hashVersion) {
			return null;
		}
		int chunks = buffer.get(6) & 0xff;
		int fanout = -1;
		int oids = -1;
		int data = -1;
		int edges = -1;
		for (int i = 0; i < chunks; i++) {
			int entry = 8 + i * 12;
			int id = buffer.getInt(entry);
			int offset = (int) buffer.getLong(entry + 4);
			switch (id) {
				case CHUNK_OIDF -> fanout = offset;
				case CHUNK_OIDL -> oids = offset;
				case CHUNK_CDAT -> data = offset;
				case CHUNK_EDGE -> edges = offset;
				default -> {
				}
			}
		}
		if (fanout < 0 || oids < 0 || data < 0) {
			return null;
		}
		return new Layer(buffer, first, buffer.getInt(fanout + 255 * 4), fanout, oids, data, edges);
	}

	/** How many commits the graph holds. */
	public int count() {
		return this.count;
	}

	/**
	 * The position of a commit.
	 * @param raw the buffer holding the raw id
	 * @param offset where the id starts
	 * @return the position, or -1 if the graph does not hold the commit
	 */
	public int find(byte[] raw, int offset) {
		int length = this.algorithm.rawLength();
		int firstByte = raw[offset] & 0xff;
		for (Layer layer : this.layers) {
			ByteBuffer buffer = layer.buffer();
			int low = (firstByte == 0) ? 0 : buffer.getInt(layer.fanout() + (firstByte - 1) * 4);
			int high = buffer.getInt(layer.fanout() + firstByte * 4);
			while (low < high) {
				int mid = (low + high) >>> 1;
				int cmp = compare(buffer, layer.oids() + mid * length, raw, offset, length);
				if (cmp == 0) {
					return layer.first() + mid;
				}
				if (cmp < 0) {
					low = mid + 1;
				}
				else {
					high = mid;
				}
			}
		}
		return -1;
	}

	private static int compare(ByteBuffer buffer, int at, byte[] raw, int offset, int length) {
		for (int i = 0; i < length; i++) {
			int a = buffer.get(at + i) & 0xff;
			int b = raw[offset + i] & 0xff;
			if (a != b) {
				return a - b;
			}
		}
		return 0;
	}

	/** Copies the raw id of the commit at a position into {@code dst}. */
	public void copyId(int position, byte[] dst, int offset) {
		Layer layer = layer(position);
		int length = this.algorithm.rawLength();
		layer.buffer().get(layer.oids() + (position - layer.first()) * length, dst, offset, length);
	}

	/**
	 * The topological level of a commit: 1 for a root, one more than its highest parent
	 * otherwise (0 if the graph was written without levels).
	 */
	public int generation(int position) {
		Layer layer = layer(position);
		int record = layer.data() + (position - layer.first()) * (this.algorithm.rawLength() + 16);
		return buffer(layer).getInt(record + this.algorithm.rawLength() + 8) >>> 2;
	}

	/**
	 * The commit's committer time in seconds since the epoch, as the graph records it
	 * (the low 34 bits of the date field).
	 */
	public long commitTime(int position) {
		Layer layer = layer(position);
		int record = layer.data() + (position - layer.first()) * (this.algorithm.rawLength() + 16);
		ByteBuffer buffer = buffer(layer);
		long high = buffer.getInt(record + this.algorithm.rawLength() + 8) & 0x3L;
		long low = buffer.getInt(record + this.algorithm.rawLength() + 12) & 0xffffffffL;
		return (high << 32) | low;
	}

	/**
	 * The parents of a commit, in order.
	 * @param position the commit
	 * @param parents receives the parents' positions
	 * @return how many parents were written; if more than {@code parents.length}, call
	 * again with a buffer that large
	 */
	public int parents(int position, int[] parents) {
		Layer layer = layer(position);
		ByteBuffer buffer = buffer(layer);
		int record = layer.data() + (position - layer.first()) * (this.algorithm.rawLength() + 16)
				+ this.algorithm.rawLength();
		int first = buffer.getInt(record);
		if (first == NO_PARENT) {
			return 0;
		}
		put(parents, 0, first);
		int second = buffer.getInt(record + 4);
		if (second == NO_PARENT) {
			return 1;
		}
		if ((second & EXTRA_EDGES) == 0) {
			put(parents, 1, second);
			return 2;
		}
		int n = 1;
		int edge = layer.edges() + (second & ~EXTRA_EDGES) * 4;
		while (true) {
			int value = buffer.getInt(edge);
			put(parents, n++, value & ~EXTRA_EDGES);
			if ((value & EXTRA_EDGES) != 0) {
				return n;
			}
			edge += 4;
		}
	}

	private static void put(int[] parents, int index, int value) {
		if (index < parents.length) {
			parents[index] = value;
		}
	}

	private static ByteBuffer buffer(Layer layer) {
		return layer.buffer();
	}

	private Layer layer(int position) {
		for (int i = this.layers.length - 1; i > 0; i--) {
			if (position >= this.layers[i].first()) {
				return this.layers[i];
			}
		}
		return this.layers[0];
	}

}
