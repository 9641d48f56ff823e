package io.refstore.core.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * A pack index ({@code pack-*.idx}), memory-mapped. Version 2: a header, a 256-entry
 * fan-out table, the sorted object ids, their CRC32s, 31-bit offsets and, for packs over
 * 2 GiB, a table of 64-bit offsets. Version 1 (SHA-1 only, written by git before 1.5.2
 * and by {@code index-pack --index-version=1}): no header, the fan-out table, then one
 * 4-byte offset and id per object. Immutable after opening and safe for use by several
 * threads (only absolute reads of the mapped buffer are used).
 */
final class PackIndex {

	private static final int MAGIC = 0xff744f63;

	private static final int HEADER = 8;

	private static final int FANOUT = 256 * 4;

	private final Path file;

	private final HashAlgorithm algorithm;

	private final MappedByteBuffer buffer;

	private final int count;

	private final int version;

	private final int namesAt;

	/**
	 * Bytes from one id to the next: the hash length, plus the offset in front of each id
	 * in version 1.
	 */
	private final int nameStride;

	private final int offsetsAt;

	private final int largeOffsetsAt;

	private final int largeCount;

	private volatile int[] wideFanout;

	private int lookups;

	private PackIndex(Path file, HashAlgorithm algorithm, MappedByteBuffer buffer) throws CorruptObjectException {
		this.file = file;
		this.algorithm = algorithm;
		this.buffer = buffer;
		int hashLength = algorithm.rawLength();
		if (buffer.capacity() < FANOUT + 2 * hashLength) {
			throw corrupt(0, "too short for a pack index (" + buffer.capacity() + " bytes)");
		}
		boolean v2 = buffer.getInt(0) == MAGIC;
		if (v2 && buffer.getInt(4) != 2) {
			throw corrupt(4, "unsupported pack index version " + buffer.getInt(4));
		}
		if (!v2 && algorithm != HashAlgorithm.SHA1) {
			throw corrupt(0,
					"not a version 2 pack index (version 1 indexes cannot hold " + algorithm.configName() + " ids)");
		}
		this.version = v2 ? 2 : 1;
		int fanoutAt = v2 ? HEADER : 0;
		this.count = checkFanout(fanoutAt);
		if (v2) {
			this.namesAt = HEADER + FANOUT;
			this.nameStride = hashLength;
			long crcsAt = this.namesAt + (long) this.count * hashLength;
			this.offsetsAt = Math.toIntExact(crcsAt + 4L * this.count);
			this.largeOffsetsAt = Math.toIntExact(this.offsetsAt + 4L * this.count);
			long rest = buffer.capacity() - this.largeOffsetsAt - 2L * hashLength;
			if (rest < 0 || rest % 8 != 0) {
				throw corrupt(0, "size " + buffer.capacity() + " does not fit " + this.count + " objects");
			}
			this.largeCount = (int) (rest / 8);
		}
		else {
			this.offsetsAt = FANOUT;
			this.nameStride = 4 + hashLength;
			this.namesAt = FANOUT + 4;
			this.largeOffsetsAt = 0;
			this.largeCount = 0;
			if (buffer.capacity() != FANOUT + (long) this.count * this.nameStride + 2L * hashLength) {
				throw corrupt(0,
						"size " + buffer.capacity() + " does not fit " + this.count + " objects of a version 1 index");
			}
		}
	}

