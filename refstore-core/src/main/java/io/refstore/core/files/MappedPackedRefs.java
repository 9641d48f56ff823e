package io.refstore.core.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.refstore.core.io.MemoryMaps;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * A sorted {@code packed-refs} file, memory-mapped for single lookups: a binary search
 * touches a few pages of the file, where {@link PackedRefs} reads all of it (66 MB for a
 * million refs) before the first answer. Only the record found is checked in full (its id
 * and peeled line); the lines probed on the way are checked for their shape. Damage is
 * reported with the file and line number, as {@link PackedRefs} does.
 *
 * <p>
 * Git replaces {@code packed-refs} by rename, never in place, so a mapping keeps showing
 * the file it was made from. Immutable and safe for use by several threads (only absolute
 * reads of the mapping are used).
 */
final class MappedPackedRefs {

	private final Path file;

	private final HashAlgorithm hash;

	private final ByteBuffer buf;

	private final int start;

	private final PackedRefs.Traits traits;

	private MappedPackedRefs(Path file, HashAlgorithm hash, ByteBuffer buf, int start, PackedRefs.Traits traits) {
		this.file = file;
		this.hash = hash;
		this.buf = buf;
		this.start = start;
		this.traits = traits;
	}

	/**
	 * Maps {@code file} if it promises sorted records.
	 * @return the mapped file; {@code null} if it is missing, has no {@code sorted}
	 * trait, is too large for one mapping, or is on a file system where a mapping would
	 * keep it from being removed ({@link MemoryMaps}): the caller then reads it whole, as
	 * {@link PackedRefs} sorts what is unsorted
	 * @throws CorruptRefStoreException if the header or the final newline is damaged
	 */
	static MappedPackedRefs map(Path file, HashAlgorithm hash) throws IOException {
		if (!MemoryMaps.mayMap(file)) {
			return null;
		}
		ByteBuffer buf;
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			long size = channel.size();
			if (size == 0 || size > Integer.MAX_VALUE) {
				return null;
			}
			buf = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		int length = buf.capacity();
		if (buf.get(length - 1) != '\n' || buf.get(0) != '#') {
			// an unterminated file is reported, and a file without header has no sorted
			// trait: both by a full read
			return null;
		}
		int eol = indexOf(buf, 0, (byte) '\n');
		byte[] header = new byte[eol];
		buf.get(0, header);
		PackedRefs.Traits traits = PackedRefs.Traits.parse(header, eol);
		if (traits == null || !traits.sorted()) {
			return null;
		}
		return new MappedPackedRefs(file, hash, buf, eol + 1, traits);
	}

	/**
	 * The records whose names start with {@code prefix}, copied out of the mapping: a
	 * listing of one namespace reads its part of the file, found by binary search,
	 * instead of all of it. Damage in the copy is reported with its line number in the
	 * file.
	 * @param prefix a non-empty name prefix
	 * @return the records as a snapshot of their own
	 * @throws CorruptRefStoreException if a line probed on the way is damaged
	 */
	PackedRefs slice(byte[] prefix) throws CorruptRefStoreException {
		int from = lowerBound(prefix);
		int to = this.buf.capacity();
		byte[] after = prefix.clone();
		int last = after.length - 1;
		while (last >= 0 && after[last] == (byte) 0xff) {
			last--;
		}
		if (last >= 0) {
			// the first name after every name with the prefix: the prefix's last byte
			// below 0xff, plus one
			after[last]++;
			to = lowerBound(java.util.Arrays.copyOf(after, last + 1));
		}
		byte[] records = new byte[to - from];
		this.buf.get(from, records);
		return PackedRefs.slice(this.file, this.hash, records, this.traits, () -> lineOf(from) - 1);
	}

