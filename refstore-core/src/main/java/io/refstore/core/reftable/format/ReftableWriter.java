package io.refstore.core.reftable.format;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32;

import io.refstore.core.ref.EntryTooLargeException;

/**
 * Writes one reftable to a stream, laid out byte for byte as git's writer lays it out:
 * same restart points, block fill rule, lazy padding (never before the log section or the
 * footer), index levels (only for a section of more than 3 blocks), object index (only
 * when the refs got an index) and log compression.
 *
 * <p>
 * Use: {@link #setLimits}, then {@link #addRef} for every ref in strictly increasing name
 * order, then {@link #addLog} for every log record in strictly increasing key order (ref
 * name, then newest update index first), then {@link #finish()}. A table without records
 * is a valid 92-byte (SHA-256: 100-byte) table.
 *
 * <p>
 * Misuse (order, update index outside the limits, a record larger than a block) throws
 * {@link IllegalArgumentException} or {@link IllegalStateException} before anything of
 * that record is written. Not thread-safe. The stream is not closed.
 *
 * <pre>{@code
 * ReftableWriter writer = new ReftableWriter(out, WriteOptions.defaults()).setLimits(1, 1);
 * writer.addRef(RefRecord.symbolic("HEAD", 1, "refs/heads/main"));
 * writer.finish();
 * }</pre>
 */
public final class ReftableWriter {

	/**
	 * A block's own bytes beside its records: type and length (4), one restart offset (3)
	 * and the restart count (2).
	 */
	private static final int MIN_BLOCK_OVERHEAD = 9;

	private final OutputStream out;

	private final WriteOptions options;

	private final int headerSize;

	private final int hashSize;

	private final BlockWriter blocks;

	private final SectionStats refs = new SectionStats();

	private final SectionStats objs = new SectionStats();

	private final SectionStats logs = new SectionStats();

	private final List<IndexRecord> index = new ArrayList<>();

	private final IndexRecord indexScratch = new IndexRecord();

	private final LogRecord logScratch = new LogRecord();

	private ObjIndexBuilder objIndex;

	private long minUpdateIndex;

	private long maxUpdateIndex;

	private boolean blockOpen;

	private long next;

	private int pendingPadding;

	private long written;

	private int objIdLength;

	private byte[] lastKey = new byte[64];

	private int lastKeyLength;

	private boolean anyRecord;

	private boolean inLogs;

	private boolean finished;

	/**
	 * @param out where the table goes; buffered by the caller if it is a file
	 * @param options layout options (see {@link WriteOptions#defaults()})
	 */
	public ReftableWriter(OutputStream out, WriteOptions options) {
		this.out = Objects.requireNonNull(out, "out");
		this.options = Objects.requireNonNull(options, "options");
		this.headerSize = ReftableConstants.headerSize(options.version());
		this.hashSize = options.hash().rawLength();
		this.blocks = new BlockWriter(options.blockSize(), options.restartInterval(), this.hashSize);
		this.objIndex = options.indexObjects() ? new ObjIndexBuilder(this.hashSize) : null;
	}

	/**
	 * Sets the update indices the header declares: every ref record's index must lie in
	 * {@code [min, max]}, and every log record's index must not exceed {@code max}. Both
	 * default to 0.
	 * @return this writer
	 * @throws IllegalStateException if a record was already added
	 * @throws IllegalArgumentException if {@code min > max} (unsigned)
	 */
	public ReftableWriter setLimits(long min, long max) {
		if (this.anyRecord || this.finished) {
			throw new IllegalStateException("update index limits must be set before the first record");
		}
		if (Long.compareUnsigned(min, max) > 0) {
			throw new IllegalArgumentException("min update index " + Long.toUnsignedString(min)
					+ " is greater than max update index " + Long.toUnsignedString(max));
		}
		this.minUpdateIndex = min;
		this.maxUpdateIndex = max;
		return this;
	}

