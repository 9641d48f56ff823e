package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongSupplier;

import io.refstore.core.io.FileBytes;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * An immutable, sorted snapshot of a {@code packed-refs} file, read once into memory and
 * searched in place.
 *
 * <p>
 * Records are {@code <hex> SP <name> LF}, optionally followed by {@code ^<hex> LF} (the
 * fully peeled value). Lookups binary-search the bytes; iteration decodes records in
 * place. A file without the {@code sorted} trait is sorted once when loaded. Damage is
 * reported with the file and line number when a damaged record is touched. Safe for use
 * by several threads.
 */
final class PackedRefs {

	/** The header git writes, traits and trailing space included. */
	static final byte[] HEADER = "# pack-refs with: peeled fully-peeled sorted \n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] HEADER_PREFIX = "# pack-refs with:".getBytes(StandardCharsets.US_ASCII);

	final Path file;

	final HashAlgorithm hash;

	/** The file's bytes (or a sorted copy of its records, or a chunk of them). */
	final byte[] buf;

	/**
	 * Where the records in {@link #buf} end: its length, but for a {@link #chunk} in a
	 * buffer used again for the next one.
	 */
	final int end;

	/** Offset of the first record (after the header line). */
	final int start;

	/** What the file's header promises. */
	final Traits traits;

	/**
	 * How many lines of the file come before {@link #buf} (non-zero for a
	 * {@link #slice}).
	 */
	private final LongSupplier linesBefore;

	private PackedRefs(Path file, HashAlgorithm hash, byte[] buf, int start, Traits traits) {
		this(file, hash, buf, start, traits, () -> 0);
	}

	private PackedRefs(Path file, HashAlgorithm hash, byte[] buf, int start, Traits traits, LongSupplier linesBefore) {
		this(file, hash, buf, start, buf.length, traits, linesBefore);
	}

	private PackedRefs(Path file, HashAlgorithm hash, byte[] buf, int start, int end, Traits traits,
			LongSupplier linesBefore) {
		this.file = file;
		this.hash = hash;
		this.buf = buf;
		this.start = start;
		this.end = end;
		this.traits = traits;
		this.linesBefore = linesBefore;
	}

	/**
	 * The traits a {@code # pack-refs with:} header lists, read alike for a file read
	 * whole and a mapped one.
	 *
	 * @param sorted records are in bytewise name order
	 * @param fullyPeeled a record without a {@code ^} line is known not to peel
	 * ({@code fully-peeled})
	 * @param tagsPeeled refs under {@code refs/tags/} without a {@code ^} line are known
	 * not to peel ({@code peeled}, or implied by {@code fully-peeled})
	 */
	record Traits(boolean sorted, boolean fullyPeeled, boolean tagsPeeled) {

		/** What an empty snapshot promises: nothing to sort, nothing left to peel. */
		static final Traits ALL = new Traits(true, true, true);

		/** What a file without header promises. */
		static final Traits NONE = new Traits(false, false, false);

		/**
		 * Reads the header line {@code buf[0, eol)}.
		 * @return its traits; {@code null} if it does not start with
		 * {@code # pack-refs with:}
		 */
		static Traits parse(byte[] buf, int eol) {
			if (!startsWith(buf, 0, eol, HEADER_PREFIX)) {
				return null;
			}
			String traits = " "
					+ new String(buf, HEADER_PREFIX.length, eol - HEADER_PREFIX.length, StandardCharsets.US_ASCII)
					+ " ";
			boolean fullyPeeled = traits.contains(" fully-peeled ");
			return new Traits(traits.contains(" sorted "), fullyPeeled, fullyPeeled || traits.contains(" peeled "));
		}

	}

	/**
	 * A snapshot of whole consecutive records cut out of a sorted file (see
	 * {@link MappedPackedRefs#slice}).
	 * @param records the records, without header
	 * @param traits the file's traits
	 * @param linesBefore counts the file's lines before the records, asked only to report
	 * damage
	 */
	static PackedRefs slice(Path file, HashAlgorithm hash, byte[] records, Traits traits, LongSupplier linesBefore) {
		return new PackedRefs(file, hash, records, 0, traits, linesBefore);
	}

