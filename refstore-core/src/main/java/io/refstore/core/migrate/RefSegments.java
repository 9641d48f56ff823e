package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;

import io.refstore.core.io.FileBytes;
import io.refstore.core.io.Fsync;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;

/**
 * The segments of a staged migration's copy phase: one file per chunk,
 * {@code segments/00000001} and up, each a sorted run of ref records written durably in
 * one piece. A segment holds what the new store needs of each ref, peeled value included,
 * so assembling the store reads no object. A segment names its last ref and counts its
 * records, so the segments on disk say by themselves how far a copy got
 * ({@link #summary}).
 *
 * <h2>Format</h2> <pre>
 * "RSG2" u8(raw hash length) u32(record count) record* u32(CRC-32 of all bytes before it)
 * record: u8(kind) u16(shared) u16(suffix length) suffix kind-payload
 *   kind 0 direct:           id
 *   kind 1 direct, peeled:   id peeled
 *   kind 2 symbolic:         u16(target length) target
 * </pre> A name is the first {@code shared} bytes of the record before it in the same
 * segment (0 for the first) and then the suffix: sorted names share long prefixes
 * ({@code refs/pull/1234}{@code 5/head}), and a segment is written once and read at most
 * once, so the bytes saved are time saved. Integers are big-endian. A segment whose CRC
 * does not match is refused as damaged.
 */
final class RefSegments {

	static final String DIR = "segments";

	private static final byte[] MAGIC = { 'R', 'S', 'G', '2' };

	static final int DIRECT = 0;

	static final int PEELED = 1;

	static final int SYMBOLIC = 2;

	private RefSegments() {
	}

	/** The file of segment {@code number} (from 1) below the work directory. */
	static Path file(Path work, int number) {
		return work.resolve(DIR).resolve(String.format("%08d", number));
	}

	/** Whether segment {@code number} exists. */
	static boolean exists(Path work, int number) {
		return Files.isRegularFile(file(work, number));
	}

