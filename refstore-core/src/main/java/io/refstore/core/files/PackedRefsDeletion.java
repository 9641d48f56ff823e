package io.refstore.core.files;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.io.Fsync;
import io.refstore.core.io.ParallelIo;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;

/**
 * Removes records from {@code packed-refs} without reading the file into the heap: the
 * deletion of a transaction, under {@code packed-refs.lock}. Stateless.
 */
final class PackedRefsDeletion {

	private PackedRefsDeletion() {
	}

	/**
	 * Writes {@code file} without the records named in {@code deleted} (sorted or not) to
	 * {@code target}, a new file. A sorted, fully peeled file (what git writes) is
	 * mapped, each deleted name found by binary search, every line's shape checked in one
	 * pass (git, too, refuses to rewrite a damaged file), and the runs of records between
	 * the deleted ones copied file to file by the kernel: nothing that is merely kept is
	 * parsed into objects, and the file never passes through the heap whole. Any other
	 * file is rewritten through
	 * {@link PackedRefsWriter#writeWithout(PackedRefs, List, ObjectDatabase, Path, boolean)}
	 * with {@code full}.
	 * @param fsync whether to flush {@code target} to disk
	 * @return whether a deleted name is packed; if not, nothing is written
	 * @throws CorruptRefStoreException naming the first damaged line (nothing is then
	 * left at {@code target})
	 */
	static boolean writeWithout(Path file, HashAlgorithm hash, List<byte[]> deleted, ObjectDatabase objects,
			Path target, boolean fsync, PackedSource full) throws IOException {
		try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
			long size = in.size();
			ByteBuffer buf = (size > 0 && size <= Integer.MAX_VALUE) ? in.map(FileChannel.MapMode.READ_ONLY, 0, size)
					: null;
			int start = (buf != null) ? sortedFullyPeeledStart(buf) : -1;
			if (start < 0) {
				return PackedRefsWriter.writeWithout(full.get(), deleted, objects, target, fsync);
			}
			deleted.sort(Arrays::compareUnsigned);
			long[] runs = new long[deleted.size()];
			int found = 0;
			for (byte[] name : deleted) {
				long record = findRecord(file, buf, start, name, hash.hexLength());
				if (record >= 0) {
					runs[found++] = record;
				}
			}
			if (found == 0) {
				return false;
			}
			// as git, refuse to rewrite a damaged file: one pass over its lines, in bulk
			// copies of the mapping, on
			// another processor while the kernel copies the file
			int records = found;
			try {
				ParallelIo.both(() -> checkLines(file, buf, start, hash.hexLength()),
						() -> copyRuns(in, start, size, runs, records, target, fsync));
			}
			catch (IOException | RuntimeException ex) {
				try {
					Files.deleteIfExists(target);
				}
				catch (IOException suppressed) {
					ex.addSuppressed(suppressed);
				}
				throw ex;
			}
			return true;
		}
		catch (NoSuchFileException ex) {
			return false;
		}
	}

	/**
	 * Writes {@code file} with the records named in {@code deleted} left out and
	 * {@code written} put in (replacing records of the same name) to {@code target}, a
	 * new file: {@link #writeWithout}'s fast path for a sorted, fully peeled file (each
	 * name found by binary search, the runs between them copied by the kernel, new values
	 * peeled through {@code objects}), else a merge of the whole file.
	 * @param deleted names, none of them in {@code written}
	 * @param written the new values, sorted by name (bytewise)
	 * @throws CorruptRefStoreException naming the first damaged line (nothing is then
	 * left at {@code target})
	 */
	static void writeChanged(Path file, HashAlgorithm hash, List<byte[]> deleted, List<DirectRef> written,
			ObjectDatabase objects, Path target, boolean fsync, PackedSource full) throws IOException {
		List<byte[]> dropped = new ArrayList<>(deleted);
		dropped.sort(Arrays::compareUnsigned);
		try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
			long size = in.size();
			ByteBuffer buf = (size > 0 && size <= Integer.MAX_VALUE) ? in.map(FileChannel.MapMode.READ_ONLY, 0, size)
					: null;
			int start = (buf != null) ? sortedFullyPeeledStart(buf) : -1;
			if (start >= 0) {
				List<Edit> edits = edits(dropped, written, objects, hash.hexLength());
				for (Edit edit : edits) {
					edit.at = locate(file, buf, start, edit.name, hash.hexLength());
				}
				try {
					ParallelIo.both(() -> checkLines(file, buf, start, hash.hexLength()),
							() -> copyEdited(in, start, size, edits, target, fsync));
				}
				catch (IOException | RuntimeException ex) {
					try {
						Files.deleteIfExists(target);
					}
					catch (IOException suppressed) {
						ex.addSuppressed(suppressed);
					}
					throw ex;
				}
				return;
			}
		}
		catch (NoSuchFileException ex) {
			// no packed-refs: the merge writes the new values alone
		}
		FilesPacker.writeMerged(objects, full.get(), written, dropped, target, fsync);
	}

	/** A record left out ({@code record == null}) or put in, and where it goes. */
	private static final class Edit {

		final byte[] name;

		final byte[] record;

		long at;

		Edit(byte[] name, byte[] record) {
			this.name = name;
			this.record = record;
		}

	}

	/** The edits in name order, each new record formatted as git writes it. */
	private static List<Edit> edits(List<byte[]> dropped, List<DirectRef> written, ObjectDatabase objects,
			int hexLength) throws IOException {
		List<Edit> edits = new ArrayList<>(dropped.size() + written.size());
		for (byte[] name : dropped) {
			edits.add(new Edit(name, null));
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		PackedRefsWriter writer = new PackedRefsWriter(bytes, hexLength);
		for (DirectRef ref : written) {
			bytes.reset();
			byte[] name = ref.name().getBytes(StandardCharsets.UTF_8);
			writer.write(name, 0, name.length, ref.id(), objects.peel(ref.id()));
			edits.add(new Edit(name, bytes.toByteArray()));
		}
		edits.sort((a, b) -> Arrays.compareUnsigned(a.name, b.name));
		return edits;
	}

	/**
	 * git's header, then the records with the edits made: the runs between them copied
	 * channel to channel.
	 */
	private static void copyEdited(FileChannel in, int start, long size, List<Edit> edits, Path target, boolean fsync)
			throws IOException {
		try (FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			PackedRefsWriter.writeFully(out, ByteBuffer.wrap(PackedRefs.HEADER));
			long from = start;
			for (Edit edit : edits) {
				long recordStart = edit.at >>> 32;
				transfer(in, from, recordStart - from, out);
				if (edit.record != null) {
					PackedRefsWriter.writeFully(out, ByteBuffer.wrap(edit.record));
				}
				from = edit.at & 0xffffffffL;
			}
			transfer(in, from, size - from, out);
			if (fsync) {
				Fsync.force(out);
			}
		}
	}

	/**
	 * The whole {@code packed-refs} as one snapshot, read only when the fast path cannot
	 * be taken.
	 */
	@FunctionalInterface
	interface PackedSource {

		PackedRefs get() throws IOException;

	}

	private static final byte[] HEADER_PREFIX = "# pack-refs with:".getBytes(StandardCharsets.US_ASCII);

	/**
	 * Where the records of a mapped file start, if its header promises sorted and fully
	 * peeled records and it ends with a newline; else -1.
	 */
	private static int sortedFullyPeeledStart(ByteBuffer buf) {
		int length = buf.capacity();
		if (buf.get(length - 1) != '\n' || buf.get(0) != '#') {
			return -1;
		}
		int eol = 0;
		while (eol < length && buf.get(eol) != '\n') {
			eol++;
		}
		byte[] header = new byte[eol];
		buf.get(0, header);
		if (!Arrays.equals(header, 0, Math.min(eol, HEADER_PREFIX.length), HEADER_PREFIX, 0, HEADER_PREFIX.length)) {
			return -1;
		}
		String traits = " "
				+ new String(header, HEADER_PREFIX.length, eol - HEADER_PREFIX.length, StandardCharsets.US_ASCII) + " ";
		return (traits.contains(" sorted ") && traits.contains(" fully-peeled ")) ? eol + 1 : -1;
	}

	/**
	 * Binary search of a mapped sorted file for the record named {@code key}.
	 * @return the record's start in the high 32 bits and its end (after a peeled line) in
	 * the low ones, or -1
	 */
	private static long findRecord(Path file, ByteBuffer buf, int start, byte[] key, int hexLength)
			throws CorruptRefStoreException {
		long located = locate(file, buf, start, key, hexLength);
		return ((located >>> 32) == (located & 0xffffffffL)) ? -1 : located;
	}

	/**
	 * Binary search of a mapped sorted file for where the record named {@code key} is or
	 * would go.
	 * @return the record's start in the high 32 bits and its end (after a peeled line) in
	 * the low ones; both the start of the first record after it if there is none
	 */
	private static long locate(Path file, ByteBuffer buf, int start, byte[] key, int hexLength)
			throws CorruptRefStoreException {
		int length = buf.capacity();
		int lo = start;
		int hi = length;
		while (lo < hi) {
			int record = lineStart(buf, lo + (hi - lo) / 2, lo);
			if (buf.get(record) == '^' && record > lo) {
				record = lineStart(buf, record - 1, lo);
			}
			int eol = lineEnd(buf, record);
			if (eol - record <= hexLength + 1 || buf.get(record + hexLength) != ' ' || buf.get(record) == '^') {
				long line = 1;
				for (int i = 0; i < record; i++) {
					line += (buf.get(i) == '\n') ? 1 : 0;
				}
				throw badLine(file, line, "not a ref line ('<object id> <ref name>')", buf, record);
			}
			int next = eol + 1;
			int end = (next < length && buf.get(next) == '^') ? lineEnd(buf, next) + 1 : next;
			int cmp = compare(buf, record + hexLength + 1, eol, key);
			if (cmp == 0) {
				return ((long) record << 32) | end;
			}
			if (cmp < 0) {
				lo = end;
			}
			else {
				hi = record;
			}
		}
		return ((long) lo << 32) | lo;
	}

	/** 0 for an ASCII hex digit, 1 for any other byte. */
	private static final byte[] NOT_HEX = notHexTable();

	private static byte[] notHexTable() {
		byte[] table = new byte[256];
		java.util.Arrays.fill(table, (byte) 1);
		for (char c : "0123456789abcdefABCDEF".toCharArray()) {
			table[c] = 0;
		}
		return table;
	}

	/**
	 * Checks that every line after the header is a ref line ({@code <hex> SP <name>}) or
	 * a peeled line ({@code ^<hex>}) right after one, as {@link PackedRefs#checkRecord}
	 * does record by record.
	 * @throws CorruptRefStoreException naming the first damaged line
	 */
	private static void checkLines(Path file, ByteBuffer buf, int start, int hexLength)
			throws CorruptRefStoreException {
		int size = buf.capacity();
		byte[] chunk = new byte[1 << 20];
		long line = 2;
		boolean afterRef = false;
		int pos = start;
		while (pos < size) {
			int length = Math.min(chunk.length, size - pos);
			buf.get(pos, chunk, 0, length);
			int i = 0;
			while (true) {
				int eol;
				boolean started = i + hexLength + 1 < length;
				if (started) {
					// the id is checked first, so the search for the line's end starts
					// after it
					String problem = checkStart(chunk, i, hexLength, afterRef);
					if (problem != null) {
						throw badLine(file, line, problem, buf, pos + i);
					}
					eol = i + hexLength + 1;
				}
				else {
					eol = i;
				}
				while (eol < length && chunk[eol] != '\n') {
					eol++;
				}
				if (eol == length) {
					break;
				}
				// after a good start only an empty name is left to find
				String problem = !started ? checkLine(chunk, i, eol, hexLength, afterRef)
						: (chunk[i] != '^' && eol == i + hexLength + 1) ? "not a ref line ('<object id> <ref name>')"
								: null;
				if (problem != null) {
					throw badLine(file, line, problem, buf, pos + i);
				}
				afterRef = chunk[i] != '^';
				line++;
				i = eol + 1;
			}
			if (i == 0) {
				// one line longer than the chunk
				chunk = new byte[2 * chunk.length];
				continue;
			}
			pos += i;
		}
	}

	/**
	 * What is wrong with the start of the line at {@code from} (its first
	 * {@code hexLength + 2} bytes are in {@code chunk}): a peeled line must be
	 * {@code ^<hex>} and end there, a ref line must start with {@code <hex> SP};
	 * {@code null} if the start is fine.
	 */
	private static String checkStart(byte[] chunk, int from, int hexLength, boolean afterRef) {
		if (chunk[from] == '^') {
			if (!afterRef) {
				return "peeled line without a ref line before it";
			}
			return (isHex(chunk, from + 1, hexLength) && chunk[from + hexLength + 1] == '\n') ? null
					: "not a peeled line ('^<object id>')";
		}
		boolean ok = isHex(chunk, from, hexLength)
				&& (chunk[from + hexLength] == ' ' || chunk[from + hexLength] == '\t');
		return ok ? null : "not a ref line ('<object id> <ref name>')";
	}

	/** What is wrong with the line {@code chunk[from .. eol)}, or {@code null}. */
	private static String checkLine(byte[] chunk, int from, int eol, int hexLength, boolean afterRef) {
		if (chunk[from] == '^') {
			if (!afterRef) {
				return "peeled line without a ref line before it";
			}
			return (eol - from == hexLength + 1 && isHex(chunk, from + 1, hexLength)) ? null
					: "not a peeled line ('^<object id>')";
		}
		boolean ok = eol - from > hexLength + 1 && (chunk[from + hexLength] == ' ' || chunk[from + hexLength] == '\t')
				&& isHex(chunk, from, hexLength);
		return ok ? null : "not a ref line ('<object id> <ref name>')";
	}

	private static boolean isHex(byte[] chunk, int from, int length) {
		int bad = 0;
		for (int i = from, end = from + length; i < end; i++) {
			bad |= NOT_HEX[chunk[i] & 0xff];
		}
		return bad == 0;
	}

	private static int lineStart(ByteBuffer buf, int pos, int floor) {
		int line = pos;
		while (line > floor && buf.get(line - 1) != '\n') {
			line--;
		}
		return line;
	}

	private static int lineEnd(ByteBuffer buf, int from) {
		int length = buf.capacity();
		int i = from;
		while (i < length && buf.get(i) != '\n') {
			i++;
		}
		return i;
	}

	private static int compare(ByteBuffer buf, int from, int to, byte[] key) {
		int n = Math.min(to - from, key.length);
		for (int i = 0; i < n; i++) {
			int diff = (buf.get(from + i) & 0xff) - (key[i] & 0xff);
			if (diff != 0) {
				return diff;
			}
		}
		return (to - from) - key.length;
	}

	/**
	 * git's header, then every byte of the records except the found ones, copied channel
	 * to channel.
	 */
	private static void copyRuns(FileChannel in, int start, long size, long[] records, int found, Path target,
			boolean fsync) throws IOException {
		try (FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			PackedRefsWriter.writeFully(out, ByteBuffer.wrap(PackedRefs.HEADER));
			long from = start;
			for (int i = 0; i <= found; i++) {
				long to = (i < found) ? records[i] >>> 32 : size;
				transfer(in, from, to - from, out);
				if (i < found) {
					from = records[i] & 0xffffffffL;
				}
			}
			if (fsync) {
				Fsync.force(out);
			}
		}
	}

	/**
	 * The damage of the line at {@code start}: numbered in refstore's message, shown in
	 * git's.
	 */
	private static CorruptRefStoreException badLine(Path file, long line, String problem, ByteBuffer buf, int start) {
		int end = start;
		while (end < buf.limit() && buf.get(end) != '\n' && end - start < 200) {
			end++;
		}
		byte[] text = new byte[end - start];
		buf.get(start, text);
		return new CorruptRefStoreException(file, line, "line " + line + ": " + problem)
			.withGitMessage(PackedRefs.gitLineMessage("unexpected", file, new String(text, StandardCharsets.UTF_8)));
	}

	private static void transfer(FileChannel in, long position, long count, FileChannel out) throws IOException {
		long done = 0;
		while (done < count) {
			long n = in.transferTo(position + done, count - done, out);
			if (n <= 0) {
				throw new IOException(
						"could not copy " + (count - done) + " bytes of packed-refs at offset " + (position + done));
			}
			done += n;
		}
	}

}
