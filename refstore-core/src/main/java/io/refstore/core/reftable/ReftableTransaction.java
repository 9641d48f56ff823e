package io.refstore.core.reftable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

import io.refstore.core.io.LockFailedException;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.txn.Outcome;
import io.refstore.core.txn.PlannedUpdate;
import io.refstore.core.txn.RefUpdate;
import io.refstore.core.txn.ReflogEntries;
import io.refstore.core.txn.Rejection;
import io.refstore.core.txn.StagedTransaction;
import io.refstore.core.txn.UpdateChecks;

/**
 * A transaction of the reftable backend: one new table holding every changed ref and its reflog entries at
 * one update index, as git's reftable backend writes it.
 * <ol>
 * <li>Plan: names, duplicates, symbolic refs followed ({@link UpdateChecks}).</li>
 * <li>Prepare: take {@code tables.list.lock}, reload the stack, and check every expectation, name conflict
 * and new object against the stack as it is under the lock.</li>
 * <li>Commit: write the table (refs, then logs; a deleted ref's log entries get tombstones), append it to
 * {@code tables.list}, release the lock, compact geometrically.</li>
 * </ol>
 */
final class ReftableTransaction extends StagedTransaction {

	private final ReftableRefStore store;

	private ReftableStack.Addition addition;

	ReftableTransaction(ReftableRefStore store) {
		this.store = store;
	}

	/** The stack as planning reads it: one snapshot for every unlocked read, released when locking starts. */
	private ReftableStack.Snapshot planning;

	private MergedTable planningView;

	@Override
	protected Ref readUnlocked(String name) throws IOException {
		if (this.planning == null) {
			this.planning = this.store.stack.snapshot();
			this.planningView = new MergedTable(this.planning.readers());
		}
		return this.store.exactRef(this.planningView, name);
	}

	private void endPlanning() {
		if (this.planning != null) {
			this.planning.close();
			this.planning = null;
			this.planningView = null;
		}
	}

	@Override
	protected PersonIdent defaultCommitter() {
		return this.store.options.committer().get();
	}

	@Override
	protected void lockAndCheck(NavigableMap<String, PlannedUpdate> planned, Outcome outcome) throws IOException {
		endPlanning();
		try {
			this.addition = this.store.stack.newAddition();
		}
		catch (LockFailedException ex) {
			PlannedUpdate first = planned.values().iterator().next();
			outcome.reject(first.update(), Rejection.LOCK_FAILURE, "cannot lock ref '" + first.name()
					+ "': cannot lock references (" + ex.lockFile() + " exists: another process is writing)");
			return;
		}
		ReftableStack.Snapshot base = this.addition.base();
		MergedTable merged = new MergedTable(base.readers());
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		for (PlannedUpdate item : planned.values()) {
			item.setOld(this.store.read(merged, item.name()), (name) -> this.store.read(merged, name));
			if (!UpdateChecks.checkExpected(item, zero, outcome)) {
				return;
			}
			if (item.old() == null) {
				String conflict = nameConflict(item.name(), merged, planned);
				if (conflict != null) {
					outcome.reject(item.update(), Rejection.NAME_CONFLICT,
							"cannot lock ref '" + item.name() + "': " + conflict);
					return;
				}
			}
			if (item.writesValue() && item.update().type() == RefUpdate.Type.UPDATE && !item.isNoOp()
					&& !UpdateChecks.checkObject(item, this.store.options.objects(), outcome)) {
				return;
			}
		}
	}

	@Override
	protected void release() {
		endPlanning();
		if (this.addition != null) {
			this.addition.close();
			this.addition = null;
		}
	}

	/** A directory/file conflict of a new ref with existing refs or other updates, or {@code null}. */
	private static String nameConflict(String name, MergedTable merged, NavigableMap<String, PlannedUpdate> planned)
			throws IOException {
		for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
			String parent = name.substring(0, slash);
			if (merged.exactRef(parent) != null) {
				return "'" + parent + "' exists; cannot create '" + name + "'";
			}
		}
		try (RecordCursor<RefRecord> below = merged.refsWithPrefix(name + "/")) {
			if (below.next()) {
				return "'" + below.record().name() + "' exists; cannot create '" + name + "'";
			}
		}
		return UpdateChecks.conflictInTransaction(name, planned);
	}

	@Override
	protected void apply(NavigableMap<String, PlannedUpdate> planned, PersonIdent who) throws IOException {
		List<RefRecord> refs = new ArrayList<>();
		List<LogRecord> logs = new ArrayList<>();
		collectRecords(planned, who, this.addition.updateIndex(), refs, logs);
		this.addition.write((writer) -> {
			for (RefRecord ref : refs) {
				writer.addRef(ref);
			}
			for (LogRecord log : logs) {
				writer.addLog(log);
			}
			return !refs.isEmpty() || !logs.isEmpty();
		});
		this.addition.commit();
	}

	/** The table's records: changed refs in name order, and log records in key order. */
	private void collectRecords(NavigableMap<String, PlannedUpdate> planned, PersonIdent who, long index, List<RefRecord> refs,
			List<LogRecord> logs) throws IOException {
		ReftableStack.Snapshot base = this.addition.base();
		ReflogPolicy policy = this.store.options.reflogPolicy();
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		// git's reftable backend keeps at most half a block of each message
		int maxMessage = this.store.options.stack().writeOptions().blockSize() / 2;
		for (PlannedUpdate item : planned.values()) {
			RefUpdate update = item.update();
			boolean written = false;
			if (item.deletesExisting()) {
				refs.add(RefRecord.deletion(item.name(), index));
				for (long old : this.store.logIndices(base, item.name())) {
					logs.add(LogRecord.deletion(item.name(), old));
				}
			}
			else if (update.type() == RefUpdate.Type.SYMREF) {
				refs.add(RefRecord.symbolic(item.name(), index, update.newTarget()));
				written = true;
			}
			else if (item.writesValue() && !item.isNoOp()) {
				ObjectId peeled = this.store.options.objects().peel(update.newId());
				refs.add((peeled != null) ? RefRecord.peeled(item.name(), index, update.newId(), peeled)
						: RefRecord.direct(item.name(), index, update.newId()));
				written = true;
			}
			ReflogEntry entry = ReflogEntries.forUpdate(item, who, message(),
					(name) -> this.store.read(base, name), zero);
			if (entry == null) {
				continue;
			}
			if (written && (policy.createsLogFor(item.name()) || this.store.hasReflog(base, item.name()))) {
				logs.add(LogRecord.of(item.name(), index, entry).truncateMessage(maxMessage));
			}
			for (String symref : item.logOnly()) {
				if (policy.createsLogFor(symref) || this.store.hasReflog(base, symref)) {
					logs.add(LogRecord.of(symref, index, entry).truncateMessage(maxMessage));
				}
			}
		}
		logs.sort((a, b) -> Arrays.compareUnsigned(a.key, 0, a.keyLength, b.key, 0, b.keyLength));
	}

}
