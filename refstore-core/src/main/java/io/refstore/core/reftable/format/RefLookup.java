package io.refstore.core.reftable.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Lookups of refs in a stack of tables, as {@link MergedTable#exactRef} and
 * {@link MergedTable#refsWithPrefix} answer them, through one cursor per table that each
 * lookup moves on from where the last one left it. Asked in ascending order of names that
 * lie close together (the refs of one chunk, their parents, the names below them), a
 * lookup steps through the block the last one ended in instead of descending each table's
 * index from its root; asked out of order, it seeks as a new cursor would.
 *
 * <p>
 * Not thread-safe; closed by its user. It does not own the tables.
 */
public final class RefLookup implements AutoCloseable {

	private final List<ReftableReader> tables;

	/** One per table, opened on first use. */
	private final TableCursor<RefRecord>[] cursors;

	private byte[] from = new byte[64];

	@SuppressWarnings("unchecked")
	RefLookup(List<ReftableReader> tables) {
		this.tables = tables;
		this.cursors = new TableCursor[tables.size()];
	}

	/**
	 * The live record of a ref, newest table first.
	 * @return a new record, or {@code null} if no table has the name or the newest record
	 * for it is a tombstone
	 */
	public RefRecord exactRef(String name) throws IOException {
		byte[] key = name.getBytes(StandardCharsets.UTF_8);
		for (int i = this.cursors.length - 1; i >= 0; i--) {
			TableCursor<RefRecord> cursor = cursor(i).seekForward(key, key.length);
			if (cursor.next() && cursor.record().compareKey(key, key.length) == 0) {
				return cursor.record().isDeletion() ? null : cursor.record().copy();
			}
		}
		return null;
	}

	/**
	 * The name of the first live ref whose name starts with {@code prefix}, or
	 * {@code null} if there is none.
	 */
	public String firstWithPrefix(String prefix) throws IOException {
		byte[] bound = prefix.getBytes(StandardCharsets.UTF_8);
		int fromLength = bound.length;
		ensureFrom(fromLength + 1);
		System.arraycopy(bound, 0, this.from, 0, fromLength);
		while (true) {
			// the smallest name at or after from under the prefix, and whether the newest
			// table that has it holds a tombstone
			RefRecord first = null;
			for (int i = this.cursors.length - 1; i >= 0; i--) {
				TableCursor<RefRecord> cursor = cursor(i).seekForward(this.from, fromLength);
				if (cursor.next() && cursor.record().keyStartsWith(bound, bound.length)
						&& (first == null || first.compareKey(cursor.record().key, cursor.record().keyLength) > 0)) {
					first = cursor.record();
				}
			}
			if (first == null) {
				return null;
			}
			if (!first.isDeletion()) {
				return new String(first.key, 0, first.keyLength, StandardCharsets.UTF_8);
			}
			// a deleted name: go on from the smallest name after it
			fromLength = first.keyLength + 1;
			ensureFrom(fromLength);
			System.arraycopy(first.key, 0, this.from, 0, first.keyLength);
			this.from[first.keyLength] = 0;
		}
	}

	private void ensureFrom(int length) {
		if (this.from.length < length) {
			this.from = Arrays.copyOf(this.from, Math.max(length, 2 * this.from.length));
		}
	}

	private TableCursor<RefRecord> cursor(int i) {
		if (this.cursors[i] == null) {
			this.cursors[i] = this.tables.get(i).refCursor();
		}
		return this.cursors[i];
	}

	@Override
	public void close() {
		for (TableCursor<RefRecord> cursor : this.cursors) {
			if (cursor != null) {
				cursor.close();
			}
		}
	}

}
