package io.refstore.core.reftable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

import io.refstore.core.io.LockFailedException;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.UpdateBatch;
import io.refstore.core.txn.BatchPlan;
import io.refstore.core.txn.Outcome;
import io.refstore.core.txn.PlannedUpdate;
import io.refstore.core.txn.ReflogEntries;
import io.refstore.core.txn.StagedTransaction;
import io.refstore.core.txn.UpdateChecks;

/**
 * A transaction of the reftable backend: one new table holding every changed ref and its
 * reflog entries at one update index, as git's reftable backend writes it.
 * <ol>
 * <li>Plan: names, duplicates, symbolic refs followed ({@link UpdateChecks}).</li>
 * <li>Prepare: take {@code tables.list.lock}, reload the stack, and check every
 * expectation, name conflict and new object against the stack as it is under the
 * lock.</li>
 * <li>Commit: write the table (refs, then logs; a deleted ref's log entries get
 * tombstones), append it to {@code tables.list}, release the lock, compact
 * geometrically.</li>
 * </ol>
 */
final class ReftableTransaction extends StagedTransaction {

	private final ReftableRefStore store;

	private ReftableStack.Addition addition;

	ReftableTransaction(ReftableRefStore store) {
		super(store.hashAlgorithm(), store.options.committer());
		this.store = store;
	}

	/**
	 * The stack as planning reads it: one snapshot for every unlocked read, released when
	 * locking starts.
	 */
	private ReftableStack.Snapshot planning;

	private MergedTable planningView;

	/** The refs planning read in its snapshot ({@code null} values for missing ones). */
	private final Map<String, Ref> planningReads = new HashMap<>();

	/** The tables planning read, once it ended. */
	private List<String> plannedTables;

	@Override
	protected Ref readUnlocked(String name) throws IOException {
		if (this.planning == null) {
			this.planning = this.store.stack.snapshot();
			this.planningView = new MergedTable(this.planning.readers());
		}
		Ref ref = this.store.exactRef(this.planningView, name);
		if (!RefName.isPseudoRef(name)) {
			this.planningReads.put(name, ref);
		}
		return ref;
	}

	private void endPlanning() {
		if (this.planning != null) {
			this.plannedTables = this.planning.names();
			this.planning.close();
			this.planning = null;
			this.planningView = null;
		}
	}

	/**
	 * A ref as the locked stack holds it: what planning read, if planning read the same
	 * tables (tables never change, and their names are unique), else read again.
	 */
	private Ref readLocked(MergedTable merged, boolean planningCurrent, String name) throws IOException {
		if (planningCurrent && this.planningReads.containsKey(name)) {
			return this.planningReads.get(name);
		}
		return this.store.read(merged, name);
	}

	@Override
	protected void lockAndCheck(NavigableMap<String, PlannedUpdate> planned, Outcome outcome) throws IOException {
		endPlanning();
		try {
			this.addition = this.store.stack.newAddition(forced());
		}
		catch (LockFailedException ex) {
			PlannedUpdate first = planned.values().iterator().next();
			outcome.reject(first.update(), Rejection.LOCK_FAILURE, "cannot lock ref '" + first.name()
					+ "': cannot lock references (" + ex.lockFile() + " exists: another process is writing)");
			return;
		}
		ReftableStack.Snapshot base = this.addition.base();
		MergedTable merged = new MergedTable(base.readers());
		boolean planningCurrent = base.names().equals(this.plannedTables);
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		for (PlannedUpdate item : planned.values()) {
			item.setOld(readLocked(merged, planningCurrent, item.name()),
					(name) -> readLocked(merged, planningCurrent, name));
			if (!UpdateChecks.checkExpected(item, zero, outcome)) {
				return;
			}
			if (item.old() == null) {
				String conflict = nameConflict(item.name(), merged, planned);
				if (conflict != null) {
					outcome.reject(item.update(), Rejection.NAME_CONFLICT,
							"cannot lock ref '" + item.update().name() + "': " + conflict);
					return;
				}
			}
			if (item.writesValue() && item.update().type() == RefUpdate.Type.UPDATE && !item.isNoOp()
					&& !UpdateChecks.checkObject(item, this.store.options.objects(), outcome)) {
				return;
			}
		}
	}

