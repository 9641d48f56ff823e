package io.refstore.core.files;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.io.Fsync;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.ObjectId;

/**
 * Writes {@code packed-refs} as git does: the header
 * {@code # pack-refs with: peeled fully-peeled sorted }, then sorted records, each tag
 * followed by its fully peeled value.
 */
final class PackedRefsWriter {

	private final OutputStream out;

	private final byte[] line;

	private final int hexLength;

	PackedRefsWriter(OutputStream out, int hexLength) throws IOException {
		this.out = out;
		this.hexLength = hexLength;
		this.line = new byte[hexLength + 2];
		out.write(PackedRefs.HEADER);
	}

	/** Writes one record; records must come in bytewise name order. */
	void write(byte[] name, int nameOffset, int nameLength, ObjectId id, ObjectId peeled) throws IOException {
		writeRaw(name, nameOffset, nameLength, id.toRaw(), (peeled != null) ? peeled.toRaw() : null);
	}

	/** Writes one record from raw id bytes ({@code peeled} may be {@code null}). */
	void writeRaw(byte[] name, int nameOffset, int nameLength, byte[] id, byte[] peeled) throws IOException {
		ObjectId.encodeHex(id, 0, this.hexLength / 2, this.line, 0);
		this.line[this.hexLength] = ' ';
		this.out.write(this.line, 0, this.hexLength + 1);
		this.out.write(name, nameOffset, nameLength);
		this.out.write('\n');
		if (peeled != null) {
			this.line[0] = '^';
			ObjectId.encodeHex(peeled, 0, this.hexLength / 2, this.line, 1);
			this.line[this.hexLength + 1] = '\n';
			this.out.write(this.line, 0, this.hexLength + 2);
		}
	}

	/**
	 * Writes the content of {@code packed} without the records named in {@code deleted}
	 * (sorted or not) to {@code target}, a new file. Runs of kept records are copied from
	 * the snapshot straight into the file when it was written fully peeled, with no copy
	 * in memory; otherwise each kept record is peeled through the object database, since
	 * the new header promises it.
	 * @param fsync whether to force {@code target} to the disk once written
	 * @return whether a deleted name is packed; if not, nothing is written (there is
	 * nothing to rewrite)
	 * @throws CorruptRefStoreException if a record of {@code packed} is damaged (nothing
	 * is left at {@code target} then)
	 */
	static boolean writeWithout(PackedRefs packed, List<byte[]> deleted, ObjectDatabase objects, Path target,
			boolean fsync) throws IOException {
		deleted.sort(Arrays::compareUnsigned);
		int[] records = new int[deleted.size()];
		int found = 0;
		for (byte[] name : deleted) {
			int record = packed.find(name, name.length);
			if (record >= 0) {
				records[found++] = record;
			}
		}
		if (found == 0) {
			return false;
		}
		boolean verbatim = packed.traits.fullyPeeled() && packed.start > 0;
		if (verbatim) {
			// copied verbatim below, so check every record first: a damaged file is
			// reported, never rewritten
			for (int record = packed.start; record < packed.buf.length; record = packed.nextRecord(record)) {
				packed.checkRecord(record);
			}
		}
		boolean done = false;
		try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			if (verbatim) {
				writeRuns(packed, records, found, channel);
			}
			else {
				rewrite(packed, records, found, objects, channel);
			}
			if (fsync) {
				Fsync.force(channel);
			}
			done = true;
		}
		finally {
			if (!done) {
				Files.deleteIfExists(target);
			}
		}
		return true;
	}

	/**
	 * The header, then the runs of records between the deleted ones, each written
	 * straight from the buffer.
	 */
	private static void writeRuns(PackedRefs packed, int[] records, int found, FileChannel channel) throws IOException {
		writeFully(channel, ByteBuffer.wrap(PackedRefs.HEADER));
		int from = packed.start;
		for (int i = 0; i <= found; i++) {
			int to = (i < found) ? records[i] : packed.buf.length;
			writeFully(channel, ByteBuffer.wrap(packed.buf, from, to - from));
			if (i < found) {
				from = packed.nextRecord(records[i]);
			}
		}
	}

	private static void rewrite(PackedRefs packed, int[] records, int found, ObjectDatabase objects,
			FileChannel channel) throws IOException {
		OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
		PackedRefsWriter writer = new PackedRefsWriter(out, packed.hash.hexLength());
		int next = 0;
		for (int record = packed.start; record < packed.buf.length; record = packed.nextRecord(record)) {
			if (next < found && records[next] == record) {
				next++;
				continue;
			}
			packed.checkRecord(record);
			ObjectId id = packed.id(record);
			ObjectId peeled = packed.hasPeeled(record) ? packed.peeled(record) : objects.peel(id);
			int nameStart = packed.nameStart(record);
			writer.write(packed.buf, nameStart, packed.nameEnd(record) - nameStart, id, peeled);
		}
		out.flush();
	}

	static void writeFully(FileChannel channel, ByteBuffer buf) throws IOException {
		while (buf.hasRemaining()) {
			channel.write(buf);
		}
	}

}
