package io.refstore.core.reftable;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.refstore.core.io.LockFailedException;
import io.refstore.core.io.LockFile;
import io.refstore.core.ref.PackLockedException;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.MergedTable;
import io.refstore.core.reftable.format.RecordCursor;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableConstants;
import io.refstore.core.reftable.format.ReftableReader;

/**
 * Compaction of a {@link ReftableStack}, as git does it.
 * <ol>
 * <li>Lock {@code tables.list}; check the planned tables are still listed.</li>
 * <li>Lock each table ({@code
 *
<table>
 * .lock}), newest first; a table another process holds ends the run (automatic compaction
 * then merges only the newer tables it got, if at least two).</li>
 * <li>Release {@code tables.list.lock}, so writers can append while the merge runs.</li>
 * <li>Merge the locked tables into a new one spanning their update indices, under a
 * temporary name; tombstones are dropped only when the oldest table of the stack is
 * included (nothing older can be hidden by them).</li>
 * <li>Lock {@code tables.list} again; find the merged tables as a contiguous run in the
 * current list.</li>
 * <li>Name the new table, and replace the run by it (or by nothing if every record
 * cancelled out).</li>
 * <li>Reload, then delete the merged tables and release their locks.</li>
 * </ol>
 * No ref or log record is lost at any step: until step 6 the old tables are listed; after
 * it the new one is.
 */
final class StackCompactor {

	private static final Pattern TABLE_NAME = Pattern.compile("0x([0-9a-f]{12})-0x([0-9a-f]{12})-[0-9a-f]{8}\\.ref");

	private final ReftableStack stack;

	/**
	 * Whether the merged table, the list and the directory are forced whatever
	 * {@code core.fsync} says.
	 */
	private final boolean force;

	StackCompactor(ReftableStack stack, boolean force) {
		this.stack = stack;
		this.force = force;
	}

	/**
	 * Merges the run of tables git's geometric policy picks; silently does less if tables
	 * are locked.
	 */
	void autoCompact() throws IOException {
		autoCompactAbove(Set.of());
	}

	/**
	 * As {@link #autoCompact()}, over the tables above the last one of {@code base}
	 * alone: those listed after every table {@code base} names. The tables of
	 * {@code base} are never merged.
	 */
	void autoCompactAbove(Set<String> base) throws IOException {
		List<String> names;
		int[] segment;
		try (ReftableStack.Snapshot snapshot = this.stack.snapshot()) {
			names = snapshot.names();
			int from = names.size();
			while (from > 0 && !base.contains(names.get(from - 1))) {
				from--;
			}
			List<Long> sizes = sizes(snapshot);
			segment = geometricSegment(sizes.subList(from, sizes.size()), this.stack.options().geometricFactor());
			if (segment != null) {
				segment[0] += from;
				segment[1] += from;
			}
		}
		if (segment != null) {
			compact(names.subList(segment[0], segment[1]), true);
		}
	}

	/**
	 * The stack's statistics, with maintenance due when {@link #autoCompact()} would
	 * merge tables.
	 */
	StoreStatistics statistics() throws IOException {
		try (ReftableStack.Snapshot snapshot = this.stack.snapshot()) {
			long bytes = 0;
			for (ReftableStack.Table table : snapshot.tables) {
				bytes += table.size;
			}
			int factor = this.stack.options().geometricFactor();
			int[] segment = geometricSegment(sizes(snapshot), factor);
			int tables = snapshot.tables.size();
			String reason = (segment != null)
					? "tables " + (segment[0] + 1) + " to " + segment[1] + " of " + tables
							+ " break the geometric sequence (factor " + factor + ")"
					: tables + " table" + ((tables == 1) ? "" : "s") + " in a geometric sequence (factor " + factor
							+ ")";
			return new StoreStatistics(RefFormat.REFTABLE, 0, 0, tables, bytes, segment != null, reason);
		}
	}

	/**
	 * The sizes git's geometric rule compares: each table without its footer and most of
	 * its header.
	 */
	private static List<Long> sizes(ReftableStack.Snapshot snapshot) {
		List<Long> sizes = new ArrayList<>();
		for (ReftableStack.Table table : snapshot.tables) {
			int version = table.reader.version();
			sizes.add(table.size - ReftableConstants.footerSize(version) - (ReftableConstants.headerSize(version) - 1));
		}
		return sizes;
	}

	/**
	 * git's choice of tables to merge: {@code [start, end)}, or {@code null} when the
	 * sizes already form a geometric sequence.
	 */
	static int[] geometricSegment(List<Long> sizes, int factor) {
		int n = sizes.size();
		if (n < 2) {
			return null;
		}
		int end = -1;
		long total = 0;
		int i = n - 1;
		for (; i > 0; i--) {
			if (sizes.get(i - 1) < factor * sizes.get(i)) {
				end = i + 1;
				total = sizes.get(i);
				break;
			}
		}
		if (end < 0) {
			return null;
		}
		int start = end - 1;
		for (; i > 0; i--) {
			long previous = total;
			total += sizes.get(i - 1);
			if (sizes.get(i - 1) < factor * previous) {
				start = i - 1;
			}
		}
		return (end - start >= 2) ? new int[] { start, end } : null;
	}

	/**
	 * Merges the whole stack into one table, then removes unlisted leftovers; fails on a
	 * held lock.
	 */
	void compactAll() throws IOException {
		List<String> names;
		try (ReftableStack.Snapshot snapshot = this.stack.snapshot()) {
			names = snapshot.names();
		}
		if (names.size() >= 2) {
			compact(names, false);
		}
		clean();
	}

