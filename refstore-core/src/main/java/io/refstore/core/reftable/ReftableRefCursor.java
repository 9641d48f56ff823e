package io.refstore.core.reftable;

import java.io.IOException;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;

/**
 * A {@link RefCursor} over ref records that have no tombstones among them (a merged
 * cursor that suppresses deletions). The buffers are the records' own: nothing is copied
 * per ref.
 */
final class ReftableRefCursor implements RefCursor {

	private final RecordCursor<RefRecord> records;

	private final HashAlgorithm hash;

	ReftableRefCursor(RecordCursor<RefRecord> records, HashAlgorithm hash) {
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
	 * git writes the peeled value of every tag it stores (value type 2), so a direct ref
	 * without one is no tag.
	 */
	@Override
	public boolean peelKnown() {
		return true;
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
