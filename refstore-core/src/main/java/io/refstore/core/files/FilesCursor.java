package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.SymbolicRef;

/**
 * Merges the sorted loose ref names with the sorted {@code packed-refs} records; a loose
 * ref hides the packed record of the same name. Packed records are decoded in place into
 * reused buffers, so iterating a million packed refs allocates nothing per ref. Broken
 * refs are skipped, as git skips them.
 */
final class FilesCursor implements RefCursor {

	private final FilesRefStore store;

	private final List<byte[]> loose;

	/** The packed records being merged: all of them, or the current chunk. */
	private PackedRefs packed;

	/** The chunks still to come of a listing that reads the file a chunk at a time. */
	private final MappedPackedRefs.Chunks chunks;

	private final byte[] prefix;

	private final byte[] startAfter;

	private int looseIndex;

	private int packedPos;

	/**
	 * The record after the one at {@link #packedPos}, as {@link #readPackedRecord} found
	 * it.
	 */
	private int packedNext;

	/** Whether the record at {@link #packedPos} has a peeled line. */
	private boolean packedHasPeeled;

	private byte[] name = new byte[256];

	private int nameLength;

	private final byte[] id;

	private final byte[] peeled;

	private boolean hasPeeled;

	private boolean peelKnown;

	private byte[] target = new byte[0];

	private int targetLength;

	private boolean symbolic;

	/** Whether broken loose refs are returned (marked) instead of skipped. */
	private final boolean includeBroken;

	private boolean broken;

	FilesCursor(FilesRefStore store, List<byte[]> loose, PackedRefs packed, RefQuery query) throws IOException {
		this(store, loose, packed, null, query);
	}

	/**
	 * A cursor over the whole store that reads {@code packed-refs} a chunk at a time, for
	 * a query without prefix or start.
	 */
	FilesCursor(FilesRefStore store, List<byte[]> loose, MappedPackedRefs.Chunks chunks, RefQuery query)
			throws IOException {
		this(store, loose, chunks.next(), chunks, query);
	}

	private FilesCursor(FilesRefStore store, List<byte[]> loose, PackedRefs packed, MappedPackedRefs.Chunks chunks,
			RefQuery query) throws IOException {
		this.store = store;
		this.loose = loose;
		this.packed = packed;
		this.chunks = chunks;
		this.prefix = query.prefix().getBytes(StandardCharsets.UTF_8);
		this.startAfter = query.startAfter().getBytes(StandardCharsets.UTF_8);
		this.includeBroken = query.includeBroken();
		HashAlgorithm hash = store.hashAlgorithm();
		this.id = new byte[hash.rawLength()];
		this.peeled = new byte[hash.rawLength()];
		byte[] seek = (Arrays.compareUnsigned(this.prefix, this.startAfter) > 0) ? this.prefix : this.startAfter;
		this.packedPos = packed.lowerBound(seek, seek.length);
		if (this.startAfter.length > 0 && this.packedPos < packed.end) {
			// the range starts strictly after the marker: step over a record named
			// exactly so
			int nameEnd = packed.checkRecord(this.packedPos);
			int nameStart = packed.nameStart(this.packedPos);
			if (Arrays.equals(packed.buf, nameStart, nameEnd, this.startAfter, 0, this.startAfter.length)) {
				this.packedPos = packed.nextRecord(this.packedPos);
			}
		}
		while (this.looseIndex < loose.size()
				&& !wanted(loose.get(this.looseIndex), 0, loose.get(this.looseIndex).length)) {
			this.looseIndex++;
		}
	}

	/** Whether a name lies in the query's range (prefix and start-after). */
	private boolean wanted(byte[] buf, int from, int to) {
		if (this.startAfter.length > 0
				&& Arrays.compareUnsigned(buf, from, to, this.startAfter, 0, this.startAfter.length) <= 0) {
			return false;
		}
		return to - from >= this.prefix.length
				&& Arrays.equals(buf, from, from + this.prefix.length, this.prefix, 0, this.prefix.length);
	}

	@Override
	public boolean next() throws IOException {
		while (true) {
			if (this.packedPos >= this.packed.end && this.chunks != null && this.chunks.hasNext()) {
				// only here, between refs: the current ref's name and ids are copies
				this.packed = this.chunks.next();
				this.packedPos = 0;
			}
			byte[] looseName = (this.looseIndex < this.loose.size()) ? this.loose.get(this.looseIndex) : null;
			boolean packedAvailable = this.packedPos < this.packed.end;
			int nameEnd = 0;
			if (packedAvailable) {
				nameEnd = readPackedRecord(this.packedPos);
				int nameStart = this.packed.nameStart(this.packedPos);
				if (!wanted(this.packed.buf, nameStart, nameEnd)) {
					packedAvailable = false;
					this.packedPos = this.packed.end;
				}
			}
			if (looseName == null && !packedAvailable) {
				return false;
			}
			int cmp = (looseName == null) ? 1 : (!packedAvailable) ? -1 : Arrays.compareUnsigned(looseName, 0,
					looseName.length, this.packed.buf, this.packed.nameStart(this.packedPos), nameEnd);
			if (cmp <= 0) {
				this.looseIndex++;
				if (cmp == 0) {
					this.packedPos = this.packedNext;
				}
				if (loadLoose(looseName)) {
					return true;
				}
			}
			else {
				int record = this.packedPos;
				this.packedPos = this.packedNext;
				if (loadPacked(record, nameEnd)) {
					return true;
				}
			}
		}
	}

