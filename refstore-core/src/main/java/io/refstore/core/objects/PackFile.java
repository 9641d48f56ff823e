package io.refstore.core.objects;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * One pack ({@code pack-*.pack} with its {@code .idx}): finds an object's entry, reports
 * its type by walking its delta chain without inflating anything, and rebuilds its
 * content by inflating the base and applying each {@code OFS_DELTA}/{@code REF_DELTA} in
 * turn. A {@code REF_DELTA} base may live anywhere in the database, so it is resolved
 * through the owning {@link PackedObjectDatabase}.
 *
 * <p>
 * The pack is memory-mapped (in segments of 1 GiB that overlap by more than the longest
 * entry header), so that reading a type, the hot path of listing a million refs with
 * their types, is a few reads of mapped memory with no system call and no allocation. Git
 * never rewrites a pack in place, so the mapping stays valid. Safe for use by several
 * threads: only absolute reads of the mappings and positional reads of the file channel
 * are used.
 */
final class PackFile implements Closeable {

	static final int OBJ_OFS_DELTA = 6;

	static final int OBJ_REF_DELTA = 7;

	/**
	 * Longer delta chains than this are treated as damage (git's own limit for repacking
	 * is 4095).
	 */
	private static final int MAX_CHAIN = 10_000;

	private final Path file;

	private final PackIndex index;

	private final HashAlgorithm algorithm;

	private final FileChannel channel;

	private final long dataEnd;

	private static final int SEGMENT_BITS = 30;

	/**
	 * More than the longest entry header: type and size (10 bytes), then an offset (10)
	 * or a base id (32).
	 */
	private static final int SEGMENT_OVERLAP = 64;

	/**
	 * Segment {@code i} maps
	 * {@code [i << SEGMENT_BITS, ((i + 1) << SEGMENT_BITS) + SEGMENT_OVERLAP)}.
	 */
	private final MappedByteBuffer[] segments;

	/**
	 * One inflater per thread, reset between objects: creating one allocates zlib's state
	 * outside the heap, which cost more than inflating a small commit.
	 */
	private static final ThreadLocal<Inflater> INFLATERS = ThreadLocal.withInitial(Inflater::new);

	/**
	 * One parsed entry header.
	 *
	 * @param type 1-4 for whole objects, {@link #OBJ_OFS_DELTA} or {@link #OBJ_REF_DELTA}
	 * @param size the inflated size of the entry's data (for deltas: of the delta itself)
	 * @param dataAt where the compressed data starts
	 * @param baseOffset the base entry's offset for an {@code OFS_DELTA}, else -1
	 * @param baseId the base object's id for a {@code REF_DELTA}, else {@code null}
	 */
	private record Entry(int type, long size, long dataAt, long baseOffset, ObjectId baseId) {
	}

	PackFile(Path file, PackIndex index, HashAlgorithm algorithm) throws IOException {
		this.file = file;
		this.index = index;
		this.algorithm = algorithm;
		this.channel = FileChannel.open(file, StandardOpenOption.READ);
		try {
			this.dataEnd = checkHeaderAndTrailer();
			this.segments = map(this.channel, this.dataEnd);
		}
		catch (IOException ex) {
			this.channel.close();
			throw ex;
		}
	}

	private long checkHeaderAndTrailer() throws IOException {
		long size = this.channel.size();
		int hashLength = this.algorithm.rawLength();
		if (size < 12 + hashLength) {
			throw corrupt(0, "too short for a pack (" + size + " bytes)");
		}
		ByteBuffer header = read(0, 12);
		int version = header.getInt(4);
		if (header.getInt(0) != 0x5041434b || (version != 2 && version != 3)) {
			throw corrupt(0, "not a version 2 or 3 pack");
		}
		if (Integer.toUnsignedLong(header.getInt(8)) != this.index.count()) {
			throw corrupt(8, "pack holds " + Integer.toUnsignedLong(header.getInt(8)) + " objects but its index "
					+ this.index.count());
		}
		byte[] trailer = new byte[hashLength];
		read(size - hashLength, hashLength).get(trailer);
		if (!Arrays.equals(trailer, this.index.packChecksum())) {
			throw corrupt(size - hashLength, "checksum does not match its index (index of another pack?)");
		}
		return size - hashLength;
	}

