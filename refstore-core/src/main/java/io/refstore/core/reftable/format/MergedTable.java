package io.refstore.core.reftable.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;

/**
 * The view of a stack of tables as one: for each key the record of the newest table that
 * has it. A ref tombstone in table {@code k} hides that name in tables {@code < k}; a log
 * tombstone hides exactly the entry with its ref name and update index.
 *
 * <p>
 * Normal reads drop tombstones; the {@code includeDeletions} variants keep them, as a
 * compaction that does not include the oldest table must. The merged table holds the
 * readers but does not own them (closing is the stack's business). Immutable and
 * thread-safe; every cursor is for one thread.
 */
public final class MergedTable {

	private final List<ReftableReader> tables;

	private final HashAlgorithm hash;

	/**
	 * @param tables the tables, oldest first; all must use the same hash
	 * @throws IllegalArgumentException if the hashes differ
	 */
	public MergedTable(List<ReftableReader> tables) {
		this.tables = List.copyOf(tables);
		this.hash = this.tables.isEmpty() ? HashAlgorithm.SHA1 : this.tables.get(0).hashAlgorithm();
		for (ReftableReader table : this.tables) {
			if (table.hashAlgorithm() != this.hash) {
				throw new IllegalArgumentException("table " + table.name() + " uses "
						+ table.hashAlgorithm().configName() + ", the stack uses " + this.hash.configName());
			}
		}
	}

	/** The tables, oldest first. */
	public List<ReftableReader> tables() {
		return this.tables;
	}

	/** The hash of every table (SHA-1 for an empty stack). */
	public HashAlgorithm hashAlgorithm() {
		return this.hash;
	}

	/** The largest update index of the newest table, or 0 for an empty stack. */
	public long maxUpdateIndex() {
		return this.tables.isEmpty() ? 0 : this.tables.get(this.tables.size() - 1).maxUpdateIndex();
	}

	/**
	 * Looks up a ref, newest table first.
	 * @return a new record, or {@code null} if no table has the name or the newest record
	 * for it is a tombstone
	 */
	public RefRecord exactRef(String name) throws IOException {
		for (int i = this.tables.size() - 1; i >= 0; i--) {
			RefRecord rec = this.tables.get(i).exactRef(name);
			if (rec != null) {
				return rec.isDeletion() ? null : rec;
			}
		}
		return null;
	}

	/**
	 * Lookups of refs that go on from where the last one left each table: fast for names
	 * asked in ascending order. For one thread; closed by the caller.
	 */
	public RefLookup lookup() {
		return new RefLookup(this.tables);
	}

	/** Every live ref in name order (tombstones too if {@code includeDeletions}). */
	public RecordCursor<RefRecord> allRefs(boolean includeDeletions) throws IOException {
		return refs(new byte[0], false, includeDeletions);
	}

	/** The live refs whose names start with {@code prefix}, in name order. */
	public RecordCursor<RefRecord> refsWithPrefix(String prefix) throws IOException {
		return refs(prefix.getBytes(StandardCharsets.UTF_8), true, false);
	}

	/** The live refs from the first whose name is {@code >= name}, to the end. */
	public RecordCursor<RefRecord> seekRef(String name) throws IOException {
		return refs(name.getBytes(StandardCharsets.UTF_8), false, false);
	}

	/**
	 * The live refs whose names start with {@code prefix}, from the first whose name is
	 * {@code >= seek}.
	 */
	public RecordCursor<RefRecord> refs(byte[] prefix, byte[] seek) throws IOException {
		List<TableCursor<RefRecord>> cursors = new ArrayList<>(this.tables.size());
		try {
			for (ReftableReader table : this.tables) {
				TableCursor<RefRecord> cursor = table.refCursor();
				cursors.add(cursor);
				cursor.bound(prefix, prefix.length);
				cursor.seek(seek, seek.length);
			}
		}
		catch (IOException | RuntimeException ex) {
			cursors.forEach(TableCursor::close);
			throw ex;
		}
		return cursors.isEmpty() ? empty() : new MergedCursor<>(cursors, true);
	}

	/**
	 * The live refs under {@code prefix} as a {@link RefCursor}, the form ref stores hand
	 * out.
	 */
	public RefCursor refCursor(String prefix) throws IOException {
		return new ReftableRefCursor(refsWithPrefix(prefix), this.hash);
	}

	private RecordCursor<RefRecord> refs(byte[] key, boolean bounded, boolean includeDeletions) throws IOException {
		List<TableCursor<RefRecord>> cursors = new ArrayList<>(this.tables.size());
		try {
			for (ReftableReader table : this.tables) {
				TableCursor<RefRecord> cursor = table.refCursor();
				cursors.add(cursor);
				if (bounded) {
					cursor.bound(key, key.length);
				}
				cursor.seek(key, key.length);
			}
		}
		catch (IOException | RuntimeException ex) {
			cursors.forEach(TableCursor::close);
			throw ex;
		}
		return cursors.isEmpty() ? empty() : new MergedCursor<>(cursors, !includeDeletions);
	}

	/**
	 * Every log entry: by ref name, each ref's newest first (tombstones too if
	 * {@code includeDeletions}).
	 */
	public RecordCursor<LogRecord> allLogs(boolean includeDeletions) throws IOException {
		return logs(new byte[0], 0, false, includeDeletions);
	}

	/** The log entries of one ref, newest first. */
	public RecordCursor<LogRecord> logsFor(String refName) throws IOException {
		LogRecord want = LogRecord.deletion(refName, -1L);
		return logs(want.key, want.keyLength, true, false);
	}

	private RecordCursor<LogRecord> logs(byte[] key, int length, boolean bounded, boolean includeDeletions)
			throws IOException {
		List<TableCursor<LogRecord>> cursors = new ArrayList<>(this.tables.size());
		try {
			for (ReftableReader table : this.tables) {
				TableCursor<LogRecord> cursor = table.logCursor();
				cursors.add(cursor);
				if (bounded) {
					// the ref name and its NUL: every entry of this ref and no other
					cursor.bound(key, length - 8);
				}
				cursor.seek(key, length);
			}
		}
		catch (IOException | RuntimeException ex) {
			cursors.forEach(TableCursor::close);
			throw ex;
		}
		return cursors.isEmpty() ? empty() : new MergedCursor<>(cursors, !includeDeletions);
	}

	private static <R> RecordCursor<R> empty() {
		return new RecordCursor<>() {

			@Override
			public boolean next() {
				return false;
			}

			@Override
			public R record() {
				throw new IllegalStateException("empty cursor has no record");
			}

			@Override
			public void close() {
			}

		};
	}

}