	private boolean loadLoose(byte[] looseName) throws IOException {
		String refName = new String(looseName, StandardCharsets.UTF_8);
		Ref ref = LooseRefs.read(this.store.refPath(refName), refName, this.store.hashAlgorithm());
		if (ref == null || ref == LooseRefs.BROKEN) {
			if (ref == null) {
				// vanished since listing (deleted meanwhile): a packed value may still
				// exist
				Ref packedRef = FilesRefStore.readPacked(this.packed, refName);
				if (packedRef != null) {
					ref = packedRef;
				}
			}
			if (ref == LooseRefs.BROKEN && this.includeBroken) {
				setName(looseName, 0, looseName.length);
				this.broken = true;
				this.symbolic = false;
				Arrays.fill(this.id, (byte) 0);
				this.hasPeeled = false;
				this.peelKnown = false;
				return true;
			}
			if (ref == null || ref == LooseRefs.BROKEN) {
				return false;
			}
		}
		this.broken = false;
		setName(looseName, 0, looseName.length);
		if (ref instanceof SymbolicRef symbolicRef) {
			this.symbolic = true;
			this.target = symbolicRef.target().getBytes(StandardCharsets.UTF_8);
			this.targetLength = this.target.length;
			this.hasPeeled = false;
			this.peelKnown = false;
		}
		else {
			DirectRef direct = (DirectRef) ref;
			this.symbolic = false;
			direct.id().copyRawTo(this.id, 0);
			this.hasPeeled = direct.peeled() != null;
			if (this.hasPeeled) {
				direct.peeled().copyRawTo(this.peeled, 0);
			}
			this.peelKnown = this.hasPeeled;
		}
		return true;
	}

	/**
	 * Checks the packed record at {@code record} and decodes its id and peeled id into
	 * {@link #id} and {@link #peeled} (a loose ref loaded instead overwrites them),
	 * reading each line once.
	 * @return the offset of the newline ending its name; {@link #packedNext} and
	 * {@link #packedHasPeeled} are set
	 * @throws CorruptRefStoreException naming the line if it is not
	 * {@code <hex> SP <name>} or its peeled line is not {@code ^<hex>}
	 */
	private int readPackedRecord(int record) throws CorruptRefStoreException {
		byte[] buf = this.packed.buf;
		int end = this.packed.end;
		int hexLength = this.id.length * 2;
		// the file ends with a newline, so the name's end is found once the id and space
		// are there
		if (end - record <= hexLength + 1 || !ObjectId.decodeHex(buf, record, this.id, 0, this.id.length)
				|| (buf[record + hexLength] != ' ' && buf[record + hexLength] != '\t')
				|| buf[record + hexLength + 1] == '\n') {
			throw this.packed.corrupt(record, "not a ref line ('<object id> <ref name>')");
		}
		int eol = PackedRefs.indexOf(buf, record + hexLength + 1, (byte) '\n');
		int after = eol + 1;
		this.packedHasPeeled = after < end && buf[after] == '^';
		if (this.packedHasPeeled) {
			int peeledEnd = after + 1 + hexLength;
			if (peeledEnd >= end || buf[peeledEnd] != '\n'
					|| !ObjectId.decodeHex(buf, after + 1, this.peeled, 0, this.peeled.length)) {
				throw this.packed.corrupt(after, "not a peeled line ('^<object id>')");
			}
			this.packedNext = peeledEnd + 1;
		}
		else {
			this.packedNext = after;
		}
		return eol;
	}

	/**
	 * Makes the record at {@code record}, read by {@link #readPackedRecord}, the current
	 * ref.
	 */
	private boolean loadPacked(int record, int nameEnd) {
		int nameStart = this.packed.nameStart(record);
		if (RefName.violation(this.packed.buf, nameStart, nameEnd - nameStart, false) != null) {
			return false;
		}
		setName(this.packed.buf, nameStart, nameEnd - nameStart);
		this.broken = false;
		this.symbolic = false;
		this.hasPeeled = this.packedHasPeeled;
		// known only when stored, whatever the header's traits say: git 2.55 peels a
		// record without a peeled line from the objects, and its own migration to files
		// writes tags so under a "fully-peeled" header
		this.peelKnown = this.hasPeeled;
		return true;
	}

	private void setName(byte[] src, int from, int length) {
		if (this.name.length < length) {
			this.name = new byte[Math.max(length, this.name.length * 2)];
		}
		System.arraycopy(src, from, this.name, 0, length);
		this.nameLength = length;
	}

	@Override
	public byte[] nameBuffer() {
		return this.name;
	}

	@Override
	public int nameLength() {
		return this.nameLength;
	}

	@Override
	public boolean isBroken() {
		return this.broken;
	}

	@Override
	public boolean isSymbolic() {
		return this.symbolic;
	}

	@Override
	public byte[] idBuffer() {
		return this.id;
	}

	@Override
	public boolean hasPeeled() {
		return this.hasPeeled;
	}

	@Override
	public boolean peelKnown() {
		return this.peelKnown;
	}

	@Override
	public byte[] peeledBuffer() {
		return this.peeled;
	}

	@Override
	public byte[] targetBuffer() {
		return this.target;
	}

	@Override
	public int targetLength() {
		return this.targetLength;
	}

	@Override
	public HashAlgorithm hashAlgorithm() {
		return this.store.hashAlgorithm();
	}

	@Override
	public void close() {
		// nothing held open: the packed snapshot is an in-memory copy
	}

}
