package io.refstore.core.reftable.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Reads one reftable: exact ref lookups, seeks and prefix scans through the ref index,
 * full iteration, reflog iteration (newest first per ref) and lookups of the refs
 * pointing at an object id.
 *
 * <p>
 * Opening checks the header and footer (magic, version 1 or 2, known hash id, footer
 * equal to the header, CRC-32, section offsets inside the file); blocks are checked as
 * they are read. Damage is reported as a {@link CorruptRefStoreException} naming the file
 * and byte offset.
 *
 * <p>
 * A reader is immutable and thread-safe; each cursor it hands out is for one thread.
 * Closing the reader closes its {@link BlockSource}.
 */
public final class ReftableReader implements Closeable {

	private final BlockSource source;

	private final int version;

	private final int headerSize;

	private final int blockSize;

	private final long minUpdateIndex;

	private final long maxUpdateIndex;

	private final HashAlgorithm hash;

	private final long dataEnd;

	private final boolean refsPresent;

	private final boolean logsPresent;

	private final long refIndexPosition;

	private final long objPosition;

	private final int objIdLength;

	private final long objIndexPosition;

	private final long logPosition;

	private final long logIndexPosition;

	/**
	 * The index blocks read so far, as heap copies by offset: every seek starts at the
	 * same few, and a file's bytes would otherwise be copied out of its mapping again for
	 * each (a restore seeks several times per ref). A table never changes, and its index
	 * is a small part of it.
	 */
	private final Map<Long, ByteBuffer> indexBlocks = new ConcurrentHashMap<>();

	private ReftableReader(BlockSource source, byte[] header, byte[] footer, int version, long dataEnd, byte firstType)
			throws CorruptRefStoreException {
		this.source = source;
		this.version = version;
		this.headerSize = ReftableConstants.headerSize(version);
		this.blockSize = ReftableConstants.getU24(header, 5);
		this.minUpdateIndex = ReftableConstants.getU64(header, 8);
		this.maxUpdateIndex = ReftableConstants.getU64(header, 16);
		this.hash = (version == 1) ? HashAlgorithm.SHA1
				: HashAlgorithm.fromFormatId(ReftableConstants.getI32(header, 24));
		if (this.hash == null) {
			throw corrupt(24, String.format("unknown hash id 0x%08x", ReftableConstants.getI32(header, 24)));
		}
		this.dataEnd = dataEnd;
		int f = this.headerSize;
		this.refIndexPosition = offsetField(footer, f, dataEnd, "ref index position");
		long obj = ReftableConstants.getU64(footer, f + 8);
		this.objPosition = checkOffset(obj >>> 5, dataEnd, f + 8, "obj position");
		this.objIdLength = (int) (obj & 0x1f);
		this.objIndexPosition = offsetField(footer, f + 16, dataEnd, "obj index position");
		this.logPosition = offsetField(footer, f + 24, dataEnd, "log position");
		this.logIndexPosition = offsetField(footer, f + 32, dataEnd, "log index position");
		if (this.objPosition > 0 && (this.objIdLength == 0 || this.objIdLength > this.hash.rawLength())) {
			throw corrupt(dataEnd + f + 8, "obj section with object id prefix length " + this.objIdLength);
		}
		this.refsPresent = firstType == ReftableConstants.BLOCK_TYPE_REF;
		this.logsPresent = firstType == ReftableConstants.BLOCK_TYPE_LOG || this.logPosition > 0;
	}

	private long offsetField(byte[] footer, int at, long dataEnd, String what) throws CorruptRefStoreException {
		return checkOffset(ReftableConstants.getU64(footer, at), dataEnd, at, what);
	}

	private long checkOffset(long value, long dataEnd, int at, String what) throws CorruptRefStoreException {
		if (value < 0 || value >= Math.max(dataEnd, 1)) {
			throw corrupt(dataEnd + at, what + " 0x" + Long.toHexString(value)
					+ " is outside the blocks (which end at 0x" + Long.toHexString(dataEnd) + ")");
		}
		return value;
	}

	/**
	 * Opens a table.
	 * @param source the table's bytes; closed by {@link #close()}, and also when opening
	 * fails
	 * @return the reader
	 * @throws CorruptRefStoreException if the header or footer is damaged
	 * @throws IOException if the source cannot be read
	 */
	public static ReftableReader open(BlockSource source) throws IOException {
		try {
			return doOpen(source);
		}
		catch (IOException | RuntimeException ex) {
			source.close();
			throw ex;
		}
	}