	/**
	 * Deletes every segment after {@code last}, and any temporary file of an unfinished
	 * write: all of them, not only a run that follows {@code last} without a gap, since
	 * the assembly reads on until a number is missing.
	 * @return how many segments there were after {@code last}
	 */
	static int dropAfter(Path work, int last) throws IOException {
		Path dir = work.resolve(DIR);
		if (!Files.isDirectory(dir)) {
			return 0;
		}
		int dropped = 0;
		try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
			for (Path file : files) {
				String name = file.getFileName().toString();
				int number = number(name);
				if (number > last) {
					Files.deleteIfExists(file);
					dropped++;
				}
				else if (number < 0 && name.endsWith(".tmp")) {
					Files.deleteIfExists(file);
				}
			}
		}
		return dropped;
	}

	/** The number of a segment's file name, or -1 if the name is not a segment's. */
	private static int number(String name) {
		if (name.length() != 8) {
			return -1;
		}
		for (int i = 0; i < name.length(); i++) {
			if (name.charAt(i) < '0' || name.charAt(i) > '9') {
				return -1;
			}
		}
		return Integer.parseInt(name);
	}

	/**
	 * What a whole segment holds.
	 *
	 * @param count how many refs
	 * @param lastName the name of its last ref
	 */
	record Summary(int count, String lastName) {
	}

	/**
	 * Reads segment {@code number} whole and summarises it.
	 * @return its summary, or {@code null} if it is missing, empty or damaged (its write
	 * did not finish before a crash)
	 */
	static Summary summary(Path work, int number, HashAlgorithm hash) throws IOException {
		byte[] bytes;
		try {
			bytes = read(work, number, hash);
		}
		catch (MigrationException ex) {
			return null;
		}
		if (bytes == null) {
			return null;
		}
		int rawLength = hash.rawLength();
		int end = bytes.length - 4;
		int pos = RECORDS;
		int count = 0;
		byte[] name = new byte[256];
		int nameLength = 0;
		while (pos + 5 <= end) {
			int kind = bytes[pos];
			int shared = getShort(bytes, pos + 1);
			int suffix = getShort(bytes, pos + 3);
			pos += 5;
			if (shared > nameLength || pos + suffix > end) {
				return null;
			}
			name = Names.extend(name, shared, shared + suffix);
			System.arraycopy(bytes, pos, name, shared, suffix);
			nameLength = shared + suffix;
			pos += suffix;
			if (kind == SYMBOLIC) {
				pos = (pos + 2 <= end) ? pos + 2 + getShort(bytes, pos) : end + 1;
			}
			else {
				pos += (kind == PEELED) ? 2 * rawLength : rawLength;
			}
			count++;
		}
		if (pos != end || count == 0 || count != getInt(bytes, MAGIC.length + 1)) {
			return null;
		}
		return new Summary(count, new String(name, 0, nameLength, StandardCharsets.UTF_8));
	}

	private static int getShort(byte[] buf, int at) {
		return ((buf[at] & 0xff) << 8) | (buf[at + 1] & 0xff);
	}

	/**
	 * Collects one chunk's records; {@link #write} makes them a segment, {@link #reset}
	 * starts the next chunk in the same buffer (a chunk of 100,000 refs is megabytes:
	 * allocating it afresh for every chunk, and copying it to write it, would cost more
	 * than the records). Not thread-safe.
	 */
	static final class Builder {

		/** Bytes a ref is expected to take, for the first size of the buffer. */
		private static final int EXPECTED_RECORD = 40;

		private final int rawLength;

		private byte[] buf;

		private int length;

		private int count;

		/** The name of the last ref added (the prefix the next name shares). */
		private byte[] lastName = new byte[256];

		private int lastNameLength;

		/**
		 * @param refs how many refs a chunk is expected to hold, to size the buffer once
		 * instead of growing it
		 */
		Builder(HashAlgorithm hash, int refs) {
			this.rawLength = hash.rawLength();
			this.buf = new byte[(int) Math.min(1 << 24, Math.max(1 << 16, (long) refs * EXPECTED_RECORD))];
			reset();
		}

		/** Empties the builder for the next chunk. */
		void reset() {
			this.length = 0;
			this.count = 0;
			this.lastNameLength = 0;
			ensure(RECORDS);
			System.arraycopy(MAGIC, 0, this.buf, 0, MAGIC.length);
			this.buf[MAGIC.length] = (byte) this.rawLength;
			this.length = RECORDS;
		}

		/**
		 * Adds the cursor's current ref, with its peeled value ({@code null} if it does
		 * not peel).
		 */
		void add(RefCursor cursor, byte[] peeled) {
			boolean symbolic = cursor.isSymbolic();
			int nameLength = checkShort(cursor.nameLength());
			int targetLength = symbolic ? checkShort(cursor.targetLength()) : 0;
			byte[] name = cursor.nameBuffer();
			int shared = Arrays.mismatch(this.lastName, 0, this.lastNameLength, name, 0, nameLength);
			if (shared < 0) {
				shared = nameLength;
			}
			int suffix = nameLength - shared;
			ensure(this.length + 5 + suffix + (symbolic ? 2 + targetLength : 2 * this.rawLength));
			byte[] out = this.buf;
			int at = this.length;
			out[at++] = (byte) (symbolic ? SYMBOLIC : (peeled != null) ? PEELED : DIRECT);
			at = putShort(out, at, shared);
			at = putShort(out, at, suffix);
			System.arraycopy(name, shared, out, at, suffix);
			at += suffix;
			this.lastName = Names.extend(this.lastName, shared, nameLength);
			System.arraycopy(name, shared, this.lastName, shared, suffix);
			this.lastNameLength = nameLength;
			if (symbolic) {
				at = putShort(out, at, targetLength);
				System.arraycopy(cursor.targetBuffer(), 0, out, at, targetLength);
				at += targetLength;
			}
			else {
				System.arraycopy(cursor.idBuffer(), 0, out, at, this.rawLength);
				at += this.rawLength;
				if (peeled != null) {
					System.arraycopy(peeled, 0, out, at, this.rawLength);
					at += this.rawLength;
				}
			}
			this.length = at;
			this.count++;
		}

		int count() {
			return this.count;
		}

		/** The name of the last ref added. */
		String lastName() {
			return new String(this.lastName, 0, this.lastNameLength, StandardCharsets.UTF_8);
		}

		/** Writes the segment durably as segment {@code number}. */
		void write(Path work, int number) throws IOException {
			putInt(this.buf, MAGIC.length + 1, this.count);
			CRC32 crc = new CRC32();
			crc.update(this.buf, 0, this.length);
			ensure(this.length + 4);
			putInt(this.buf, this.length, (int) crc.getValue());
			Path file = file(work, number);
			Fsync.createDirectories(file.getParent());
			DurableFiles.write(file, this.buf, this.length + 4);
		}

		private void ensure(int capacity) {
			if (capacity > this.buf.length) {
				this.buf = Arrays.copyOf(this.buf, Math.max(capacity, this.buf.length * 2));
			}
		}

		private static int checkShort(int value) {
			if (value > 0xffff) {
				throw new IllegalArgumentException("a name or target of " + value + " bytes is too long to stage");
			}
			return value;
		}

		private static int putShort(byte[] out, int at, int value) {
			out[at] = (byte) (value >>> 8);
			out[at + 1] = (byte) value;
			return at + 2;
		}

	}

	/** Reads segment {@code number} whole and checks it. */
	static byte[] read(Path work, int number, HashAlgorithm hash) throws IOException {
		Path file = file(work, number);
		byte[] bytes;
		try {
			bytes = FileBytes.read(file);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		if (bytes.length < MAGIC.length + 9 || bytes[0] != MAGIC[0] || bytes[1] != MAGIC[1] || bytes[2] != MAGIC[2]
				|| bytes[3] != MAGIC[3]) {
			throw new MigrationException("staged segment '" + file + "' is damaged: no segment header");
		}
		if ((bytes[4] & 0xff) != hash.rawLength()) {
			throw new MigrationException("staged segment '" + file + "' holds ids of " + (bytes[4] & 0xff)
					+ " bytes, the repository's are " + hash.rawLength());
		}
		CRC32 crc = new CRC32();
		crc.update(bytes, 0, bytes.length - 4);
		if ((int) crc.getValue() != getInt(bytes, bytes.length - 4)) {
			throw new MigrationException("staged segment '" + file + "' is damaged: checksum mismatch");
		}
		return bytes;
	}

	static void putInt(byte[] buf, int at, int value) {
		buf[at] = (byte) (value >>> 24);
		buf[at + 1] = (byte) (value >>> 16);
		buf[at + 2] = (byte) (value >>> 8);
		buf[at + 3] = (byte) value;
	}

	static int getInt(byte[] buf, int at) {
		return ((buf[at] & 0xff) << 24) | ((buf[at + 1] & 0xff) << 16) | ((buf[at + 2] & 0xff) << 8)
				| (buf[at + 3] & 0xff);
	}

	/** Where a segment's records start. */
	static final int RECORDS = MAGIC.length + 5;

	/** The name buffers of prefix-compressed records. */
	static final class Names {

		private Names() {
		}

		/**
		 * A buffer of at least {@code capacity} bytes whose first {@code keep} bytes are
		 * {@code name}'s: {@code name} itself if it is large enough.
		 */
		static byte[] extend(byte[] name, int keep, int capacity) {
			return (capacity <= name.length) ? name : Arrays.copyOf(name, Math.max(capacity, 2 * name.length));
		}

	}

}
