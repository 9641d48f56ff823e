package io.refstore.core.reftable.format;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges the cursors of several tables (index 0 = oldest) into one stream in key order.
 * On equal keys the newest table's record wins and the others are skipped (shadowed).
 * Tombstones either are dropped (normal reads) or come through (a compaction must carry
 * them forward).
 *
 * <p>
 * With a single table no queue is built. The winning cursor is advanced only when the
 * next record is asked for, so the record handed out stays the sub-cursor's own and
 * nothing is copied.
 *
 * <p>
 * Not thread-safe.
 */
final class MergedCursor<R extends BlockRecord> implements RecordCursor<R> {

	private final List<TableCursor<R>> cursors;

	private final boolean suppressDeletions;

	private final PriorityQueue<Sub<R>> queue;

	private Sub<R> current;

	private boolean started;

	MergedCursor(List<TableCursor<R>> cursors, boolean suppressDeletions) {
		this.cursors = cursors;
		this.suppressDeletions = suppressDeletions;
		this.queue = (cursors.size() > 1) ? new PriorityQueue<>(cursors.size(), MergedCursor::compare) : null;
	}

	private static int compare(Sub<?> a, Sub<?> b) {
		BlockRecord x = a.cursor.record();
		BlockRecord y = b.cursor.record();
		int c = Arrays.compareUnsigned(x.key, 0, x.keyLength, y.key, 0, y.keyLength);
		return (c != 0) ? c : Integer.compare(b.table, a.table);
	}

	@Override
	public boolean next() throws IOException {
		if (this.queue == null) {
			return nextOfOne();
		}
		if (!this.started) {
			this.started = true;
			for (int i = 0; i < this.cursors.size(); i++) {
				offer(new Sub<>(this.cursors.get(i), i));
			}
		}
		else if (this.current != null) {
			offer(this.current);
			this.current = null;
		}
		for (Sub<R> top = this.queue.poll(); top != null; top = this.queue.poll()) {
			skipShadowed(top.cursor.record());
			if (this.suppressDeletions && top.cursor.record().valueType() == 0) {
				offer(top);
				continue;
			}
			this.current = top;
			return true;
		}
		return false;
	}

	private boolean nextOfOne() throws IOException {
		TableCursor<R> only = this.cursors.get(0);
		while (only.next()) {
			if (!this.suppressDeletions || only.record().valueType() != 0) {
				this.current = new Sub<>(only, 0);
				return true;
			}
		}
		return false;
	}

	/** Advances {@code sub} and puts it back in the queue unless it is exhausted. */
	private void offer(Sub<R> sub) throws IOException {
		if (sub.cursor.next()) {
			this.queue.add(sub);
		}
	}

	/** Drops the records of older tables that have the winner's key. */
	private void skipShadowed(BlockRecord winner) throws IOException {
		for (Sub<R> next = this.queue.peek(); next != null
				&& sameKey(next.cursor.record(), winner); next = this.queue.peek()) {
			this.queue.poll();
			offer(next);
		}
	}

	private static boolean sameKey(BlockRecord a, BlockRecord b) {
		return Arrays.equals(a.key, 0, a.keyLength, b.key, 0, b.keyLength);
	}

	@Override
	public R record() {
		return this.current.cursor.record();
	}

	@Override
	public void close() {
		for (TableCursor<R> cursor : this.cursors) {
			cursor.close();
		}
	}

	/** One table's cursor and its position in the stack. */
	private static final class Sub<R extends BlockRecord> {

		final TableCursor<R> cursor;

		final int table;

		Sub(TableCursor<R> cursor, int table) {
			this.cursor = cursor;
			this.table = table;
		}

	}

}