	/**
	 * Whole consecutive records of a sorted file in {@code records[0 .. length)} (see
	 * {@link MappedPackedRefs.Chunks}): valid until the buffer is filled again.
	 */
	static PackedRefs chunk(Path file, HashAlgorithm hash, byte[] records, int length, Traits traits,
			LongSupplier linesBefore) {
		return new PackedRefs(file, hash, records, 0, length, traits, linesBefore);
	}

	/** An empty snapshot, as for a missing file. */
	static PackedRefs empty(Path file, HashAlgorithm hash) {
		return new PackedRefs(file, hash, new byte[0], 0, Traits.ALL);
	}

	/**
	 * Reads {@code file}; a missing file is an empty snapshot.
	 * @throws CorruptRefStoreException if the header or the final newline is damaged
	 */
	static PackedRefs read(Path file, HashAlgorithm hash) throws IOException {
		byte[] buf;
		try {
			buf = FileBytes.read(file);
		}
		catch (NoSuchFileException ex) {
			return empty(file, hash);
		}
		return parse(file, hash, buf);
	}

	static PackedRefs parse(Path file, HashAlgorithm hash, byte[] buf) throws CorruptRefStoreException {
		if (buf.length == 0) {
			return empty(file, hash);
		}
		if (buf[buf.length - 1] != '\n') {
			int last = buf.length;
			while (last > 0 && buf[last - 1] != '\n') {
				last--;
			}
			throw new CorruptRefStoreException(file, lineCount(buf, buf.length),
					"unterminated line " + lineCount(buf, buf.length) + " (the file must end with a newline)")
				.withGitMessage(gitLineMessage("unterminated", file,
						new String(buf, last, buf.length - last, StandardCharsets.UTF_8)));
		}
		int start = 0;
		Traits traits = Traits.NONE;
		if (buf[0] == '#') {
			int eol = indexOf(buf, 0, (byte) '\n');
			traits = Traits.parse(buf, eol);
			if (traits == null) {
				throw new CorruptRefStoreException(file, 1, "line 1: unknown header (expected '# pack-refs with:')");
			}
			start = eol + 1;
		}
		PackedRefs refs = new PackedRefs(file, hash, buf, start, traits);
		return traits.sorted() ? refs : refs.sorted();
	}

	/** A copy with records in bytewise name order, for files that do not promise it. */
	private PackedRefs sorted() throws CorruptRefStoreException {
		int count = 0;
		for (int pos = this.start; pos < this.end; pos = nextRecord(pos)) {
			count++;
		}
		Integer[] records = new Integer[count];
		int i = 0;
		for (int pos = this.start; pos < this.end; pos = nextRecord(pos)) {
			records[i++] = pos;
		}
		Arrays.sort(records, (a, b) -> Arrays.compareUnsigned(this.buf, nameStart(a), nameEnd(a), this.buf,
				nameStart(b), nameEnd(b)));
		byte[] out = new byte[this.end - this.start];
		int length = 0;
		for (int record : records) {
			int end = nextRecord(record);
			System.arraycopy(this.buf, record, out, length, end - record);
			length += end - record;
		}
		return new PackedRefs(this.file, this.hash, out, 0, this.traits);
	}

	/** Whether the snapshot holds no record. */
	boolean isEmpty() {
		return this.start >= this.end;
	}

	/** Offset where the name of the record at {@code record} starts. */
	int nameStart(int record) {
		return record + this.hash.hexLength() + 1;
	}

	/** Offset of the newline ending the record line at {@code record}. */
	int nameEnd(int record) {
		return indexOf(this.buf, nameStart(record), (byte) '\n');
	}