	/**
	 * Checks a batch against the whole stack read in order under the lock, when the batch
	 * is large next to the stack (its tables hold at most about
	 * {@value #BULK_BYTES_PER_UPDATE} bytes per update); a small batch in a large stack
	 * is cheaper to check ref by ref.
	 */
	@Override
	protected BatchPlan.Status lockAndCheckBatch(BatchPlan plan, Outcome outcome) throws IOException {
		try {
			this.addition = this.store.stack.newAddition(forced());
		}
		catch (LockFailedException ex) {
			int first = plan.index(0);
			String name = plan.batch().name(first);
			outcome.reject(first, plan.batch().update(first), Rejection.LOCK_FAILURE, "cannot lock ref '" + name
					+ "': cannot lock references (" + ex.lockFile() + " exists: another process is writing)");
			return BatchPlan.Status.REJECTED;
		}
		List<ReftableReader> tables = this.addition.base().readers();
		if (!bulkWorthwhile(tables, plan.size())) {
			return BatchPlan.Status.UNSUPPORTED;
		}
		MergedTable merged = new MergedTable(tables);
		if (merged.exactRef("refs") != null) {
			// a ref named "refs" is the parent of every name: its conflicts are worded
			// ref by ref
			return BatchPlan.Status.UNSUPPORTED;
		}
		// an update of the branch HEAD names also goes into HEAD's log
		this.headUpdate = (this.store.read(merged, "HEAD") instanceof SymbolicRef head) ? plan.find(head.target()) : -1;
		try (RefCursor refs = merged.refCursor("refs/")) {
			return plan.check(refs, this.store.options.objects(), outcome);
		}
	}

	private static final long BULK_BYTES_PER_UPDATE = 128;

	@Override
	protected boolean hasBulkPath() {
		return true;
	}

	/**
	 * As the stack reads now, before the lock: a small batch in a large stack does not
	 * even try the bulk path.
	 */
	@Override
	protected boolean bulkWorthwhile(int updates) throws IOException {
		try (ReftableStack.Snapshot snapshot = this.store.stack.snapshot()) {
			return bulkWorthwhile(snapshot.readers(), updates);
		}
	}

	private static boolean bulkWorthwhile(List<ReftableReader> tables, int updates) {
		long bytes = 0;
		for (ReftableReader table : tables) {
			bytes += table.size();
		}
		return bytes <= BULK_BYTES_PER_UPDATE * updates + 4096;
	}

	/**
	 * The position in name order of the batch's update of the branch HEAD names, or -1.
	 */
	private int headUpdate = -1;

	@Override
	protected void applyBatch(BatchPlan plan, PersonIdent who) throws IOException {
		long index = this.addition.updateIndex();
		List<LogRecord> logs = batchLogs(plan, who, index);
		UpdateBatch batch = plan.batch();
		int raw = batch.hashAlgorithm().rawLength();
		this.addition.write((writer) -> {
			RefRecord rec = new RefRecord();
			byte[] name = new byte[256];
			byte[] id = new byte[raw];
			byte[] peeled = new byte[raw];
			boolean any = !logs.isEmpty();
			for (int k = 0; k < plan.size(); k++) {
				int i = plan.index(k);
				if (plan.deletesExisting(k)) {
					writer.addRef(RefRecord.deletion(batch.name(i), index));
					any = true;
				}
				else if (plan.writes(k)) {
					int start = batch.nameStart(i);
					int length = batch.nameEnd(i) - start;
					if (name.length < length) {
						name = new byte[2 * length];
					}
					System.arraycopy(batch.nameBuffer(), start, name, 0, length);
					System.arraycopy(batch.newIdBuffer(), i * raw, id, 0, raw);
					if (plan.hasPeeled(k)) {
						System.arraycopy(plan.peeledBuffer(), k * raw, peeled, 0, raw);
					}
					rec.set(name, length, index, id, plan.hasPeeled(k) ? peeled : null, raw);
					writer.addRef(rec);
					any = true;
				}
			}
			for (LogRecord log : logs) {
				writer.addLog(log);
			}
			return any;
		});
		this.addition.commit();
	}

