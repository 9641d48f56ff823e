package io.refstore.core.reftable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;

import io.refstore.core.io.LockFailedException;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
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
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.MergedTable;
import io.refstore.core.reftable.format.RecordCursor;
import io.refstore.core.reftable.format.RefLookup;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableReader;
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

	/**
	 * The stacks this transaction reads, in the order first met: one in the main
	 * worktree, and in a linked one also the worktree's own (a name can reach any
	 * worktree's).
	 */
	private final Map<ReftableStack, StackWork> stacks = new LinkedHashMap<>();

	/**
	 * A forced transaction's locks link to a record whose name is forced too, whatever
	 * {@code core.fsync} says, as on the files backend: a lock a power cut leaves is then
	 * known as an abandoned one's.
	 */
	@Override
	protected void forcing() {
		if (this.store.stack.options().owner() != null) {
			this.store.stack.options().owner().makeDurable();
		}
	}

	ReftableTransaction(ReftableRefStore store) {
		super(store.hashAlgorithm(), store.options.committer());
		this.store = store;
	}

	/** What the transaction holds of one stack. */
	private static final class StackWork {

		final ReftableStack stack;

		/** The stack as planning reads it, released when locking starts. */
		ReftableStack.Snapshot planning;

		/** Planning's lookups, in the order of the planned names. */
		RefLookup planningView;

		/**
		 * The refs planning read, by their names in this stack ({@code null} values for
		 * missing ones).
		 */
		final Map<String, Ref> planningReads = new HashMap<>();

		/** The tables planning read, once it ended. */
		List<String> plannedTables;

		/** The lock and the stack under it, while this transaction writes the stack. */
		ReftableStack.Addition addition;

		MergedTable locked;

		/**
		 * The locked stack's lookups: of the refs planning did not read, of their
		 * parents, and of names below them; each asked in ascending order.
		 */
		RefLookup lockedRefs;

		RefLookup lockedParents;

		RefLookup lockedBelow;

		/** The locked stack's lookups of logs, opened when first asked. */
		private RefLookup lockedLogs;

		/** Whether the locked stack has a log of {@code name} (a name in this stack). */
		boolean lockedHasLog(String name) throws IOException {
			if (this.lockedLogs == null) {
				this.lockedLogs = this.locked.lookup();
			}
			return this.lockedLogs.hasLog(name);
		}

		/** Whether the locked stack has the tables planning read. */
		boolean planningCurrent;

		/**
		 * Whether the locked stack has a ref of each name {@link #lockedHas} was asked.
		 */
		final Map<String, Boolean> lockedNames = new HashMap<>();

		/** The new table's ref records, under their names in this stack. */
		final List<RefRecord> refs = new ArrayList<>();

		/** The new table's log records, under their names in this stack. */
		final List<LogRecord> logs = new ArrayList<>();

		StackWork(ReftableStack stack) {
			this.stack = stack;
		}

		RefLookup planningView() throws IOException {
			if (this.planning == null) {
				this.planning = this.stack.snapshot();
				this.planningView = new MergedTable(this.planning.readers()).lookup();
			}
			return this.planningView;
		}

		void endPlanning() {
			if (this.planning != null) {
				this.plannedTables = this.planning.names();
				this.planningView.close();
				this.planning.close();
				this.planning = null;
				this.planningView = null;
			}
		}

		void lock(boolean force) throws IOException {
			this.addition = this.stack.newAddition(force);
			this.locked = new MergedTable(this.addition.base().readers());
			this.lockedRefs = this.locked.lookup();
			this.lockedParents = this.locked.lookup();
			this.lockedBelow = this.locked.lookup();
			this.planningCurrent = this.addition.base().names().equals(this.plannedTables);
			this.lockedNames.clear();
		}

		/**
		 * Whether the locked stack has a ref named {@code name} (a name in this stack),
		 * remembered: the stack does not change under the lock, and a batch creating many
		 * refs in one directory asks about the same parents for each.
		 */
		boolean lockedHas(String name) throws IOException {
			Boolean has = this.lockedNames.get(name);
			if (has == null) {
				has = this.lockedParents.exactRef(name) != null;
				this.lockedNames.put(name, has);
			}
			return has;
		}

		void release() {
			endPlanning();
			if (this.addition != null) {
				for (RefLookup lookup : new RefLookup[] { this.lockedRefs, this.lockedParents, this.lockedBelow,
						this.lockedLogs }) {
					if (lookup != null) {
						lookup.close();
					}
				}
				this.addition.close();
				this.addition = null;
				this.locked = null;
				this.lockedRefs = null;
				this.lockedParents = null;
				this.lockedBelow = null;
				this.lockedLogs = null;
			}
		}

	}

	private StackWork work(ReftableStack stack) {
		return this.stacks.computeIfAbsent(stack, StackWork::new);
	}

	@Override
	protected Ref readUnlocked(String name) throws IOException {
		if (!RefName.isValid(name, true)) {
			return null;
		}
		if (RefName.isPseudoRef(name)) {
			return this.store.readPseudoRef(name);
		}
		ReftableRefStore.Place place = this.store.place(name);
		StackWork work = work(place.stack());
		Ref ref = this.store.read(work.planningView(), place.name());
		work.planningReads.put(place.name(), ref);
		return ReftableRefStore.named(ref, name);
	}

	private void endPlanning() {
		for (StackWork work : this.stacks.values()) {
			work.endPlanning();
		}
	}

	/**
	 * A ref as the locked stack holds it: what planning read, if planning read the same
	 * tables (tables never change, and their names are unique), else read again; a ref of
	 * a stack this transaction does not write, as that stack is now.
	 */
	private Ref readLocked(String name) throws IOException {
		if (!RefName.isValid(name, true)) {
			return null;
		}
		if (RefName.isPseudoRef(name)) {
			return this.store.readPseudoRef(name);
		}
		ReftableRefStore.Place place = this.store.place(name);
		StackWork work = this.stacks.get(place.stack());
		if (work == null || work.addition == null) {
			try (ReftableStack.Snapshot snapshot = place.stack().snapshot()) {
				return ReftableRefStore.named(this.store.read(snapshot, place.name()), name);
			}
		}
		if (work.planningCurrent && work.planningReads.containsKey(place.name())) {
			return ReftableRefStore.named(work.planningReads.get(place.name()), name);
		}
		return ReftableRefStore.named(this.store.read(work.lockedRefs, place.name()), name);
	}

	/**
	 * The stacks the planned updates write, the common one first: each updated ref's and
	 * each log-only symbolic ref's ({@code HEAD} of a linked worktree logs a shared
	 * branch's change in the worktree's stack).
	 */
	private List<ReftableStack> writtenStacks(NavigableMap<String, PlannedUpdate> planned) throws IOException {
		Set<ReftableStack> written = new LinkedHashSet<>();
		for (PlannedUpdate item : planned.values()) {
			written.add(this.store.place(item.name()).stack());
			for (String symref : item.logOnly()) {
				written.add(this.store.place(symref).stack());
			}
		}
		List<ReftableStack> ordered = new ArrayList<>(written.size());
		if (written.remove(this.store.stack)) {
			ordered.add(this.store.stack);
		}
		ordered.addAll(written);
		return ordered;
	}

	@Override
	protected void lockAndCheck(NavigableMap<String, PlannedUpdate> planned, Outcome outcome) throws IOException {
		endPlanning();
		for (ReftableStack stack : writtenStacks(planned)) {
			try {
				work(stack).lock(forced());
			}
			catch (LockFailedException ex) {
				PlannedUpdate first = planned.values().iterator().next();
				outcome.reject(first.update(), Rejection.LOCK_FAILURE, lockFailure(first.name(), ex));
				return;
			}
		}
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		for (PlannedUpdate item : planned.values()) {
			item.setOld(readLocked(item.name()), this::readLocked);
			if (!UpdateChecks.checkExpected(item, zero, outcome)) {
				return;
			}
			if (item.old() == null) {
				String conflict = nameConflict(item.name(), planned);
				if (conflict != null) {
					// git's reftable backend names the conflict alone, without the files
					// backend's "cannot lock ref" prefix
					outcome.reject(item.update(), Rejection.NAME_CONFLICT, conflict);
					return;
				}
			}
			if (item.writesValue() && item.update().type() == RefUpdate.Type.UPDATE && !item.isNoOp()
					&& !UpdateChecks.checkObject(item, this.store.options.objects(), outcome)) {
				return;
			}
		}
	}

	/** A stack's lock held by another writer, told as the refusal of {@code name}. */
	private static String lockFailure(String name, LockFailedException ex) {
		return "cannot lock ref '" + name + "': cannot lock references (" + ex.lockFile()
				+ " exists: another process is writing)";
	}

	/**
	 * Checks a batch against the whole stack read in order under the lock, when the batch
	 * is large next to the stack (its tables hold at most about
	 * {@value #BULK_BYTES_PER_UPDATE} bytes per update); a small batch in a large stack
	 * is cheaper to check ref by ref.
	 */
	@Override
	protected BatchPlan.Status lockAndCheckBatch(BatchPlan plan, Outcome outcome) throws IOException {
		if (this.store.inLinkedWorktree()) {
			return BatchPlan.Status.UNSUPPORTED;
		}
		StackWork main = work(this.store.stack);
		try {
			main.lock(forced());
		}
		catch (LockFailedException ex) {
			int first = plan.index(0);
			outcome.reject(first, plan.batch().update(first), Rejection.LOCK_FAILURE,
					lockFailure(plan.batch().name(first), ex));
			return BatchPlan.Status.REJECTED;
		}
		List<ReftableReader> tables = main.addition.base().readers();
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
		if (this.store.inLinkedWorktree()) {
			return false;
		}
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
		ReftableStack.Addition addition = this.stacks.get(this.store.stack).addition;
		long index = addition.updateIndex();
		List<LogRecord> logs = batchLogs(plan, who, addition);
		UpdateBatch batch = plan.batch();
		int raw = batch.hashAlgorithm().rawLength();
		addition.write((writer) -> {
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
		addition.commit();
	}

	/**
	 * The log records of a batch, in key order: tombstones for every log entry of a
	 * deleted ref, and an entry for each written ref that has a log or gets one by the
	 * policy.
	 */
	private List<LogRecord> batchLogs(BatchPlan plan, PersonIdent who, ReftableStack.Addition addition)
			throws IOException {
		long index = addition.updateIndex();
		ReftableStack.Snapshot base = addition.base();
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
		logs.sort(LogRecord::compareKeys);
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
		for (StackWork work : this.stacks.values()) {
			work.release();
		}
	}

	/**
	 * A directory/file conflict of a new ref with existing refs of its stack (locked) or
	 * other updates, or {@code null}.
	 */
	private String nameConflict(String name, NavigableMap<String, PlannedUpdate> planned) throws IOException {
		ReftableRefStore.Place place = this.store.place(name);
		StackWork work = this.stacks.get(place.stack());
		String bare = place.name();
		// a name through worktrees/<name>/ or main-worktree/ is told with that prefix
		String prefix = name.substring(0, name.length() - bare.length());
		for (int slash = bare.indexOf('/'); slash > 0; slash = bare.indexOf('/', slash + 1)) {
			String parent = bare.substring(0, slash);
			if (work.lockedHas(parent)) {
				return "'" + prefix + parent + "' exists; cannot create '" + name + "'";
			}
		}
		String below = work.lockedBelow.firstWithPrefix(bare + "/");
		if (below != null) {
			return "'" + prefix + below + "' exists; cannot create '" + name + "'";
		}
		return UpdateChecks.conflictInTransaction(name, planned);
	}

	@Override
	protected void apply(NavigableMap<String, PlannedUpdate> planned, PersonIdent who) throws IOException {
		collectRecords(planned, who);
		for (StackWork work : this.stacks.values()) {
			if (work.addition == null) {
				continue;
			}
			work.addition.write((writer) -> {
				for (RefRecord ref : work.refs) {
					writer.addRef(ref);
				}
				for (LogRecord log : work.logs) {
					writer.addLog(log);
				}
				return !work.refs.isEmpty() || !work.logs.isEmpty();
			});
			work.addition.commit();
		}
	}

	/**
	 * Each written stack's records ({@link StackWork#refs}, {@link StackWork#logs}):
	 * changed refs in name order, and log records in key order, under their names in that
	 * stack.
	 */
	private void collectRecords(NavigableMap<String, PlannedUpdate> planned, PersonIdent who) throws IOException {
		ReflogPolicy policy = this.store.options.reflogPolicy();
		ObjectId zero = this.store.hashAlgorithm().zeroId();
		// git's reftable backend keeps at most half a block of each message
		int maxMessage = this.store.options.stack().writeOptions().maxLogMessage();
		for (PlannedUpdate item : planned.values()) {
			RefUpdate update = item.update();
			ReftableRefStore.Place place = this.store.place(item.name());
			StackWork work = this.stacks.get(place.stack());
			ReftableStack.Snapshot base = work.addition.base();
			long index = work.addition.updateIndex();
			String name = place.name();
			boolean written = false;
			if (item.deletesExisting()) {
				work.refs.add(RefRecord.deletion(name, index));
				for (long old : this.store.logIndices(base, name)) {
					work.logs.add(LogRecord.deletion(name, old));
				}
			}
			else if (update.type() == RefUpdate.Type.SYMREF) {
				work.refs.add(RefRecord.symbolic(name, index, update.newTarget()));
				written = true;
			}
			else if (item.writesValue() && !item.isNoOp()) {
				// only a tag peels: an object checked as anything else is not looked up
				// again
				ObjectId peeled = (item.newType() == null || item.newType() == ObjectType.TAG)
						? this.store.options.objects().peel(update.newId()) : null;
				work.refs.add((peeled != null) ? RefRecord.peeled(name, index, update.newId(), peeled)
						: RefRecord.direct(name, index, update.newId()));
				written = true;
			}
			ReflogEntry entry = ReflogEntries.forUpdate(item, who, message(), this::readLocked, zero);
			if (entry == null) {
				continue;
			}
			if (written && (policy.createsLogFor(item.name()) || forcesLog(update, item.name())
					|| work.lockedHasLog(name))) {
				work.logs.add(LogRecord.of(name, index, entry).truncateMessage(maxMessage));
			}
			for (String symref : item.logOnly()) {
				ReftableRefStore.Place symrefPlace = this.store.place(symref);
				StackWork symrefWork = this.stacks.get(symrefPlace.stack());
				if (policy.createsLogFor(symref) || forcesLog(update, symref)
						|| symrefWork.lockedHasLog(symrefPlace.name())) {
					symrefWork.logs.add(LogRecord.of(symrefPlace.name(), symrefWork.addition.updateIndex(), entry)
						.truncateMessage(maxMessage));
				}
			}
		}
		for (StackWork work : this.stacks.values()) {
			// in the order of their names here (planned is in the order of the full
			// names)
			work.refs.sort((a, b) -> Arrays.compareUnsigned(a.nameBuffer(), 0, a.nameLength(), b.nameBuffer(), 0,
					b.nameLength()));
			work.logs.sort(LogRecord::compareKeys);
		}
	}

}