	/**
	 * Checks the record line at {@code record} and returns the offset of its name's end.
	 * @throws CorruptRefStoreException naming the line if it is not
	 * {@code <hex> SP <name>}
	 */
	int checkRecord(int record) throws CorruptRefStoreException {
		int hexLength = this.hash.hexLength();
		int eol = indexOf(this.buf, record, (byte) '\n');
		boolean ok = eol - record > hexLength + 1 && isSpace(this.buf[record + hexLength]);
		for (int i = record; ok && i < record + hexLength; i++) {
			ok = isHex(this.buf[i]);
		}
		if (!ok) {
			throw corrupt(record, "not a ref line ('<object id> <ref name>')");
		}
		int next = eol + 1;
		if (next < this.end && this.buf[next] == '^') {
			int peeledEnd = indexOf(this.buf, next, (byte) '\n');
			boolean peeledOk = peeledEnd - next == hexLength + 1;
			for (int i = next + 1; peeledOk && i < peeledEnd; i++) {
				peeledOk = isHex(this.buf[i]);
			}
			if (!peeledOk) {
				throw corrupt(next, "not a peeled line ('^<object id>')");
			}
		}
		return eol;
	}

	/**
	 * The offset of the record after the one at {@code record} (skipping its peeled
	 * line).
	 */
	int nextRecord(int record) throws CorruptRefStoreException {
		if (this.buf[record] == '^') {
			throw corrupt(record, "peeled line without a ref line before it");
		}
		int next = indexOf(this.buf, record, (byte) '\n') + 1;
		if (next < this.end && this.buf[next] == '^') {
			next = indexOf(this.buf, next, (byte) '\n') + 1;
		}
		return next;
	}

	/** Whether the record at {@code record} has a peeled line. */
	boolean hasPeeled(int record) {
		int next = indexOf(this.buf, record, (byte) '\n') + 1;
		return next < this.end && this.buf[next] == '^';
	}

	/**
	 * Offset of the peeled hex of the record at {@code record} (only if
	 * {@link #hasPeeled(int)}).
	 */
	int peeledHexStart(int record) {
		return indexOf(this.buf, record, (byte) '\n') + 2;
	}

	/**
	 * Whether the file's traits promise that the record's missing {@code ^} line means
	 * "not a tag" (or it has one). A writer that rewrites the file passes such a record
	 * through as it is, as git does; a reader must not trust the promise, since git 2.55
	 * breaks it (its migration to files writes tags without peeled lines under a
	 * {@code fully-peeled} header) and peels such a record from the objects.
	 */
	boolean peelKnown(int record) {
		if (this.traits.fullyPeeled() || hasPeeled(record)) {
			return true;
		}
		return this.traits.tagsPeeled() && startsWith(this.buf, nameStart(record), this.end, TAGS);
	}

	private static final byte[] TAGS = "refs/tags/".getBytes(StandardCharsets.US_ASCII);

	/**
	 * Finds the first record whose name is bytewise at least {@code key[0, keyLength)}.
	 * @return its offset, or {@link #end} if there is none
	 */
	int lowerBound(byte[] key, int keyLength) throws CorruptRefStoreException {
		int lo = this.start;
		int hi = this.end;
		int hexLength = this.hash.hexLength();
		while (lo < hi) {
			int record = recordAtOrBefore(lo + (hi - lo) / 2, lo);
			// only the line's shape is checked on the way: its id is checked where a
			// record is used
			int eol = indexOf(this.buf, record, (byte) '\n');
			if (eol - record <= hexLength + 1 || !isSpace(this.buf[record + hexLength]) || this.buf[record] == '^') {
				throw corrupt(record, "not a ref line ('<object id> <ref name>')");
			}
			int cmp = Arrays.compareUnsigned(this.buf, record + hexLength + 1, eol, key, 0, keyLength);
			if (cmp < 0) {
				int next = eol + 1;
				lo = (next < this.end && this.buf[next] == '^') ? indexOf(this.buf, next, (byte) '\n') + 1 : next;
			}
			else {
				hi = record;
			}
		}
		return lo;
	}