	/**
	 * The log records of a batch, in key order: tombstones for every log entry of a
	 * deleted ref, and an entry for each written ref that has a log or gets one by the
	 * policy.
	 */
	private List<LogRecord> batchLogs(BatchPlan plan, PersonIdent who, long index) throws IOException {
		ReftableStack.Snapshot base = this.addition.base();
		ReflogPolicy policy = this.store.options.reflogPolicy();
		boolean stackHasLogs;
		try (RecordCursor<LogRecord> any = new MergedTable(base.readers()).allLogs(false)) {
			stackHasLogs = any.next();
		}
		String message = ReflogEntry.normalizeMessage(message());
		int maxMessage = this.store.options.stack().writeOptions().maxLogMessage();
		UpdateBatch batch = plan.batch();
		List<LogRecord> logs = new ArrayList<>();
		for (int k = 0; k < plan.size(); k++) {
			int i = plan.index(k);
			if (plan.deletesExisting(k)) {
				if (stackHasLogs) {
					String name = batch.name(i);
					for (long old : this.store.logIndices(base, name)) {
						logs.add(LogRecord.deletion(name, old));
					}
				}
			}
			else if (plan.writes(k) && (policy != ReflogPolicy.EXISTING_ONLY || stackHasLogs || createsReflogs())) {
				String name = batch.name(i);
				if (policy.createsLogFor(name) || createsReflogs()
						|| (stackHasLogs && this.store.hasReflog(base, name))) {
					logs.add(LogRecord.of(name, index, entry(plan, k, who, message)).truncateMessage(maxMessage));
				}
			}
		}
		// as the ref-by-ref path logs HEAD for its branch: anything but a verify or the
		// deletion of nothing
		int head = this.headUpdate;
		if (head >= 0 && batch.type(plan.index(head)) != RefUpdate.Type.VERIFY
				&& (plan.exists(head) || !batch.isDelete(plan.index(head)))
				&& (policy.createsLogFor("HEAD") || (stackHasLogs && this.store.hasReflog(base, "HEAD")))) {
			logs.add(LogRecord.of("HEAD", index, entry(plan, head, who, message)).truncateMessage(maxMessage));
		}
		logs.sort((a, b) -> Arrays.compareUnsigned(a.key, 0, a.keyLength, b.key, 0, b.keyLength));
		return logs;
	}

	/**
	 * The reflog entry of the {@code k}-th update: old value (or zero) to new value (zero
	 * for a deletion).
	 */
	private ReflogEntry entry(BatchPlan plan, int k, PersonIdent who, String message) {
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		int i = plan.index(k);
		ObjectId old = plan.oldId(k);
		ObjectId newId = plan.batch().isDelete(i) ? zero : plan.batch().newId(i);
		return new ReflogEntry((old != null) ? old : zero, newId, who, message);
	}

	@Override
	protected void release() {
		endPlanning();
		if (this.addition != null) {
			this.addition.close();
			this.addition = null;
		}
	}

	/**
	 * A directory/file conflict of a new ref with existing refs or other updates, or
	 * {@code null}.
	 */
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
	private void collectRecords(NavigableMap<String, PlannedUpdate> planned, PersonIdent who, long index,
			List<RefRecord> refs, List<LogRecord> logs) throws IOException {
		ReftableStack.Snapshot base = this.addition.base();
		ReflogPolicy policy = this.store.options.reflogPolicy();
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		// git's reftable backend keeps at most half a block of each message
		int maxMessage = this.store.options.stack().writeOptions().maxLogMessage();
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
			ReflogEntry entry = ReflogEntries.forUpdate(item, who, message(), (name) -> this.store.read(base, name),
					zero);
			if (entry == null) {
				continue;
			}
			if (written && (policy.createsLogFor(item.name()) || forcesLog(update, item.name())
					|| this.store.hasReflog(base, item.name()))) {
				logs.add(LogRecord.of(item.name(), index, entry).truncateMessage(maxMessage));
			}
			for (String symref : item.logOnly()) {
				if (policy.createsLogFor(symref) || forcesLog(update, symref) || this.store.hasReflog(base, symref)) {
					logs.add(LogRecord.of(symref, index, entry).truncateMessage(maxMessage));
				}
			}
		}
		logs.sort((a, b) -> Arrays.compareUnsigned(a.key, 0, a.keyLength, b.key, 0, b.keyLength));
	}

}