	/**
	 * Adds a ref record. Names must be strictly increasing (bytewise) and all refs come
	 * before all logs.
	 * @throws IllegalArgumentException if the name is not greater than the previous one,
	 * the update index is outside the limits, the ids have the wrong hash, or the record
	 * does not fit in one block
	 * @throws IllegalStateException if logs were already added or the table is finished
	 */
	public void addRef(RefRecord ref) throws IOException {
		if (this.inLogs || this.finished) {
			throw new IllegalStateException(
					"ref " + ref.name() + " added after " + (this.finished ? "finish" : "log records"));
		}
		if (Long.compareUnsigned(ref.updateIndex(), this.minUpdateIndex) < 0
				|| Long.compareUnsigned(ref.updateIndex(), this.maxUpdateIndex) > 0) {
			throw new IllegalArgumentException("ref " + ref.name() + " has update index "
					+ Long.toUnsignedString(ref.updateIndex()) + ", outside the table's limits "
					+ Long.toUnsignedString(this.minUpdateIndex) + ".." + Long.toUnsignedString(this.maxUpdateIndex));
		}
		if (ref.hasId() && ref.hashSize() != this.hashSize) {
			throw new IllegalArgumentException("ref " + ref.name() + " holds a " + ref.hashSize() + "-byte id in a "
					+ this.options.hash().configName() + " table");
		}
		checkOrder(ref, "ref");
		add(ref, ReftableConstants.BLOCK_TYPE_REF, "ref " + ref.name());
		if (this.objIndex != null && ref.hasId()) {
			// the block that now holds the ref starts at next: it is written only when
			// full
			this.objIndex.add(ref.idBuffer(), this.next);
			if (ref.valueType() == RefRecord.VALUE_PEELED) {
				this.objIndex.add(ref.peeledBuffer(), this.next);
			}
		}
	}

	/**
	 * Adds a log record. Keys must be strictly increasing: ref names ascending, and per
	 * ref the update index descending. The first log record ends the ref section.
	 * @throws IllegalArgumentException if the key is not greater than the previous one,
	 * an update's index exceeds the maximum, the ids have the wrong hash, the message has
	 * several lines (unless written exactly), or the record does not fit in one block
	 * @throws IllegalStateException if the table is finished
	 */
	public void addLog(LogRecord log) throws IOException {
		if (this.finished) {
			throw new IllegalStateException("log of " + log.refName() + " added after finish");
		}
		LogRecord rec = log;
		if (!log.isDeletion()) {
			if (Long.compareUnsigned(log.updateIndex(), this.maxUpdateIndex) > 0) {
				throw new IllegalArgumentException(
						"log of " + log.refName() + " has update index " + Long.toUnsignedString(log.updateIndex())
								+ ", above the table's maximum " + Long.toUnsignedString(this.maxUpdateIndex));
			}
			if (log.hashSize() != this.hashSize) {
				throw new IllegalArgumentException("log of " + log.refName() + " holds " + log.hashSize()
						+ "-byte ids in a " + this.options.hash().configName() + " table");
			}
			if (!this.options.exactLogMessage()) {
				this.logScratch.copyFrom(log);
				this.logScratch.cleanMessage();
				rec = this.logScratch;
			}
		}
		if (!this.inLogs) {
			finishPublicSection();
			// the last block before the log section is never padded
			this.next -= this.pendingPadding;
			this.pendingPadding = 0;
			this.lastKeyLength = 0;
			this.inLogs = true;
		}
		checkOrder(rec, "log");
		add(rec, ReftableConstants.BLOCK_TYPE_LOG,
				"log of " + log.refName() + " at update index " + Long.toUnsignedString(log.updateIndex()));
	}

	private void checkOrder(BlockRecord rec, String what) {
		if (this.lastKeyLength > 0
				&& Arrays.compareUnsigned(this.lastKey, 0, this.lastKeyLength, rec.key, 0, rec.keyLength) >= 0) {
			throw new IllegalArgumentException(what + " records must be added in strictly increasing order: "
					+ describe(rec, this.lastKey, this.lastKeyLength) + " may not follow itself or a greater key, got "
					+ describe(rec, rec.key, rec.keyLength) + " after it");
		}
	}

	private static String describe(BlockRecord rec, byte[] key, int length) {
		if (rec instanceof LogRecord) {
			int nameLength = Math.max(0, length - ReftableConstants.LOG_KEY_SUFFIX);
			long updateIndex = (length >= ReftableConstants.LOG_KEY_SUFFIX) ? ~ReftableConstants.getU64(key, length - 8)
					: 0;
			return "'" + new String(key, 0, nameLength, java.nio.charset.StandardCharsets.UTF_8) + "' at update index "
					+ Long.toUnsignedString(updateIndex);
		}
		return "'" + new String(key, 0, length, java.nio.charset.StandardCharsets.UTF_8) + "'";
	}