	/**
	 * The name of the first ref below the directory {@code dir} (a name starting with
	 * {@code dir/}), or {@code null} if none is packed.
	 */
	String firstBelow(String dir) throws CorruptRefStoreException {
		byte[] prefix = (dir + "/").getBytes(StandardCharsets.UTF_8);
		int record = lowerBound(prefix, prefix.length);
		if (record < this.end && startsWith(this.buf, nameStart(record), nameEnd(record), prefix)) {
			return name(record);
		}
		return null;
	}

	/**
	 * Finds the record named exactly {@code key[0, keyLength)}.
	 * @return its offset, or -1
	 */
	int find(byte[] key, int keyLength) throws CorruptRefStoreException {
		int record = lowerBound(key, keyLength);
		if (record < this.end && Arrays.equals(this.buf, nameStart(record), nameEnd(record), key, 0, keyLength)) {
			return record;
		}
		return -1;
	}

	/**
	 * The start of the record whose lines contain {@code pos}, never before
	 * {@code floor}.
	 */
	private int recordAtOrBefore(int pos, int floor) {
		int line = pos;
		while (line > floor && this.buf[line - 1] != '\n') {
			line--;
		}
		if (this.buf[line] == '^' && line > floor) {
			line--;
			while (line > floor && this.buf[line - 1] != '\n') {
				line--;
			}
		}
		return line;
	}

	/** Parses the id of the record at {@code record}. */
	ObjectId id(int record) {
		return ObjectId.tryParseHex(this.hash, this.buf, record);
	}

	/**
	 * Parses the peeled id of the record at {@code record}, or {@code null} if it has
	 * none.
	 */
	ObjectId peeled(int record) {
		return hasPeeled(record) ? ObjectId.tryParseHex(this.hash, this.buf, peeledHexStart(record)) : null;
	}

	/** The name of the record at {@code record}. */
	String name(int record) {
		int nameStart = nameStart(record);
		return new String(this.buf, nameStart, nameEnd(record) - nameStart, StandardCharsets.UTF_8);
	}

	CorruptRefStoreException corrupt(int offset, String problem) {
		long line = this.linesBefore.getAsLong() + lineCount(this.buf, offset) + 1;
		int eol = indexOf(this.buf, offset, (byte) '\n');
		return new CorruptRefStoreException(this.file, line, "line " + line + ": " + problem)
			.withGitMessage(gitLineMessage("unexpected", this.file,
					new String(this.buf, offset, eol - offset, StandardCharsets.UTF_8)));
	}

	/**
	 * git's words for a bad line: {@code <kind> line in <file>: <line>}, the line cut
	 * after 75 characters when it has 80 or more, the file named as git names it from the
	 * top of the worktree ({@code .git/packed-refs}).
	 */
	static String gitLineMessage(String kind, Path file, String line) {
		Path dir = file.getParent();
		String name = (dir != null && dir.getFileName() != null && dir.getFileName().toString().equals(".git"))
				? ".git/" + file.getFileName() : file.toString();
		String shown = (line.length() < 80) ? line : line.substring(0, 75) + "...";
		return kind + " line in " + name + ": " + shown;
	}

	private static long lineCount(byte[] buf, int end) {
		long lines = 0;
		for (int i = 0; i < end; i++) {
			if (buf[i] == '\n') {
				lines++;
			}
		}
		return lines;
	}

	static int indexOf(byte[] buf, int from, byte b) {
		for (int i = from; i < buf.length; i++) {
			if (buf[i] == b) {
				return i;
			}
		}
		return buf.length;
	}

	private static boolean startsWith(byte[] buf, int from, int end, byte[] prefix) {
		return end - from >= prefix.length && Arrays.equals(buf, from, from + prefix.length, prefix, 0, prefix.length);
	}

	private static boolean isSpace(byte b) {
		return b == ' ' || b == '\t';
	}

	private static boolean isHex(byte b) {
		return ObjectId.isHexDigit(b);
	}

}