	/**
	 * The records, whole and in order, a chunk at a time: for a listing of every ref.
	 * Each chunk is copied into one buffer used again for the next, so a listing of a
	 * million refs touches 1 MiB of fresh memory instead of the 66 MB array a full read
	 * allocates (measured on this project's 2-core VM, where fresh memory is faulted in
	 * from the host: 300 ms of a 0.8 s plain {@code for-each-ref}).
	 */
	Chunks chunks() {
		return new Chunks();
	}

	/** The chunks of {@link #chunks()}; not thread-safe. */
	final class Chunks {

		/** How many bytes a chunk holds, unless a single record needs more. */
		static final int SIZE = 1 << 20;

		private byte[] buffer = new byte[SIZE];

		private int pos = MappedPackedRefs.this.start;

		private Chunks() {
		}

		/** Whether records remain after the last chunk. */
		boolean hasNext() {
			return this.pos < MappedPackedRefs.this.buf.capacity();
		}

		/**
		 * The next chunk (an empty one at the end): whole records, a peeled line always
		 * with its ref line. The chunk before is overwritten.
		 */
		PackedRefs next() {
			ByteBuffer map = MappedPackedRefs.this.buf;
			int size = map.capacity();
			int from = this.pos;
			int cut = Math.min(size, from + this.buffer.length);
			if (cut < size) {
				// back to the end of the last whole line, then before a ref line whose
				// peeled line was cut off
				cut = lastNewline(map, from, cut) + 1;
				while (cut > from && cut < size && map.get(cut) == '^') {
					cut = lastNewline(map, from, cut - 1) + 1;
				}
				if (cut <= from) {
					// one record longer than the buffer
					this.buffer = new byte[this.buffer.length * 2];
					return next();
				}
			}
			map.get(from, this.buffer, 0, cut - from);
			this.pos = cut;
			return PackedRefs.chunk(MappedPackedRefs.this.file, MappedPackedRefs.this.hash, this.buffer, cut - from,
					MappedPackedRefs.this.traits, () -> lineOf(from) - 1);
		}

		/**
		 * The offset of the last newline in {@code [from, before)}, or {@code from - 1}.
		 */
		private int lastNewline(ByteBuffer map, int from, int before) {
			for (int i = before - 1; i >= from; i--) {
				if (map.get(i) == '\n') {
					return i;
				}
			}
			return from - 1;
		}

	}

	/**
	 * The offset of the first record whose name is bytewise at least {@code key}, or the
	 * file's length.
	 * @throws CorruptRefStoreException if a line probed on the way is damaged
	 */
	private int lowerBound(byte[] key) throws CorruptRefStoreException {
		int hexLength = this.hash.hexLength();
		int length = this.buf.capacity();
		int lo = this.start;
		int hi = length;
		while (lo < hi) {
			int record = recordAtOrBefore(lo + (hi - lo) / 2, lo);
			int eol = refLineEnd(record);
			if (compare(record + hexLength + 1, eol, key) < 0) {
				int next = eol + 1;
				lo = (next < length && this.buf.get(next) == '^') ? indexOf(this.buf, next, (byte) '\n') + 1 : next;
			}
			else {
				hi = record;
			}
		}
		return lo;
	}

	/**
	 * Looks a ref up.
	 * @return the ref with its peeled value if the file has one, or {@code null} if the
	 * file has no such record
	 * @throws CorruptRefStoreException if the record found, or a line on the way to it,
	 * is damaged
	 */
	DirectRef find(String name) throws CorruptRefStoreException {
		byte[] key = name.getBytes(StandardCharsets.UTF_8);
		int record = lowerBound(key);
		if (record >= this.buf.capacity()) {
			return null;
		}
		int eol = refLineEnd(record);
		return (compare(record + this.hash.hexLength() + 1, eol, key) == 0) ? parse(name, record, eol) : null;
	}

	/**
	 * The end of the ref line at {@code record}.
	 * @throws CorruptRefStoreException if it is not a ref line
	 */
	private int refLineEnd(int record) throws CorruptRefStoreException {
		int hexLength = this.hash.hexLength();
		int eol = indexOf(this.buf, record, (byte) '\n');
		if (eol - record <= hexLength + 1 || !isSpace(this.buf.get(record + hexLength))
				|| this.buf.get(record) == '^') {
			throw corrupt(record, "not a ref line ('<object id> <ref name>')");
		}
		return eol;
	}