	private void compact(List<String> planned, boolean bestEffort) throws IOException {
		List<LockFile> tableLocks = new ArrayList<>();
		List<String> run;
		boolean keepTombstones;
		try {
			try (LockFile listLock = lockList(bestEffort)) {
				if (listLock == null) {
					return;
				}
				this.stack.reload();
				List<String> current = currentNames();
				if (Collections.indexOfSubList(current, planned) < 0) {
					return;
				}
				run = lockTables(planned, tableLocks, bestEffort);
				if (run.size() < 2) {
					return;
				}
				// tombstones may only go when nothing older remains for them to hide
				keepTombstones = !current.get(0).equals(run.get(0));
			}
			Merged merged = merge(run, keepTombstones);
			try (LockFile listLock = lockList(bestEffort)) {
				if (listLock == null) {
					// another writer holds the list now: the stack stays as it was, only
					// less compact (the
					// write that asked for this compaction is committed already and must
					// not fail for it)
					discard(merged);
					return;
				}
				List<String> names = this.stack.readList();
				int at = Collections.indexOfSubList(names, run);
				if (at < 0) {
					discard(merged);
					return;
				}
				List<String> next = new ArrayList<>(names.subList(0, at));
				if (merged != null) {
					// named only now, under the list's lock: a table named before could
					// be taken for a leftover
					// and removed by a cleaner holding the lock meanwhile (this class's
					// clean(), or git's)
					next.add(this.stack.publish(merged.temp(), merged.min(), merged.max()));
				}
				next.addAll(names.subList(at + run.size(), names.size()));
				this.stack.writeList(listLock, next, this.force);
			}
			this.stack.reload();
			for (String name : run) {
				Files.deleteIfExists(this.stack.dir().resolve(name));
			}
		}
		finally {
			tableLocks.forEach(LockFile::rollback);
		}
	}

	private List<String> currentNames() throws IOException {
		try (ReftableStack.Snapshot snapshot = this.stack.snapshot()) {
			return snapshot.names();
		}
	}

	private LockFile lockList(boolean bestEffort) throws IOException {
		try {
			return LockFile.acquire(this.stack.dir().resolve(ReftableStack.TABLES_LIST),
					this.stack.options().lockTimeout(), this.stack.options().owner());
		}
		catch (LockFailedException ex) {
			if (bestEffort) {
				return null;
			}
			throw new PackLockedException(ex.lockFile(), ex);
		}
	}

	/**
	 * Locks tables newest first; returns the contiguous run of newest tables it locked.
	 */
	private List<String> lockTables(List<String> planned, List<LockFile> locks, boolean bestEffort) throws IOException {
		int first = planned.size();
		for (int i = planned.size() - 1; i >= 0; i--) {
			try {
				locks.add(LockFile.acquire(this.stack.dir().resolve(planned.get(i)), Duration.ZERO,
						this.stack.options().owner()));
				first = i;
			}
			catch (LockFailedException ex) {
				if (!bestEffort) {
					throw new PackLockedException(ex.lockFile(), ex);
				}
				break;
			}
		}
		return planned.subList(first, planned.size());
	}

	/** A merged table not yet named, and the update indices it spans. */
	private record Merged(Path temp, long min, long max) {
	}

	private static void discard(Merged merged) throws IOException {
		if (merged != null) {
			Files.deleteIfExists(merged.temp());
		}
	}

	/**
	 * Writes the merge of {@code run} as a new, unnamed table; {@code null} if nothing
	 * survived.
	 */
	private Merged merge(List<String> run, boolean keepTombstones) throws IOException {
		try (ReftableStack.Snapshot snapshot = this.stack.snapshot()) {
			List<ReftableReader> readers = new ArrayList<>();
			for (ReftableStack.Table table : snapshot.tables) {
				if (run.contains(table.name)) {
					readers.add(table.reader);
				}
			}
			MergedTable merged = new MergedTable(readers);
			long min = readers.get(0).minUpdateIndex();
			long max = readers.get(readers.size() - 1).maxUpdateIndex();
			Path temp = this.stack.writeUnpublished(min, max, this.force || this.stack.options().fsync(), (writer) -> {
				boolean any = false;
				try (RecordCursor<RefRecord> refs = merged.allRefs(keepTombstones)) {
					while (refs.next()) {
						writer.addRef(refs.record());
						any = true;
					}
				}
				try (RecordCursor<LogRecord> logs = merged.allLogs(keepTombstones)) {
					while (logs.next()) {
						writer.addLog(logs.record());
						any = true;
					}
				}
				return any;
			});
			return (temp != null) ? new Merged(temp, min, max) : null;
		}
	}

	/**
	 * Deletes {@code *.ref} files that are not listed and are older than the stack's
	 * newest table.
	 */
	private void clean() throws IOException {
		LockFile held;
		try {
			held = LockFile.acquire(this.stack.dir().resolve(ReftableStack.TABLES_LIST),
					this.stack.options().lockTimeout(), this.stack.options().owner());
		}
		catch (LockFailedException ex) {
			// leftovers wait for the next compaction: a stack with nothing to merge packs
			// fine under another writer's lock, as in git
			return;
		}
		try (LockFile listLock = held) {
			List<String> listed = this.stack.readList();
			long max = 0;
			for (String name : listed) {
				Matcher matcher = TABLE_NAME.matcher(name);
				if (matcher.matches()) {
					max = Math.max(max, Long.parseLong(matcher.group(2), 16));
				}
			}
			try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.stack.dir(), "*.ref")) {
				for (Path entry : entries) {
					String name = entry.getFileName().toString();
					Matcher matcher = TABLE_NAME.matcher(name);
					if (!listed.contains(name) && matcher.matches() && Long.parseLong(matcher.group(2), 16) <= max
							&& !Files.exists(entry.resolveSibling(name + ".lock"))) {
						Files.deleteIfExists(entry);
					}
				}
			}
		}
	}

}
