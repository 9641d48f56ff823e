package io.refstore.core.reftable.format;

import java.io.IOException;

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
		long start = this.table.sectionStart(this.type);
		this.finished = start < 0 || !this.block.load(start, this.type, true);
		return this;
	}

	/** Positions before the first record whose key is {@code >= key[0, length)}. */
	TableCursor<R> seek(byte[] key, int length) throws IOException {
		this.started = true;
		long start = this.table.sectionStart(this.type);
		if (start < 0) {
			this.finished = true;
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
		if (!advance(this.record, this.type)
				|| (this.bound != null && !this.record.keyStartsWith(this.bound, this.boundLength))) {
			this.finished = true;
			return false;
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
