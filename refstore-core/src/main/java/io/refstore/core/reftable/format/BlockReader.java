package io.refstore.core.reftable.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

import io.refstore.core.ref.CorruptRefStoreException;

/**
 * Reads one block of a table and decodes its records in place: keys go into a buffer
 * owned by this reader and are copied into the caller's record, so iterating allocates
 * nothing once the buffers are large enough.
 *
 * <p>
 * Everything read from the file is checked before use: block header, restart table, every
 * varint and length, key order and that restart points sit on records written with prefix
 * length 0. A violation is a {@link CorruptRefStoreException} naming the file and offset.
 *
 * <p>
 * Not thread-safe; one per cursor, reused for every block it visits.
 */
final class BlockReader {

	private final ReftableReader table;

	private LogBlockInflater logInflater;

	private byte[] own = new byte[0];

	/** The bytes of the current block: block byte {@code i} is {@code buf[base + i]}. */
	private byte[] buf;

	private int base;

	private long blockOffset;

	private byte type;

	private int headerOffset;

	private int restartCount;

	/** Start of the restart table relative to the block: the end of the records. */
	private int restartStart;

	private long fullBlockSize;

	private int pos;

	private int limit;

	private int nextRestart;

	private boolean havePrevious;

	private boolean pending;

	private byte[] lastKey = new byte[64];

	private int lastKeyLength;

	BlockReader(ReftableReader table) {
		this.table = table;
	}

	/**
	 * Loads the block at {@code offset}.
	 * @param wantType the block type expected, or 0 for any
	 * @param strict whether a missing block or another type is corruption (the offset
	 * came from the footer, an index or an obj record) rather than the end of a section
	 * (the offset follows the previous block)
	 * @return {@code false} if not strict and there is no block of {@code wantType} at
	 * {@code offset}
	 */
	boolean load(long offset, byte wantType, boolean strict) throws IOException {
		long dataEnd = this.table.dataEnd();
		if (offset < 0 || offset >= dataEnd) {
			if (strict) {
				throw this.table.corrupt(offset,
						"expected a " + ReftableConstants.typeName(wantType)
								+ " block, but the offset is outside the blocks (which end at 0x"
								+ Long.toHexString(dataEnd) + ")");
			}
			return false;
		}
		int headerOff = (offset == 0) ? this.table.headerSize() : 0;
		int guess = (this.table.blockSize() > 0) ? this.table.blockSize() : WriteOptions.DEFAULT_BLOCK_SIZE;
		ByteBuffer kept = this.table.indexBlock(offset);
		ByteBuffer data = (kept != null) ? kept
				: this.table.source().read(offset, (int) Math.min(Math.max(guess, headerOff + 4), dataEnd - offset));
		if (data.remaining() < headerOff + ReftableConstants.BLOCK_HEADER_SIZE) {
			throw this.table.corrupt(offset, "truncated block header");
		}
		byte blockType = data.get(headerOff);
		if (!ReftableConstants.isBlockType(blockType)) {
			throw this.table.corrupt(offset + headerOff, "unknown block type " + ReftableConstants.typeName(blockType));
		}
		if (wantType != 0 && blockType != wantType) {
			if (strict) {
				throw this.table.corrupt(offset + headerOff, "expected a " + ReftableConstants.typeName(wantType)
						+ " block, found a " + ReftableConstants.typeName(blockType) + " block");
			}
			return false;
		}
		this.blockOffset = offset;
		this.type = blockType;
		this.headerOffset = headerOff;
		int blockLen = ((data.get(headerOff + 1) & 0xff) << 16) | ((data.get(headerOff + 2) & 0xff) << 8)
				| (data.get(headerOff + 3) & 0xff);
		if (blockType == ReftableConstants.BLOCK_TYPE_LOG) {
			inflate(data, blockLen, dataEnd);
		}
		else {
			data = plain(data, blockLen, dataEnd);
			if (kept == null && blockType == ReftableConstants.BLOCK_TYPE_INDEX) {
				this.table.keepIndexBlock(offset, data);
			}
		}
		readRestarts(blockLen);
		seekStart();
		return true;
	}