	/** Adds a record to the current block, starting a new block when it is full. */
	private void add(BlockRecord rec, byte type, String what) throws IOException {
		if (!this.blockOpen) {
			startBlock(type);
		}
		if (!this.blocks.add(rec)) {
			boolean empty = this.blocks.entries() == 0;
			if (!empty) {
				flushBlock();
				startBlock(type);
			}
			if (empty || !this.blocks.add(rec)) {
				throw new EntryTooLargeException(what + " does not fit in a block of " + this.options.blockSize()
						+ " bytes (key of " + rec.keyLength + " bytes)");
			}
		}
		this.anyRecord = true;
		if (this.lastKey.length < rec.keyLength) {
			this.lastKey = new byte[Math.max(rec.keyLength, 2 * this.lastKey.length)];
		}
		System.arraycopy(rec.key, 0, this.lastKey, 0, rec.keyLength);
		this.lastKeyLength = rec.keyLength;
	}

	private void startBlock(byte type) {
		int header = (this.next == 0) ? this.headerSize : 0;
		if (this.options.blockSize() < header + MIN_BLOCK_OVERHEAD) {
			// smaller than a block's own header: no record fits (git's writer crashes)
			throw new EntryTooLargeException("no record fits in a block of " + this.options.blockSize() + " bytes");
		}
		this.blocks.reset(type, (this.next == 0) ? this.headerSize : 0, this.minUpdateIndex);
		this.blockOpen = true;
	}

	/**
	 * Writes the open block (if it has records), queues its padding and remembers it for
	 * the index.
	 */
	private void flushBlock() throws IOException {
		if (!this.blockOpen || this.blocks.entries() == 0) {
			return;
		}
		byte type = this.blocks.type();
		int length = this.blocks.finish();
		byte[] bytes = this.blocks.output();
		int padding = (type == ReftableConstants.BLOCK_TYPE_LOG) ? 0 : this.options.blockSize() - length;
		SectionStats stats = stats(type);
		if (stats != null && stats.blocks++ == 0 && this.next > 0) {
			stats.offset = this.next;
		}
		if (this.next == 0) {
			writeHeader(bytes);
		}
		writePadding();
		write(bytes, 0, length);
		this.pendingPadding = padding;
		IndexRecord entry = new IndexRecord();
		entry.setKey(this.blocks.lastKey(), 0, this.blocks.lastKeyLength());
		entry.offset = this.next;
		this.index.add(entry);
		this.next += padding + length;
		this.blockOpen = false;
	}

	private SectionStats stats(byte type) {
		return switch (type) {
			case ReftableConstants.BLOCK_TYPE_REF -> this.refs;
			case ReftableConstants.BLOCK_TYPE_OBJ -> this.objs;
			case ReftableConstants.BLOCK_TYPE_LOG -> this.logs;
			default -> null;
		};
	}

	/**
	 * Ends the open ref or log section: flushes its last block, writes its index levels
	 * if it has more than three blocks, and after refs the object index.
	 */
	private void finishPublicSection() throws IOException {
		if (!this.blockOpen) {
			return;
		}
		byte type = this.blocks.type();
		finishSection(stats(type));
		if (type == ReftableConstants.BLOCK_TYPE_REF && this.objIndex != null && this.refs.indexBlocks > 0) {
			writeObjIndex();
		}
		this.objIndex = null;
		this.blockOpen = false;
	}

	/**
	 * Flushes the section's last block, then writes index levels bottom-up until a level
	 * has at most three blocks; the footer points at the start of that top level.
	 */
	private void finishSection(SectionStats stats) throws IOException {
		flushBlock();
		long indexStart = 0;
		int indexBlocks = 0;
		while (this.index.size() > ReftableConstants.INDEX_THRESHOLD) {
			indexStart = this.next;
			List<IndexRecord> level = new ArrayList<>(this.index);
			this.index.clear();
			startBlock(ReftableConstants.BLOCK_TYPE_INDEX);
			for (IndexRecord entry : level) {
				if (!this.blocks.add(entry)) {
					flushBlock();
					indexBlocks++;
					startBlock(ReftableConstants.BLOCK_TYPE_INDEX);
					if (!this.blocks.add(entry)) {
						throw new IllegalArgumentException("a key of " + entry.keyLength
								+ " bytes is too long for an index block of " + this.options.blockSize() + " bytes");
					}
				}
			}
			flushBlock();
			indexBlocks++;
		}
		this.index.clear();
		stats.indexOffset = indexStart;
		stats.indexBlocks = indexBlocks;
		this.lastKeyLength = 0;
	}

