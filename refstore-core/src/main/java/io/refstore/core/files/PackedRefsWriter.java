package io.refstore.core.files;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.ObjectId;

/**
 * Writes {@code packed-refs} as git does: the header {@code # pack-refs with: peeled fully-peeled sorted },
 * then sorted records, each tag followed by its fully peeled value.
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
	 * The content of {@code packed} without the records named in {@code deleted} (sorted or not).
	 * Runs of kept records are copied as they are when the file was written fully peeled; otherwise each kept
	 * record is peeled through the object database, since the new header promises it.
	 * @return the new content, or {@code null} if no deleted name is packed (nothing to rewrite)
	 */
	static byte[] without(PackedRefs packed, List<byte[]> deleted, ObjectDatabase objects) throws IOException {
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
			return null;
		}
		ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(packed.buf.length, 64));
		if (packed.fullyPeeled && packed.start > 0) {
			// copied verbatim below, so check every record first: a damaged file is reported, never rewritten
			for (int record = packed.start; record < packed.buf.length; record = packed.nextRecord(record)) {
				packed.checkRecord(record);
			}
			out.write(PackedRefs.HEADER);
			int from = packed.start;
			for (int i = 0; i < found; i++) {
				out.write(packed.buf, from, records[i] - from);
				from = packed.nextRecord(records[i]);
			}
			out.write(packed.buf, from, packed.buf.length - from);
			return out.toByteArray();
		}
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
		return out.toByteArray();
	}

}