	/**
	 * Makes the bytes addressable as an array, without copying when the buffer has one.
	 */
	private void array(ByteBuffer data) {
		if (data.hasArray()) {
			this.buf = data.array();
			this.base = data.arrayOffset() + data.position();
			return;
		}
		int n = data.remaining();
		if (this.own.length < n) {
			this.own = new byte[Math.max(n, 2 * this.own.length)];
		}
		data.get(data.position(), this.own, 0, n);
		this.buf = this.own;
		this.base = 0;
	}

	/**
	 * Reads a block stored as it is.
	 * @return the bytes it was read from
	 */
	private ByteBuffer plain(ByteBuffer data, int blockLen, long dataEnd) throws IOException {
		array(data);
		int minimum = this.headerOffset + ReftableConstants.BLOCK_HEADER_SIZE + 2;
		if (blockLen < minimum) {
			throw corruptHeader("block length " + blockLen + " is shorter than the smallest block (" + minimum + ")");
		}
		int available = data.remaining();
		if (blockLen > available) {
			if (blockLen > dataEnd - this.blockOffset) {
				throw corruptHeader("block length " + blockLen + " runs past the end of the blocks");
			}
			data = this.table.source().read(this.blockOffset, blockLen);
			available = data.remaining();
			array(data);
		}
		this.fullBlockSize = nextBlockDistance(blockLen, available);
		return data;
	}

	/**
	 * How far the next block is, as git's reader decides: a block shorter than the
	 * table's block size was padded with NULs, unless a block type letter follows it
	 * directly (the last block before the log section, or any block of an unaligned
	 * table).
	 */
	private long nextBlockDistance(int blockLen, int available) {
		int blockSize = this.table.blockSize();
		if (blockSize == 0) {
			return blockLen;
		}
		boolean followed = blockLen < available && this.buf[this.base + blockLen] != 0;
		if (blockLen <= blockSize) {
			// a full block (a log index block among the unaligned log section's is one)
			// is
			// followed directly by the next
			return followed ? blockLen : blockSize;
		}
		// an oversized block (written by another implementation): next block right after
		// it, or after padding up to the next multiple of the block size
		if (followed || this.blockOffset + blockLen >= this.table.dataEnd()) {
			return blockLen;
		}
		long end = this.blockOffset + blockLen;
		return ((end + blockSize - 1) / blockSize) * blockSize - this.blockOffset;
	}

	private void inflate(ByteBuffer data, int blockLen, long dataEnd) throws IOException {
		int skip = this.headerOffset + ReftableConstants.BLOCK_HEADER_SIZE;
		if (blockLen < skip + 2) {
			throw corruptHeader(
					"log block length " + blockLen + " is shorter than the smallest block (" + (skip + 2) + ")");
		}
		if (this.logInflater == null) {
			this.logInflater = new LogBlockInflater(this.table);
		}
		this.buf = this.logInflater.inflate(data, this.blockOffset, skip, blockLen, dataEnd, this::corruptHeader);
		this.base = 0;
		this.fullBlockSize = skip + this.logInflater.consumed();
	}

	private CorruptRefStoreException corruptHeader(String what) {
		return this.table.corrupt(this.blockOffset + this.headerOffset, what + " ("
				+ ReftableConstants.typeName(this.type) + " block at 0x" + Long.toHexString(this.blockOffset) + ")");
	}

	private void readRestarts(int blockLen) throws CorruptRefStoreException {
		int recordsStart = this.headerOffset + ReftableConstants.BLOCK_HEADER_SIZE;
		this.restartCount = ReftableConstants.getU16(this.buf, this.base + blockLen - 2);
		this.restartStart = blockLen - 2 - 3 * this.restartCount;
		if (this.restartCount == 0 || this.restartStart < recordsStart + 1) {
			throw corruptHeader("restart count " + this.restartCount + " does not fit a block of length " + blockLen);
		}
		int previous = recordsStart - 1;
		for (int i = 0; i < this.restartCount; i++) {
			int r = restart(i);
			if (r <= previous || r >= this.restartStart) {
				throw corruptHeader("restart " + i + " points to 0x" + Integer.toHexString(r)
						+ ", not to a record between 0x" + Integer.toHexString(previous + 1) + " and 0x"
						+ Integer.toHexString(this.restartStart));
			}
			previous = r;
		}
		this.limit = this.base + this.restartStart;
	}

	private int restart(int i) {
		return ReftableConstants.getU24(this.buf, this.base + this.restartStart + 3 * i);
	}

	byte type() {
		return this.type;
	}

