package io.refstore.core.reftable.format;

import java.io.IOException;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;

/**
 * A {@link RefCursor} over ref records that have no tombstones among them (a merged
 * cursor that suppresses deletions). The buffers are the records' own: nothing is copied
 * per ref.
 */
public final class ReftableRefCursor implements RefCursor {

	private final RecordCursor<RefRecord> records;

	private final HashAlgorithm hash;

	public ReftableRefCursor(RecordCursor<RefRecord> records, HashAlgorithm hash) {
		this.records = records;
		this.hash = hash;
	}

	@Override
	public boolean next() throws IOException {
		while (this.records.next()) {
			if (!this.records.record().isDeletion()) {
				return true;
			}
		}
		return false;
	}

	private RefRecord rec() {
		return this.records.record();
	}

	@Override
	public byte[] nameBuffer() {
		return rec().nameBuffer();
	}

	@Override
	public int nameLength() {
		return rec().nameLength();
	}

	@Override
	public boolean isSymbolic() {
		return rec().valueType() == RefRecord.SYMREF;
	}

	@Override
	public byte[] idBuffer() {
		return rec().idBuffer();
	}

	@Override
	public boolean hasPeeled() {
		return rec().valueType() == RefRecord.VALUE_PEELED;
	}

	/**
	 * Known only when stored (value type 2). A writer may store an annotated tag without
	 * its peeled value (value type 1): git 2.55's {@code refs migrate} does, and git then
	 * peels it from the objects when asked, as refstore's readers do when this is
	 * {@code false}.
	 */
	@Override
	public boolean peelKnown() {
		return hasPeeled();
	}

	@Override
	public byte[] peeledBuffer() {
		return rec().peeledBuffer();
	}

	@Override
	public byte[] targetBuffer() {
		return rec().targetBuffer();
	}

	@Override
	public int targetLength() {
		return rec().targetLength();
	}

	@Override
	public HashAlgorithm hashAlgorithm() {
		return this.hash;
	}

	@Override
	public void close() {
		this.records.close();
	}

}
