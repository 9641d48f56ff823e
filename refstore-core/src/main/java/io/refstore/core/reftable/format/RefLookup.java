package io.refstore.core.reftable.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Lookups of refs and of whether they have logs in a stack of tables, as
 * {@link MergedTable#exactRef}, {@link MergedTable#refsWithPrefix} and
 * {@link MergedTable#logsFor} answer them, through one cursor per table that each lookup
 * moves on from where the last one left it. Asked in ascending order of names that lie
 * close together (the refs of one chunk, their parents, the names below them), a lookup
 * steps through the block the last one ended in instead of descending each table's index
 * from its root; asked out of order, it seeks as a new cursor would.
 *
 * <p>
 * Not thread-safe; closed by its user. It does not own the tables.
 */
public final class RefLookup implements AutoCloseable {

	private final List<ReftableReader> tables;

	/** One per table, opened on first use. */
	private final TableCursor<RefRecord>[] cursors;

	/** One per table, opened on first use. */
	private final TableCursor<LogRecord>[] logCursors;

	private byte[] from = new byte[64];

	@SuppressWarnings("unchecked")
	RefLookup(List<ReftableReader> tables) {
		this.tables = tables;
		this.cursors = new TableCursor[tables.size()];
		this.logCursors = new TableCursor[tables.size()];
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
		RefRecord first = firstLive(bound, bound.length, bound.length, this::cursor, RefRecord::isDeletion);
		return (first != null) ? new String(first.key, 0, first.keyLength, StandardCharsets.UTF_8) : null;
	}

	/** Whether the ref {@code name} has a live log entry. */
	public boolean hasLog(String name) throws IOException {
		// the smallest key of the ref's entries: its name, a NUL and the newest index
		LogRecord newest = LogRecord.deletion(name, -1L);
		return firstLive(newest.key, newest.keyLength, newest.keyLength - 8, this::logCursor,
				LogRecord::isDeletion) != null;
	}

	/**
	 * The first live record at or after {@code start} whose key starts with
	 * {@code start[0, bound)}: the smallest such key of any table, decided by the newest
	 * table that has it; a tombstone there hides it, and the search goes on after it.
	 */
	private <R extends BlockRecord> R firstLive(byte[] start, int startLength, int bound, Table<R> cursors,
			Predicate<R> deleted) throws IOException {
		int fromLength = startLength;
		ensureFrom(fromLength);
		System.arraycopy(start, 0, this.from, 0, fromLength);
		while (true) {
			R first = null;
			for (int i = this.cursors.length - 1; i >= 0; i--) {
				TableCursor<R> cursor = cursors.cursor(i).seekForward(this.from, fromLength);
				if (cursor.next() && cursor.record().keyStartsWith(start, bound)
						&& (first == null || first.compareKey(cursor.record().key, cursor.record().keyLength) > 0)) {
					first = cursor.record();
				}
			}
			if (first == null || !deleted.test(first)) {
				return first;
			}
			// a deleted key: go on from the smallest key after it
			fromLength = first.keyLength + 1;
			ensureFrom(fromLength);
			System.arraycopy(first.key, 0, this.from, 0, first.keyLength);
			this.from[first.keyLength] = 0;
		}
	}

	/** The cursor of table {@code i} of one section. */
	@FunctionalInterface
	private interface Table<R extends BlockRecord> {

		TableCursor<R> cursor(int i);

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

	private TableCursor<LogRecord> logCursor(int i) {
		if (this.logCursors[i] == null) {
			this.logCursors[i] = this.tables.get(i).logCursor();
		}
		return this.logCursors[i];
	}

	@Override
	public void close() {
		for (TableCursor<?> cursor : this.cursors) {
			if (cursor != null) {
				cursor.close();
			}
		}
		for (TableCursor<?> cursor : this.logCursors) {
			if (cursor != null) {
				cursor.close();
			}
		}
	}

}