	private static ReftableReader doOpen(BlockSource source) throws IOException {
		long size = source.size();
		byte[] start = bytes(source.read(0, 29));
		if (start.length < 5 || !Arrays.equals(start, 0, 4, ReftableConstants.MAGIC, 0, 4)) {
			throw new CorruptRefStoreException(source.name(), 0, "offset 0x0: not a reftable (no REFT magic)");
		}
		int version = start[4];
		if (version != 1 && version != 2) {
			throw new CorruptRefStoreException(source.name(), 4, "offset 0x4: unsupported reftable version " + version);
		}
		int headerSize = ReftableConstants.headerSize(version);
		int footerSize = ReftableConstants.footerSize(version);
		if (size < headerSize + footerSize) {
			throw new CorruptRefStoreException(source.name(), size,
					"offset 0x" + Long.toHexString(size) + ": truncated table of " + size
							+ " bytes (header and footer alone need " + (headerSize + footerSize) + ")");
		}
		long dataEnd = size - footerSize;
		byte[] footer = bytes(source.read(dataEnd, footerSize));
		checkFooter(source.name(), start, footer, headerSize, dataEnd);
		byte firstType = (dataEnd > headerSize) ? start[headerSize] : 0;
		if (dataEnd > headerSize && firstType != ReftableConstants.BLOCK_TYPE_REF
				&& firstType != ReftableConstants.BLOCK_TYPE_LOG) {
			throw new CorruptRefStoreException(source.name(), headerSize, "offset 0x" + Integer.toHexString(headerSize)
					+ ": the first block must be a ref or log block, found " + ReftableConstants.typeName(firstType));
		}
		return new ReftableReader(source, Arrays.copyOf(start, headerSize), footer, version, dataEnd, firstType);
	}

	private static void checkFooter(Path name, byte[] header, byte[] footer, int headerSize, long dataEnd)
			throws CorruptRefStoreException {
		if (!Arrays.equals(footer, 0, 4, ReftableConstants.MAGIC, 0, 4)) {
			throw new CorruptRefStoreException(name, dataEnd, "offset 0x" + Long.toHexString(dataEnd)
					+ ": footer has no REFT magic (truncated or damaged table)");
		}
		CRC32 crc = new CRC32();
		crc.update(footer, 0, footer.length - 4);
		int stored = ReftableConstants.getI32(footer, footer.length - 4);
		if ((int) crc.getValue() != stored) {
			long at = dataEnd + footer.length - 4;
			throw new CorruptRefStoreException(name, at, String
				.format("offset 0x%x: footer CRC-32 is %08x, computed %08x", at, stored, (int) crc.getValue()));
		}
		int diff = Arrays.mismatch(footer, 0, headerSize, header, 0, headerSize);
		if (diff >= 0) {
			throw new CorruptRefStoreException(name, dataEnd + diff, "offset 0x" + Long.toHexString(dataEnd + diff)
					+ ": footer does not repeat the header (differs at byte " + diff + ")");
		}
	}

	private static byte[] bytes(ByteBuffer buffer) {
		byte[] out = new byte[buffer.remaining()];
		buffer.get(out);
		return out;
	}

	/** The hash of the ids in this table. */
	public HashAlgorithm hashAlgorithm() {
		return this.hash;
	}

	/** The format version: 1 (SHA-1) or 2. */
	public int version() {
		return this.version;
	}

	/** The block size from the header (0 for an unaligned table). */
	public int blockSize() {
		return this.blockSize;
	}

	/** The smallest update index of the table's ref records. */
	public long minUpdateIndex() {
		return this.minUpdateIndex;
	}

	/** The largest update index of the table's records. */
	public long maxUpdateIndex() {
		return this.maxUpdateIndex;
	}

	/** The table's size in bytes. */
	public long size() {
		return this.source.size();
	}

	/** The name of the source, for messages. */
	public Path name() {
		return this.source.name();
	}

	/** Whether the table has an object index (obj blocks). */
	public boolean hasObjectIndex() {
		return this.objPosition > 0;
	}

	/**
	 * Looks up one ref record. Tombstones are returned too: at the level of one table a
	 * deletion is a record.
	 * @param name the full ref name
	 * @return a new record, or {@code null} if the table has no record for {@code name}
	 */
	public RefRecord exactRef(String name) throws IOException {
		byte[] key = name.getBytes(StandardCharsets.UTF_8);
		try (TableCursor<RefRecord> cursor = refCursor().seek(key, key.length)) {
			return (cursor.next() && cursor.record().compareKey(key, key.length) == 0) ? cursor.record().copy() : null;
		}
	}

	/** All ref records (tombstones included) in name order. */
	public RecordCursor<RefRecord> allRefs() throws IOException {
		return refCursor().seekToStart();
	}

	/** Ref records from the first whose name is {@code >= name}, to the end. */
	public RecordCursor<RefRecord> seekRef(String name) throws IOException {
		byte[] key = name.getBytes(StandardCharsets.UTF_8);
		return refCursor().seek(key, key.length);
	}