	/**
	 * Writes one obj record per distinct id, keyed by the shortest prefix that tells all
	 * ids apart.
	 */
	private void writeObjIndex() throws IOException {
		ObjIndexBuilder ids = this.objIndex;
		int[] order = ids.sortedOrder();
		int common = 1;
		for (int i = 1; i < order.length; i++) {
			common = Math.max(common, ids.commonPrefix(order[i - 1], order[i]));
		}
		this.objIdLength = Math.min(common + 1, ReftableConstants.MAX_OBJ_ID_LEN);
		startBlock(ReftableConstants.BLOCK_TYPE_OBJ);
		ObjRecord rec = new ObjRecord();
		for (int n : order) {
			ids.fill(n, this.objIdLength, rec);
			if (!this.blocks.add(rec)) {
				flushBlock();
				startBlock(ReftableConstants.BLOCK_TYPE_OBJ);
				if (!this.blocks.add(rec)) {
					// too many blocks to list: readers then scan all refs for this id
					rec.count = 0;
					this.blocks.add(rec);
				}
			}
		}
		finishSection(this.objs);
	}

	/**
	 * Ends the table: the open section is finished (padding of its last block dropped)
	 * and the footer is written. The stream is flushed, not closed.
	 * @return the table's size in bytes
	 * @throws IllegalStateException if already finished
	 */
	public long finish() throws IOException {
		if (this.finished) {
			throw new IllegalStateException("table already finished");
		}
		try {
			finishPublicSection();
			this.pendingPadding = 0;
			if (this.next == 0) {
				byte[] header = new byte[this.headerSize];
				writeHeader(header);
				write(header, 0, header.length);
			}
			byte[] footer = new byte[ReftableConstants.footerSize(this.options.version())];
			writeHeader(footer);
			int f = this.headerSize;
			ReftableConstants.putU64(footer, f, this.refs.indexOffset);
			ReftableConstants.putU64(footer, f + 8, (this.objs.offset << 5) | this.objIdLength);
			ReftableConstants.putU64(footer, f + 16, this.objs.indexOffset);
			ReftableConstants.putU64(footer, f + 24, this.logs.offset);
			ReftableConstants.putU64(footer, f + 32, this.logs.indexOffset);
			CRC32 crc = new CRC32();
			crc.update(footer, 0, f + 40);
			ReftableConstants.putI32(footer, f + 40, (int) crc.getValue());
			write(footer, 0, footer.length);
			this.out.flush();
			return this.written;
		}
		finally {
			this.finished = true;
			this.blocks.close();
		}
	}

	private void writeHeader(byte[] dst) {
		System.arraycopy(ReftableConstants.MAGIC, 0, dst, 0, 4);
		dst[4] = (byte) this.options.version();
		ReftableConstants.putU24(dst, 5, this.options.blockSize());
		ReftableConstants.putU64(dst, 8, this.minUpdateIndex);
		ReftableConstants.putU64(dst, 16, this.maxUpdateIndex);
		if (this.options.version() == 2) {
			ReftableConstants.putI32(dst, 24, this.options.hash().formatId());
		}
	}

	private void writePadding() throws IOException {
		for (int left = this.pendingPadding; left > 0;) {
			int n = Math.min(left, ZEROS.length);
			write(ZEROS, 0, n);
			left -= n;
		}
		this.pendingPadding = 0;
	}

	private static final byte[] ZEROS = new byte[4096];

	private void write(byte[] bytes, int off, int length) throws IOException {
		this.out.write(bytes, off, length);
		this.written += length;
	}

	/** Where a section starts and how its index came out. */
	private static final class SectionStats {

		long offset;

		int blocks;

		long indexOffset;

		int indexBlocks;

	}

}