	private static MappedByteBuffer[] map(FileChannel channel, long size) throws IOException {
		int count = (int) ((size + (1L << SEGMENT_BITS) - 1) >>> SEGMENT_BITS);
		MappedByteBuffer[] segments = new MappedByteBuffer[count];
		for (int i = 0; i < count; i++) {
			long start = (long) i << SEGMENT_BITS;
			long length = Math.min(size - start, (1L << SEGMENT_BITS) + SEGMENT_OVERLAP);
			segments[i] = channel.map(FileChannel.MapMode.READ_ONLY, start, length);
		}
		return segments;
	}

	/** The entry offset of an object, or -1 if this pack does not hold it. */
	long find(ObjectId id) throws IOException {
		return this.index.find(id);
	}

	/** {@link #find(ObjectId)} for the raw id at {@code raw[at]}. */
	long find(byte[] raw, int at) throws IOException {
		return this.index.find(raw, at);
	}

	/**
	 * The type (1 commit, 2 tree, 3 blob, 4 tag) of the object whose entry starts at
	 * {@code offset}.
	 */
	int type(long offset, PackedObjectDatabase db) throws IOException {
		long at = offset;
		for (int chain = 0; chain < MAX_CHAIN; chain++) {
			int type = headerType(at);
			if (type < OBJ_OFS_DELTA) {
				return type;
			}
			Entry entry = entry(at);
			if (entry.type == OBJ_REF_DELTA) {
				return db.baseType(entry.baseId, this.file, at);
			}
			at = entry.baseOffset;
		}
		throw corrupt(offset, "delta chain longer than " + MAX_CHAIN);
	}

	/**
	 * The type field of the entry header at {@code offset}, read straight from the
	 * mapping.
	 */
	private int headerType(long offset) throws CorruptObjectException {
		if (offset < 12 || offset >= this.dataEnd) {
			throw corrupt(offset, "entry offset outside the pack's data");
		}
		int type = (this.segments[(int) (offset >>> SEGMENT_BITS)].get(local(offset)) >>> 4) & 7;
		if (type == 0 || type == 5) {
			throw corrupt(offset, "entry has invalid type " + type);
		}
		return type;
	}

	private static int local(long offset) {
		return (int) (offset & ((1L << SEGMENT_BITS) - 1));
	}

	/** The type and content of the object whose entry starts at {@code offset}. */
	RawObject load(long offset, PackedObjectDatabase db) throws IOException {
		Deque<Entry> deltas = new ArrayDeque<>();
		Entry entry = entry(offset);
		RawObject base = null;
		while (base == null) {
			if (deltas.size() >= MAX_CHAIN) {
				throw corrupt(offset, "delta chain longer than " + MAX_CHAIN);
			}
			if (entry.type < OBJ_OFS_DELTA) {
				base = new RawObject(entry.type, inflate(entry));
			}
			else if (entry.type == OBJ_REF_DELTA) {
				deltas.push(entry);
				base = db.baseObject(entry.baseId, this.file, entry.dataAt);
			}
			else {
				deltas.push(entry);
				entry = entry(entry.baseOffset);
			}
		}
		byte[] content = base.content();
		while (!deltas.isEmpty()) {
			Entry delta = deltas.pop();
			content = Deltas.apply(content, inflate(delta), this.file, delta.dataAt);
		}
		return new RawObject(base.type(), content);
	}

	private Entry entry(long offset) throws IOException {
		if (offset < 12 || offset >= this.dataEnd) {
			throw corrupt(offset, "entry offset outside the pack's data");
		}
		int headerMax = (int) Math.min(20 + this.algorithm.rawLength(), this.dataEnd - offset);
		ByteBuffer buf = this.segments[(int) (offset >>> SEGMENT_BITS)].slice(local(offset), headerMax);
		int c = buf.get() & 0xff;
		int type = (c >>> 4) & 7;
		long size = c & 0x0f;
		for (int shift = 4; (c & 0x80) != 0; shift += 7) {
			if (shift > 60 || !buf.hasRemaining()) {
				throw corrupt(offset, "entry header size does not end");
			}
			c = buf.get() & 0xff;
			size |= (long) (c & 0x7f) << shift;
		}
		if (type == 0 || type == 5) {
			throw corrupt(offset, "entry has invalid type " + type);
		}
		if (type == OBJ_OFS_DELTA) {
			long distance = ofsDistance(buf, offset);
			if (distance <= 0 || distance > offset - 12) {
				throw corrupt(offset, "OFS_DELTA base distance " + distance + " points outside the pack");
			}
			return new Entry(type, size, offset + buf.position(), offset - distance, null);
		}
		if (type == OBJ_REF_DELTA) {
			if (buf.remaining() < this.algorithm.rawLength()) {
				throw corrupt(offset, "REF_DELTA base id is cut off");
			}
			byte[] raw = new byte[this.algorithm.rawLength()];
			buf.get(raw);
			return new Entry(type, size, offset + buf.position(), -1, ObjectId.fromRaw(this.algorithm, raw, 0));
		}
		return new Entry(type, size, offset + buf.position(), -1, null);
	}