	/** Ref records whose names start with {@code prefix}, in name order. */
	public RecordCursor<RefRecord> refsWithPrefix(String prefix) throws IOException {
		byte[] key = prefix.getBytes(StandardCharsets.UTF_8);
		return refCursor().bound(key, key.length).seek(key, key.length);
	}

	/** All log records: by ref name, each ref's newest first. */
	public RecordCursor<LogRecord> allLogs() throws IOException {
		return logCursor().seekToStart();
	}

	/** The log records of one ref, newest first. */
	public RecordCursor<LogRecord> logsFor(String refName) throws IOException {
		return seekLog(refName, -1L, true);
	}

	/**
	 * Log records from the entry of {@code refName} at {@code updateIndex} (or the next
	 * older one) to the end.
	 * @param updateIndex an unsigned update index; -1 (2<sup>64</sup>-1) means the newest
	 */
	public RecordCursor<LogRecord> seekLog(String refName, long updateIndex) throws IOException {
		return seekLog(refName, updateIndex, false);
	}

	private TableCursor<LogRecord> seekLog(String refName, long updateIndex, boolean onlyThisRef) throws IOException {
		LogRecord want = LogRecord.deletion(refName, updateIndex);
		TableCursor<LogRecord> cursor = logCursor();
		if (onlyThisRef) {
			cursor.bound(Arrays.copyOf(want.key, want.keyLength - 8), want.keyLength - 8);
		}
		return cursor.seek(want.key, want.keyLength);
	}

	/**
	 * The ref records whose value or peeled value is {@code id}, in name order: through
	 * the object index when the table has one, else by scanning every ref.
	 */
	public RecordCursor<RefRecord> refsFor(ObjectId id) throws IOException {
		if (id.algorithm() != this.hash) {
			throw new IllegalArgumentException(
					"a " + id.algorithm().configName() + " id cannot be in a " + this.hash.configName() + " table");
		}
		return RefsForCursor.open(this, id.toRaw());
	}

	TableCursor<RefRecord> refCursor() {
		return new TableCursor<>(this, ReftableConstants.BLOCK_TYPE_REF, new RefRecord());
	}

	TableCursor<LogRecord> logCursor() {
		return new TableCursor<>(this, ReftableConstants.BLOCK_TYPE_LOG, new LogRecord());
	}

	TableCursor<ObjRecord> objCursor() {
		return new TableCursor<>(this, ReftableConstants.BLOCK_TYPE_OBJ, new ObjRecord());
	}

	/**
	 * File offset of the first block of a section, or -1 if the table has no such
	 * section.
	 */
	long sectionStart(byte type) {
		return switch (type) {
			case ReftableConstants.BLOCK_TYPE_REF -> this.refsPresent ? 0 : -1;
			case ReftableConstants.BLOCK_TYPE_LOG -> this.logsPresent ? this.logPosition : -1;
			default -> (this.objPosition > 0) ? this.objPosition : -1;
		};
	}

	/** File offset of the top level of a section's index, or 0 if it has none. */
	long indexStart(byte type) {
		return switch (type) {
			case ReftableConstants.BLOCK_TYPE_REF -> this.refIndexPosition;
			case ReftableConstants.BLOCK_TYPE_LOG -> this.logIndexPosition;
			default -> this.objIndexPosition;
		};
	}

	int objIdLength() {
		return this.objIdLength;
	}

	BlockSource source() {
		return this.source;
	}

	/**
	 * The bytes read for the index block at {@code offset} when it was first loaded
	 * ({@link #keepIndexBlock}), from position 0, or {@code null}.
	 */
	ByteBuffer indexBlock(long offset) {
		ByteBuffer kept = this.indexBlocks.get(offset);
		return (kept != null) ? kept.duplicate() : null;
	}

	/**
	 * Keeps what was read for the index block at {@code offset}, from its position: a
	 * copy if the source handed out a view of its mapping, nothing if it handed out an
	 * array (there is nothing to save).
	 */
	void keepIndexBlock(long offset, ByteBuffer data) {
		if (!data.hasArray()) {
			byte[] copy = new byte[data.remaining()];
			data.get(data.position(), copy, 0, copy.length);
			this.indexBlocks.putIfAbsent(offset, ByteBuffer.wrap(copy));
		}
	}

	int headerSize() {
		return this.headerSize;
	}

	/** Where the footer starts: the end of the blocks. */
	long dataEnd() {
		return this.dataEnd;
	}

	/** The one factory for corruption found in this table. */
	CorruptRefStoreException corrupt(long offset, String what) {
		return new CorruptRefStoreException(this.source.name(), offset,
				"offset 0x" + Long.toHexString(offset) + ": " + what);
	}

	@Override
	public void close() throws IOException {
		this.source.close();
	}

	@Override
	public String toString() {
		return "ReftableReader[" + name() + ", update indices " + this.minUpdateIndex + ".." + this.maxUpdateIndex
				+ "]";
	}

}