	long blockOffset() {
		return this.blockOffset;
	}

	/** File offset of the block after this one. */
	long nextBlockOffset() {
		return this.blockOffset + this.fullBlockSize;
	}

	/** Positions before the first record. */
	void seekStart() {
		this.pos = this.base + this.headerOffset + ReftableConstants.BLOCK_HEADER_SIZE;
		this.nextRestart = 0;
		this.havePrevious = false;
		this.pending = false;
		this.lastKeyLength = 0;
	}

	/**
	 * Decodes the next record into {@code rec}, which must be the record passed to the
	 * last {@link #seek}.
	 * @return {@code false} at the end of the block
	 */
	boolean next(BlockRecord rec) throws CorruptRefStoreException {
		if (this.pending) {
			this.pending = false;
			return true;
		}
		if (this.pos >= this.limit) {
			return false;
		}
		int at = this.pos - this.base;
		if (this.nextRestart < this.restartCount && restart(this.nextRestart) < at) {
			throw corrupt(
					"restart offset 0x" + Integer.toHexString(restart(this.nextRestart)) + " points inside a record");
		}
		boolean atRestart = this.nextRestart < this.restartCount && restart(this.nextRestart) == at;
		long prefix = readVarint();
		if (atRestart) {
			this.nextRestart++;
			if (prefix != 0) {
				throw corrupt("restart point at a record with prefix length " + prefix + " (must be 0)");
			}
		}
		if (Long.compareUnsigned(prefix, this.lastKeyLength) > 0) {
			throw corrupt("prefix length " + Long.toUnsignedString(prefix) + " is longer than the previous key ("
					+ this.lastKeyLength + " bytes)");
		}
		long tag = readVarint();
		int suffix = length(tag >>> 3);
		int keyLength = (int) prefix + suffix;
		if (keyLength == 0) {
			throw corrupt("empty key");
		}
		int from = take(suffix);
		if (this.havePrevious && Arrays.compareUnsigned(this.buf, from, from + suffix, this.lastKey, (int) prefix,
				this.lastKeyLength) <= 0) {
			throw corrupt("keys are not in increasing order");
		}
		if (this.lastKey.length < keyLength) {
			this.lastKey = Arrays.copyOf(this.lastKey, Math.max(keyLength, 2 * this.lastKey.length));
		}
		System.arraycopy(this.buf, from, this.lastKey, (int) prefix, suffix);
		this.lastKeyLength = keyLength;
		this.havePrevious = true;
		rec.setKey(this.lastKey, 0, keyLength);
		rec.decodeValue((int) (tag & 7), this);
		return true;
	}

	/**
	 * Positions at the first record whose key is {@code >= want}, decoding it into
	 * {@code rec} so that the next {@link #next} returns it.
	 * @return {@code false} if every key of the block is smaller
	 */
	boolean seek(byte[] want, int wantLength, BlockRecord rec) throws CorruptRefStoreException {
		int lo = restartAfter(0, want, wantLength);
		seekStart();
		if (lo > 0) {
			this.pos = this.base + restart(lo - 1);
			this.nextRestart = lo - 1;
		}
		return scanTo(want, wantLength, rec);
	}

	/**
	 * As {@link #seek}, from the record {@code rec} holds, last decoded by {@link #next}
	 * and smaller than {@code want}: first over the restart points after it, then record
	 * by record. Lookups in ascending order of keys that lie close together so step
	 * through a block instead of searching it from its start.
	 * @return {@code false} if every key left in the block is smaller
	 */
	boolean seekOnward(byte[] want, int wantLength, BlockRecord rec) throws CorruptRefStoreException {
		int from = this.nextRestart;
		int resume = this.pos;
		int lo = restartAfter(from, want, wantLength);
		if (lo > from) {
			// a restart point after the record has a key <= want: go on from there
			this.pos = this.base + restart(lo - 1);
			this.nextRestart = lo - 1;
			this.havePrevious = false;
		}
		else {
			this.pos = resume;
		}
		return scanTo(want, wantLength, rec);
	}

	/**
	 * The first restart point from {@code from} on whose key is {@code > want}, or the
	 * count of restart points; moves the position.
	 */
	private int restartAfter(int from, byte[] want, int wantLength) throws CorruptRefStoreException {
		int lo = from;
		int hi = this.restartCount;
		while (lo < hi) {
			int mid = (lo + hi) >>> 1;
			if (compareRestartKey(mid, want, wantLength) > 0) {
				hi = mid;
			}
			else {
				lo = mid + 1;
			}
		}
		return lo;
	}