	/**
	 * Git's offset encoding: big-endian 7-bit groups, each continuation adding one before
	 * shifting.
	 */
	private long ofsDistance(ByteBuffer buf, long offset) throws CorruptObjectException {
		int c = buf.get() & 0xff;
		long distance = c & 0x7f;
		while ((c & 0x80) != 0) {
			if (!buf.hasRemaining() || distance > (Long.MAX_VALUE >>> 8)) {
				throw corrupt(offset, "OFS_DELTA base distance does not end");
			}
			c = buf.get() & 0xff;
			distance = ((distance + 1) << 7) | (c & 0x7f);
		}
		return distance;
	}

	private byte[] inflate(Entry entry) throws IOException {
		if (entry.size > Integer.MAX_VALUE - 16) {
			throw corrupt(entry.dataAt, "object of " + entry.size + " bytes is too large to load");
		}
		byte[] out = new byte[(int) entry.size];
		Inflater inflater = INFLATERS.get();
		inflater.reset();
		try {
			int done = inflateMapped(inflater, entry.dataAt, out);
			if (done != out.length || !inflater.finished()) {
				String got = (done > out.length) ? "more than " + out.length
						: (done < out.length) ? "only " + done : "a cut-off stream of " + done;
				throw corrupt(entry.dataAt,
						"compressed data inflates to " + got + " bytes, the header says " + entry.size);
			}
			return out;
		}
		catch (DataFormatException ex) {
			throw corrupt(entry.dataAt, "compressed data is damaged: " + ex.getMessage());
		}
		finally {
			// let go of the mapped input: the inflater outlives this call
			inflater.reset();
		}
	}

	/**
	 * Inflates the stream at {@code at} into {@code out}, fed straight from the mapped
	 * segments (no copy, no system call), then checks that the stream ends there.
	 * @return as {@link Zlib#inflateFully}
	 */
	private int inflateMapped(Inflater inflater, long at, byte[] out) throws DataFormatException {
		long next = at;
		int done = 0;
		byte[] extra = null;
		while (!inflater.finished()) {
			if (inflater.needsInput()) {
				if (next >= this.dataEnd) {
					break;
				}
				ByteBuffer window = window(next);
				next += window.remaining();
				inflater.setInput(window);
			}
			if (inflater.needsDictionary()) {
				throw new DataFormatException("stream needs a preset dictionary");
			}
			if (done < out.length) {
				done += inflater.inflate(out, done, out.length - done);
			}
			else {
				extra = (extra != null) ? extra : new byte[1];
				if (inflater.inflate(extra) > 0) {
					return done + 1;
				}
			}
		}
		return done;
	}

	/**
	 * The mapped bytes from {@code offset} to the end of its segment or of the pack's
	 * data, whichever comes first.
	 */
	private ByteBuffer window(long offset) {
		MappedByteBuffer segment = this.segments[(int) (offset >>> SEGMENT_BITS)];
		int from = local(offset);
		int length = (int) Math.min(segment.limit() - from, this.dataEnd - offset);
		return segment.slice(from, length);
	}

	private ByteBuffer read(long position, int length) throws IOException {
		ByteBuffer buf = ByteBuffer.allocate(length);
		while (buf.hasRemaining()) {
			if (this.channel.read(buf, position + buf.position()) < 0) {
				throw corrupt(position, "unexpected end of file");
			}
		}
		return buf.flip();
	}

	private CorruptObjectException corrupt(long offset, String message) {
		return new CorruptObjectException(this.file, "offset " + offset + ": " + message);
	}

	Path file() {
		return this.file;
	}

	@Override
	public void close() throws IOException {
		this.channel.close();
	}

	@Override
	public String toString() {
		return "PackFile[" + this.file + "]";
	}

}