	private DirectRef parse(String name, int record, int eol) throws CorruptRefStoreException {
		ObjectId id = hex(record);
		if (id == null) {
			throw corrupt(record, "not a ref line ('<object id> <ref name>')");
		}
		ObjectId peeled = null;
		int next = eol + 1;
		if (next < this.buf.capacity() && this.buf.get(next) == '^') {
			int peeledEnd = indexOf(this.buf, next, (byte) '\n');
			peeled = (peeledEnd - next == this.hash.hexLength() + 1) ? hex(next + 1) : null;
			if (peeled == null) {
				throw corrupt(next, "not a peeled line ('^<object id>')");
			}
		}
		return new DirectRef(name, id, peeled);
	}

	/**
	 * Parses the id whose hex digits start at {@code at}, or {@code null} if they are not
	 * all hex digits. Decoded from the mapping byte by byte: a bulk copy out of a mapped
	 * buffer costs more than the whole search.
	 */
	private ObjectId hex(int at) {
		byte[] raw = new byte[this.hash.rawLength()];
		for (int i = 0; i < raw.length; i++) {
			int hi = digit(this.buf.get(at + 2 * i));
			int lo = digit(this.buf.get(at + 2 * i + 1));
			if ((hi | lo) < 0) {
				return null;
			}
			raw[i] = (byte) ((hi << 4) | lo);
		}
		return ObjectId.fromRaw(this.hash, raw, 0);
	}

	/** The value of a hex digit (either case), or -1. */
	private static int digit(byte b) {
		if (b >= '0' && b <= '9') {
			return b - '0';
		}
		int lower = b | 0x20;
		return (lower >= 'a' && lower <= 'f') ? lower - 'a' + 10 : -1;
	}

	/** Compares the name at {@code [from, to)} with {@code key}, bytewise unsigned. */
	private int compare(int from, int to, byte[] key) {
		int n = Math.min(to - from, key.length);
		for (int i = 0; i < n; i++) {
			int diff = (this.buf.get(from + i) & 0xff) - (key[i] & 0xff);
			if (diff != 0) {
				return diff;
			}
		}
		return (to - from) - key.length;
	}

	/**
	 * The start of the record whose lines contain {@code pos}, never before
	 * {@code floor}.
	 */
	private int recordAtOrBefore(int pos, int floor) {
		int line = pos;
		while (line > floor && this.buf.get(line - 1) != '\n') {
			line--;
		}
		if (this.buf.get(line) == '^' && line > floor) {
			line--;
			while (line > floor && this.buf.get(line - 1) != '\n') {
				line--;
			}
		}
		return line;
	}

	private static boolean isSpace(byte b) {
		return b == ' ' || b == '\t';
	}

	private static int indexOf(ByteBuffer buf, int from, byte b) {
		int length = buf.capacity();
		for (int i = from; i < length; i++) {
			if (buf.get(i) == b) {
				return i;
			}
		}
		return length;
	}

	private CorruptRefStoreException corrupt(int offset, String problem) {
		long line = lineOf(offset);
		byte[] text = new byte[indexOf(this.buf, offset, (byte) '\n') - offset];
		this.buf.get(offset, text);
		return new CorruptRefStoreException(this.file, line, "line " + line + ": " + problem).withGitMessage(
				PackedRefs.gitLineMessage("unexpected", this.file, new String(text, StandardCharsets.UTF_8)));
	}

	/** The number (from 1) of the line that holds {@code offset}. */
	private long lineOf(int offset) {
		long line = 1;
		for (int i = 0; i < offset; i++) {
			if (this.buf.get(i) == '\n') {
				line++;
			}
		}
		return line;
	}

}