	/** Decodes records until one is {@code >= want}, left for the next {@link #next}. */
	private boolean scanTo(byte[] want, int wantLength, BlockRecord rec) throws CorruptRefStoreException {
		while (next(rec)) {
			if (rec.compareKey(want, wantLength) >= 0) {
				this.pending = true;
				return true;
			}
		}
		return false;
	}

	/** Makes the next {@link #next} return the record last decoded again. */
	void repeat() {
		this.pending = true;
	}

	/** Compares the full key written at restart {@code i} with {@code want}. */
	private int compareRestartKey(int i, byte[] want, int wantLength) throws CorruptRefStoreException {
		this.pos = this.base + restart(i);
		if (readVarint() != 0) {
			throw corrupt("restart " + i + " points at a prefix-compressed record");
		}
		int suffix = length(readVarint() >>> 3);
		int from = take(suffix);
		return Arrays.compareUnsigned(this.buf, from, from + suffix, want, 0, wantLength);
	}

	/** Compares the first key of the block with {@code want}. */
	int compareFirstKey(byte[] want, int wantLength) throws CorruptRefStoreException {
		this.pos = this.base + this.headerOffset + ReftableConstants.BLOCK_HEADER_SIZE;
		if (readVarint() != 0) {
			throw corrupt("the first record of a block has a non-zero prefix length");
		}
		int suffix = length(readVarint() >>> 3);
		int from = take(suffix);
		int result = Arrays.compareUnsigned(this.buf, from, from + suffix, want, 0, wantLength);
		seekStart();
		return result;
	}

	// decoding primitives for the records, all bounded by the end of the records

	byte[] buffer() {
		return this.buf;
	}

	int hashSize() {
		return this.table.hashAlgorithm().rawLength();
	}

	long updateIndexBase() {
		return this.table.minUpdateIndex();
	}

	int remaining() {
		return this.limit - this.pos;
	}

	long readVarint() throws CorruptRefStoreException {
		if (this.pos >= this.limit) {
			throw corrupt("varint runs past the end of the records");
		}
		int b = this.buf[this.pos++] & 0xff;
		long v = b & 0x7f;
		while ((b & 0x80) != 0) {
			if (this.pos >= this.limit) {
				throw corrupt("varint runs past the end of the records");
			}
			if (Long.compareUnsigned(v, VarInt.MAX_BEFORE_SHIFT) > 0) {
				throw corrupt("varint does not fit 64 bits");
			}
			b = this.buf[this.pos++] & 0xff;
			v = ((v + 1) << 7) | (b & 0x7f);
		}
		return v;
	}

	/** A varint length that must fit in the remaining records. */
	int readLength() throws CorruptRefStoreException {
		return length(readVarint());
	}

	private int length(long value) throws CorruptRefStoreException {
		if (value < 0 || value > remaining()) {
			throw corrupt("length " + Long.toUnsignedString(value) + " runs past the end of the records (" + remaining()
					+ " bytes left)");
		}
		return (int) value;
	}

	/**
	 * Consumes {@code n} bytes and returns the index of the first in {@link #buffer()}.
	 */
	int take(int n) throws CorruptRefStoreException {
		if (n > remaining()) {
			throw corrupt(n + " bytes wanted, " + remaining() + " left before the end of the records");
		}
		int at = this.pos;
		this.pos += n;
		return at;
	}

	/** Corruption at the current position. */
	CorruptRefStoreException corrupt(String what) {
		int at = this.pos - this.base;
		if (this.type == ReftableConstants.BLOCK_TYPE_LOG) {
			return this.table.corrupt(this.blockOffset, what + " (log block at 0x" + Long.toHexString(this.blockOffset)
					+ ", offset 0x" + Integer.toHexString(at) + " of the inflated block)");
		}
		return this.table.corrupt(this.blockOffset + at, what + " (" + ReftableConstants.typeName(this.type)
				+ " block at 0x" + Long.toHexString(this.blockOffset) + ")");
	}

	/** Releases the decompressor. */
	void close() {
		if (this.logInflater != null) {
			this.logInflater.close();
			this.logInflater = null;
		}
	}

}