	/**
	 * Maps an index file.
	 * @throws CorruptObjectException if it is not a well-formed version 2 index for
	 * {@code algorithm}
	 * @throws IOException if it cannot be read
	 */
	static PackIndex open(Path file, HashAlgorithm algorithm) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			if (channel.size() > Integer.MAX_VALUE) {
				throw new CorruptObjectException(file, "pack index larger than 2 GiB is not supported");
			}
			return new PackIndex(file, algorithm, channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()));
		}
	}

	private int checkFanout(int fanoutAt) throws CorruptObjectException {
		long previous = 0;
		for (int i = 0; i < 256; i++) {
			long value = Integer.toUnsignedLong(this.buffer.getInt(fanoutAt + 4 * i));
			if (value < previous) {
				throw corrupt(fanoutAt + 4 * i, "fan-out table is not ascending at entry " + i);
			}
			previous = value;
		}
		if (previous > (this.buffer.capacity() - fanoutAt - FANOUT) / this.algorithm.rawLength()) {
			throw corrupt(fanoutAt + FANOUT - 4, "fan-out claims " + previous + " objects, more than the file holds");
		}
		return (int) previous;
	}

	/** The number of objects in the pack. */
	int count() {
		return this.count;
	}

	/** The index format version, 1 or 2. */
	int version() {
		return this.version;
	}

	/**
	 * Looks up an object.
	 * @return its offset in the pack file, or -1 if the pack does not contain it
	 * @throws CorruptObjectException if its 64-bit offset entry is missing
	 */
	long find(ObjectId id) throws CorruptObjectException {
		byte[] raw = new byte[this.algorithm.rawLength()];
		id.copyRawTo(raw, 0);
		return find(raw, 0);
	}

	/**
	 * Looks up the object whose raw id starts at {@code raw[at]} (ids held in a batch
	 * need no object each). Compares the id with the mapped names in place, so a lookup
	 * allocates nothing.
	 * @return its offset in the pack file, or -1 if the pack does not contain it
	 * @throws CorruptObjectException if its 64-bit offset entry is missing
	 */
	long find(byte[] raw, int at) throws CorruptObjectException {
		int low;
		int high;
		int[] wide = wideFanout();
		if (wide != null) {
			int prefix = ((raw[at] & 0xff) << 8) | (raw[at + 1] & 0xff);
			low = wide[prefix];
			high = wide[prefix + 1];
		}
		else {
			int first = raw[at] & 0xff;
			int fanoutAt = (this.version == 2) ? HEADER : 0;
			low = (first == 0) ? 0 : this.buffer.getInt(fanoutAt + 4 * (first - 1));
			high = this.buffer.getInt(fanoutAt + 4 * first);
		}
		int hashLength = this.algorithm.rawLength();
		long key = leadingBytes(raw, at);
		if (wide != null && high - low > PROBES) {
			// ids are spread evenly, so the next two bytes place this one within its
			// bucket: compare there and with a few neighbours (on the same cache lines),
			// where halving the bucket costs a cache miss a step; a bucket that is not
			// even is searched by halving what is left
			int next = ((raw[at + 2] & 0xff) << 8) | (raw[at + 3] & 0xff);
			int guess = low + (int) (((long) (high - low) * next) >>> 16);
			int cmp = compare(this.namesAt + guess * this.nameStride, raw, at, key, hashLength);
			if (cmp == 0) {
				return offset(guess);
			}
			if (cmp < 0) {
				low = guess + 1;
				for (int stop = Math.min(high, low + PROBES); low < stop; low++) {
					cmp = compare(this.namesAt + low * this.nameStride, raw, at, key, hashLength);
					if (cmp >= 0) {
						return (cmp == 0) ? offset(low) : -1;
					}
				}
			}
			else {
				high = guess;
				for (int stop = Math.max(low, high - PROBES); high > stop; high--) {
					cmp = compare(this.namesAt + (high - 1) * this.nameStride, raw, at, key, hashLength);
					if (cmp <= 0) {
						return (cmp == 0) ? offset(high - 1) : -1;
					}
				}
			}
		}
		while (low < high) {
			int mid = (low + high) >>> 1;
			int cmp = compare(this.namesAt + mid * this.nameStride, raw, at, key, hashLength);
			if (cmp == 0) {
				return offset(mid);
			}
			if (cmp < 0) {
				low = mid + 1;
			}
			else {
				high = mid;
			}
		}
		return -1;
	}

	/**
	 * The fan-out table on the first two bytes, made once a large index has served many
	 * lookups: it leaves a handful of names to search instead of thousands, which saves
	 * the search's deepest and most costly steps (cache misses in a large mapping). Made
	 * by one pass over the names, so not for a single lookup.
	 * @return {@code table[p]} is the position of the first name whose first two bytes
	 * are at least {@code p} (of 65537 entries), or {@code null} while the index is small
	 * or young
	 */
	private int[] wideFanout() {
		int[] wide = this.wideFanout;
		if (wide != null || this.count < WIDE_MIN_OBJECTS || ++this.lookups < WIDE_AFTER_LOOKUPS) {
			return wide;
		}
		return makeWideFanout();
	}

	/** Makes the wide fan-out table once, however many threads look up objects. */
	private synchronized int[] makeWideFanout() {
		int[] wide = this.wideFanout;
		if (wide != null) {
			return wide;
		}
		wide = new int[65537];
		int position = 0;
		for (int prefix = 0; prefix < 65536; prefix++) {
			wide[prefix] = position;
			while (position < this.count
					&& (this.buffer.getShort(this.namesAt + position * this.nameStride) & 0xffff) <= prefix) {
				position++;
			}
		}
		wide[65536] = this.count;
		this.wideFanout = wide;
		return wide;
	}

	/** Names compared next to the first guess in a bucket before halving the rest. */
	private static final int PROBES = 4;

	/**
	 * Indexes smaller than this are searched fast enough with the file's own fan-out
	 * table.
	 */
	private static final int WIDE_MIN_OBJECTS = 1 << 16;

	/**
	 * Lookups before the wide fan-out table is made (a count kept loosely: races only
	 * delay it).
	 */
	private static final int WIDE_AFTER_LOOKUPS = 1024;

	/**
	 * The first 8 bytes of an id, big-endian: compared as one unsigned number, they order
	 * ids as bytes do.
	 */
	private static long leadingBytes(byte[] raw, int at) {
		long key = 0;
		for (int i = 0; i < 8; i++) {
			key = (key << 8) | (raw[at + i] & 0xff);
		}
		return key;
	}

	/**
	 * Compares the mapped id at {@code at} with the raw id at {@code raw[rawAt]},
	 * bytewise unsigned: one read of the first 8 bytes (given as {@code key}) decides
	 * almost every comparison.
	 */
	private int compare(int at, byte[] raw, int rawAt, long key, int hashLength) {
		long leading = this.buffer.getLong(at);
		if (leading != key) {
			return Long.compareUnsigned(leading, key);
		}
		for (int i = 8; i < hashLength; i++) {
			int diff = (this.buffer.get(at + i) & 0xff) - (raw[rawAt + i] & 0xff);
			if (diff != 0) {
				return diff;
			}
		}
		return 0;
	}

	private long offset(int position) throws CorruptObjectException {
		if (this.version == 1) {
			return Integer.toUnsignedLong(this.buffer.getInt(this.offsetsAt + position * this.nameStride));
		}
		int small = this.buffer.getInt(this.offsetsAt + 4 * position);
		if (small >= 0) {
			return small;
		}
		int large = small & 0x7fffffff;
		if (large >= this.largeCount) {
			throw corrupt(this.offsetsAt + 4L * position, "64-bit offset entry " + large + " does not exist");
		}
		return this.buffer.getLong(this.largeOffsetsAt + 8 * large);
	}

	/** The checksum of the pack this index describes (its trailer's first hash). */
	byte[] packChecksum() {
		byte[] checksum = new byte[this.algorithm.rawLength()];
		ByteBuffer view = this.buffer.duplicate();
		view.get(this.buffer.capacity() - 2 * checksum.length, checksum, 0, checksum.length);
		return checksum;
	}

	private CorruptObjectException corrupt(long offset, String message) {
		return new CorruptObjectException(this.file, "offset " + offset + ": " + message);
	}

	@Override
	public String toString() {
		return "PackIndex[" + this.file + ", " + this.count + " objects]";
	}

}
