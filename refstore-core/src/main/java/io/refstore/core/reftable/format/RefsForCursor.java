package io.refstore.core.reftable.format;

import java.io.IOException;
import java.util.Arrays;

/**
 * The ref records of one table whose value or peeled value is a given object id. With an
 * object index only the ref blocks listed for the id are read; without one (small tables,
 * or an obj record too large to list its blocks) every ref is scanned.
 *
 * <p>
 * Not thread-safe.
 */
final class RefsForCursor implements RecordCursor<RefRecord> {

	private final byte[] id;

	private final int hashSize;

	private final TableCursor<RefRecord> scan;

	private final BlockReader block;

	private final long[] positions;

	private final RefRecord record = new RefRecord();

	private int nextPosition;

	private boolean inBlock;

	private RefsForCursor(ReftableReader table, byte[] id, TableCursor<RefRecord> scan, long[] positions) {
		this.id = id;
		this.hashSize = table.hashAlgorithm().rawLength();
		this.scan = scan;
		this.positions = positions;
		this.block = (positions != null) ? new BlockReader(table) : null;
	}

	static RefsForCursor open(ReftableReader table, byte[] id) throws IOException {
		if (table.hasObjectIndex()) {
			int n = table.objIdLength();
			try (TableCursor<ObjRecord> objs = table.objCursor().seek(id, n)) {
				if (!objs.next() || objs.record().compareKey(id, n) != 0) {
					return new RefsForCursor(table, id, null, new long[0]);
				}
				ObjRecord obj = objs.record();
				if (obj.count > 0) {
					return new RefsForCursor(table, id, null, Arrays.copyOf(obj.positions, obj.count));
				}
			}
		}
		return new RefsForCursor(table, id, table.refCursor().seekToStart(), null);
	}

	@Override
	public boolean next() throws IOException {
		while (nextCandidate()) {
			if (matches()) {
				return true;
			}
		}
		return false;
	}

	private boolean nextCandidate() throws IOException {
		if (this.scan != null) {
			return this.scan.next();
		}
		while (!this.inBlock || !this.block.next(this.record)) {
			if (this.nextPosition == this.positions.length) {
				return false;
			}
			this.block.load(this.positions[this.nextPosition++], ReftableConstants.BLOCK_TYPE_REF, true);
			this.inBlock = true;
		}
		return true;
	}

	private boolean matches() {
		RefRecord rec = record();
		return rec.hasId() && (Arrays.equals(rec.idBuffer(), 0, this.hashSize, this.id, 0, this.hashSize)
				|| (rec.valueType() == RefRecord.VALUE_PEELED
						&& Arrays.equals(rec.peeledBuffer(), 0, this.hashSize, this.id, 0, this.hashSize)));
	}

	@Override
	public RefRecord record() {
		return (this.scan != null) ? this.scan.record() : this.record;
	}

	@Override
	public void close() {
		if (this.scan != null) {
			this.scan.close();
		}
		if (this.block != null) {
			this.block.close();
		}
	}

}
