package io.refstore.core.reftable.format;

import java.io.IOException;
import java.util.Arrays;

/**
 * Iterates one section (refs, logs or objs) of one table in key order, from its start or
 * from a seek, and optionally only while keys start with a prefix. Seeks go through the
 * section's index when it has one (the top level of one to three index blocks is scanned
 * linearly, then each level is descended), otherwise through the section's blocks by
 * their first keys.
 *
 * <p>
 * Not thread-safe.
 */
final class TableCursor<R extends BlockRecord> implements RecordCursor<R> {

	/**
	 * No sane index has more levels: each level divides the block count by at least two.
	 */
	private static final int MAX_INDEX_DEPTH = 64;

	private final ReftableReader table;

	private final byte type;

	private final R record;

	private BlockReader block;

	private BlockReader lookahead;

	private IndexRecord indexRecord;

	private boolean started;

	private boolean finished;

	private byte[] bound;

	private int boundLength;

	TableCursor(ReftableReader table, byte type, R record) {
		this.table = table;
		this.type = type;
		this.record = record;
		this.block = new BlockReader(table);
	}

	/**
	 * Stops the cursor at the first key that does not start with
	 * {@code prefix[0, length)}.
	 */
	TableCursor<R> bound(byte[] prefix, int length) {
		this.bound = prefix;
		this.boundLength = length;
		return this;
	}

	/** Positions before the first record of the section. */
	TableCursor<R> seekToStart() throws IOException {
		this.started = true;
		this.returned = 0;
		this.soughtLength = -1;
		this.beyond = false;
		long start = this.table.sectionStart(this.type);
		this.finished = start < 0 || !this.block.load(start, this.type, true);
		return this;
	}

	/** Positions before the first record whose key is {@code >= key[0, length)}. */
	TableCursor<R> seek(byte[] key, int length) throws IOException {
		this.started = true;
		this.finished = false;
		remember(key, length);
		long start = this.table.sectionStart(this.type);
		if (start < 0) {
			this.finished = true;
			this.beyond = true;
			return this;
		}
		long index = this.table.indexStart(this.type);
		if (index > 0) {
			seekIndexed(index, key, length);
		}
		else {
			seekLinear(start, this.type, key, length, this.record);
		}
		return this;
	}

	/**
	 * As {@link #seek}, but from where the cursor is when it can: a key past the record
	 * last returned is looked for onward in its block, and a key between the last seek's
	 * and the first record that seek returned is that record. Lookups of keys in
	 * ascending order that lie close together (the names of one chunk) so cost a step
	 * through a block, not a descent of the index.
	 */
	TableCursor<R> seekForward(byte[] key, int length) throws IOException {
		if (this.beyond && Arrays.compareUnsigned(key, 0, length, this.sought, 0, this.soughtLength) >= 0) {
			// nothing is at or after the last key sought
			this.finished = true;
			return this;
		}
		if (this.returned > 0) {
			if (this.record.compareKey(key, length) < 0) {
				if (this.block.seekOnward(key, length, this.record)) {
					remember(key, length);
					return this;
				}
			}
			else if (this.returned == 1 && this.soughtLength >= 0
					&& Arrays.compareUnsigned(key, 0, length, this.sought, 0, this.soughtLength) >= 0) {
				this.block.repeat();
				this.returned = 0;
				return this;
			}
		}
		return seek(key, length);
	}

	private void remember(byte[] key, int length) {
		this.returned = 0;
		this.beyond = false;
		if (this.sought.length < length) {
			this.sought = new byte[Math.max(length, 2 * this.sought.length)];
		}
		System.arraycopy(key, 0, this.sought, 0, length);
		this.soughtLength = length;
	}

	/**
	 * The key of the last {@link #seek} ({@code soughtLength} -1 if the cursor moved
	 * otherwise since).
	 */
	private byte[] sought = new byte[64];

	private int soughtLength = -1;

	/**
	 * How many records {@link #next} returned since the last seek, counted to 2: the
	 * first is the first record {@code >=} {@link #sought}, and {@link #record} holds the
	 * last.
	 */
	private int returned;

