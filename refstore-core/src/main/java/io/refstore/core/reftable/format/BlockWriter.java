package io.refstore.core.reftable.format;

import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * Fills one block with prefix-compressed records exactly as git's writer does, so that
 * the same records give the same bytes.
 *
 * <ul>
 * <li>Record {@code k} of the block (counted from 0) is written with prefix length 0 when
 * {@code k % restartInterval == 0}; every other record shares the longest common prefix
 * with its predecessor. Every record that ends up with prefix 0 (also by chance, such as
 * {@code refs/...} after {@code HEAD}) is registered as a restart point, up to 65535 of
 * them.</li>
 * <li>A record of encoded size {@code n} is accepted only if
 * {@code next + n + 3 * restartsAfterAdding + 2 <= blockSize}.</li>
 * <li>Log blocks are limited to {@code blockSize} bytes before compression and then
 * deflated at level 9.</li>
 * </ul>
 *
 * <p>
 * Not thread-safe; one per table writer, reused for every block.
 */
final class BlockWriter {

	private final byte[] buf;

	private final int restartInterval;

	private final int hashSize;

	private final Deflater deflater = new Deflater(9);

	private byte type;

	private int headerOffset;

	private long updateIndexBase;

	private int next;

	private int[] restarts = new int[64];

	private int restartCount;

	private int entries;

	private byte[] lastKey = new byte[64];

	private int lastKeyLength;

	private byte[] compressed = new byte[0];

	private byte[] output;

	BlockWriter(int blockSize, int restartInterval, int hashSize) {
		this.buf = new byte[blockSize];
		this.restartInterval = restartInterval;
		this.hashSize = hashSize;
	}

	/**
	 * Starts a new block.
	 * @param type the block type letter
	 * @param headerOffset where the block starts in the buffer: the file header size for
	 * the first block of the file, else 0
	 * @param updateIndexBase the table's minimum update index
	 */
	void reset(byte type, int headerOffset, long updateIndexBase) {
		this.type = type;
		this.headerOffset = headerOffset;
		this.updateIndexBase = updateIndexBase;
		Arrays.fill(this.buf, 0, headerOffset, (byte) 0);
		this.buf[headerOffset] = type;
		this.next = headerOffset + ReftableConstants.BLOCK_HEADER_SIZE;
		this.restartCount = 0;
		this.entries = 0;
		this.lastKeyLength = 0;
		this.output = null;
	}

	byte type() {
		return this.type;
	}

	/** Records added to this block so far. */
	int entries() {
		return this.entries;
	}

	/** The last key added, valid in {@code [0, lastKeyLength())}. */
	byte[] lastKey() {
		return this.lastKey;
	}

	int lastKeyLength() {
		return this.lastKeyLength;
	}

	/**
	 * Adds a record if it fits.
	 * @return {@code false} (block unchanged) if the record does not fit
	 */
	boolean add(BlockRecord rec) {
		int keyLength = rec.keyLength;
		int prefix = (this.entries % this.restartInterval == 0) ? 0 : commonPrefix(rec.key, keyLength);
		int limit = this.buf.length;
		int pos = VarInt.encode(prefix, this.buf, this.next, limit);
		pos = (pos < 0) ? -1
				: VarInt.encode(((long) (keyLength - prefix) << 3) | rec.valueType(), this.buf, pos, limit);
		if (pos < 0 || limit - pos < keyLength - prefix) {
			return false;
		}
		System.arraycopy(rec.key, prefix, this.buf, pos, keyLength - prefix);
		pos = rec.encodeValue(this.buf, pos + keyLength - prefix, limit, this.hashSize, this.updateIndexBase);
		if (pos < 0) {
			return false;
		}
		boolean restart = prefix == 0 && this.restartCount < ReftableConstants.MAX_RESTARTS;
		int restartsAfter = this.restartCount + (restart ? 1 : 0);
		if (pos + 3 * restartsAfter + 2 > limit) {
			return false;
		}
		if (restart) {
			if (this.restartCount == this.restarts.length) {
				this.restarts = Arrays.copyOf(this.restarts, 2 * this.restartCount);
			}
			this.restarts[this.restartCount++] = this.next;
		}
		this.next = pos;
		if (this.lastKey.length < keyLength) {
			this.lastKey = new byte[Math.max(keyLength, 2 * this.lastKey.length)];
		}
		System.arraycopy(rec.key, 0, this.lastKey, 0, keyLength);
		this.lastKeyLength = keyLength;
		this.entries++;
		return true;
	}

	private int commonPrefix(byte[] key, int keyLength) {
		int n = Arrays.mismatch(this.lastKey, 0, this.lastKeyLength, key, 0, keyLength);
		return (n < 0) ? keyLength : n;
	}

	/**
	 * Appends the restart table, sets the block length and, for a log block, compresses
	 * everything after the block header.
	 * @return the number of bytes of {@link #output()} to write (the first
	 * {@code headerOffset} bytes are left for the file header)
	 */
	int finish() {
		for (int i = 0; i < this.restartCount; i++) {
			ReftableConstants.putU24(this.buf, this.next, this.restarts[i]);
			this.next += 3;
		}
		ReftableConstants.putU16(this.buf, this.next, this.restartCount);
		this.next += 2;
		ReftableConstants.putU24(this.buf, this.headerOffset + 1, this.next);
		if (this.type != ReftableConstants.BLOCK_TYPE_LOG) {
			this.output = this.buf;
			return this.next;
		}
		return deflate();
	}

	private int deflate() {
		int skip = this.headerOffset + ReftableConstants.BLOCK_HEADER_SIZE;
		int length = this.next - skip;
		// zlib's worst case is a few bytes per 16 KiB over the input, plus its header and
		// trailer
		int bound = skip + length + (length >>> 12) + (length >>> 14) + 64;
		if (this.compressed.length < bound) {
			this.compressed = new byte[bound];
		}
		System.arraycopy(this.buf, 0, this.compressed, 0, skip);
		this.deflater.reset();
		this.deflater.setInput(this.buf, skip, length);
		this.deflater.finish();
		int out = skip;
		while (!this.deflater.finished()) {
			if (out == this.compressed.length) {
				this.compressed = Arrays.copyOf(this.compressed, 2 * out);
			}
			out += this.deflater.deflate(this.compressed, out, this.compressed.length - out);
		}
		this.output = this.compressed;
		return out;
	}

	/** The finished block's bytes (valid after {@link #finish()}). */
	byte[] output() {
		return this.output;
	}

	/** Releases the compressor. */
	void close() {
		this.deflater.end();
	}

}