	/** Whether the section has no record at or after {@link #sought}. */
	private boolean beyond;

	private void seekLinear(long start, byte blockType, byte[] key, int length, BlockRecord rec) throws IOException {
		this.block.load(start, blockType, true);
		if (this.lookahead == null) {
			this.lookahead = new BlockReader(this.table);
		}
		while (this.lookahead.load(this.block.nextBlockOffset(), blockType, false)
				&& this.lookahead.compareFirstKey(key, length) <= 0) {
			BlockReader swap = this.block;
			this.block = this.lookahead;
			this.lookahead = swap;
		}
		this.block.seek(key, length, rec);
	}

	private void seekIndexed(long index, byte[] key, int length) throws IOException {
		if (this.indexRecord == null) {
			this.indexRecord = new IndexRecord();
		}
		IndexRecord idx = this.indexRecord;
		seekLinear(index, ReftableConstants.BLOCK_TYPE_INDEX, key, length, idx);
		for (int depth = 0;; depth++) {
			if (!advance(idx, ReftableConstants.BLOCK_TYPE_INDEX)) {
				this.finished = true;
				this.beyond = true;
				return;
			}
			long parent = this.block.blockOffset();
			if (depth == MAX_INDEX_DEPTH || idx.offset >= parent) {
				throw this.table.corrupt(parent, "index record points to 0x" + Long.toHexString(idx.offset)
						+ ", which is not a block before its index block at 0x" + Long.toHexString(parent));
			}
			this.block.load(idx.offset, (byte) 0, true);
			if (this.block.type() == this.type) {
				this.block.seek(key, length, this.record);
				return;
			}
			if (this.block.type() != ReftableConstants.BLOCK_TYPE_INDEX) {
				throw this.table.corrupt(idx.offset,
						"index points to a " + ReftableConstants.typeName(this.block.type()) + " block inside the "
								+ ReftableConstants.typeName(this.type) + " section");
			}
			this.block.seek(key, length, idx);
		}
	}

	/**
	 * The next record of the current block or of the following blocks of the same type.
	 * Crossing into a new block checks that its first key continues the order of the
	 * previous block.
	 */
	private boolean advance(BlockRecord rec, byte blockType) throws IOException {
		if (this.block.next(rec)) {
			return true;
		}
		// at the end of a block the record holds that block's last key
		if (this.boundary.length < rec.keyLength) {
			this.boundary = new byte[Math.max(rec.keyLength, 2 * this.boundary.length)];
		}
		System.arraycopy(rec.key, 0, this.boundary, 0, rec.keyLength);
		int boundaryLength = rec.keyLength;
		if (!this.block.load(this.block.nextBlockOffset(), blockType, false)) {
			return false;
		}
		if (!this.block.next(rec)) {
			throw this.table.corrupt(this.block.blockOffset(), "block without records");
		}
		if (rec.compareKey(this.boundary, boundaryLength) <= 0) {
			throw this.table.corrupt(this.block.blockOffset(),
					"the first key of the " + ReftableConstants.typeName(blockType) + " block at 0x"
							+ Long.toHexString(this.block.blockOffset())
							+ " is not greater than the last key of the block before it");
		}
		return true;
	}

	private byte[] boundary = new byte[64];

	@Override
	public boolean next() throws IOException {
		if (!this.started) {
			seekToStart();
		}
		if (this.finished) {
			return false;
		}
		if (!advance(this.record, this.type)) {
			this.finished = true;
			this.beyond = this.returned == 0 && this.soughtLength >= 0;
			this.returned = 0;
			return false;
		}
		if (this.bound != null && !this.record.keyStartsWith(this.bound, this.boundLength)) {
			this.finished = true;
			this.returned = 0;
			return false;
		}
		if (this.returned < 2) {
			this.returned++;
		}
		return true;
	}

	/** The block the current record came from. */
	long blockOffset() {
		return this.block.blockOffset();
	}

	@Override
	public R record() {
		return this.record;
	}

	@Override
	public void close() {
		this.block.close();
		if (this.lookahead != null) {
			this.lookahead.close();
		}
		this.finished = true;
	}

}
