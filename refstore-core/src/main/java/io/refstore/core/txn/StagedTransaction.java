package io.refstore.core.txn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.EntryTooLargeException;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.TransactionAbortedByHookException;
import io.refstore.core.ref.TransactionHook;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateBatch;

/**
 * The part of a transaction both backends share: collecting updates, the OPEN → PREPARED
 * → CLOSED states, planning ({@link UpdateChecks#plan}) and the results. A backend
 * supplies how to read a ref, how to lock and check the planned updates, how to apply
 * them, and how to release its locks.
 *
 * <p>
 * Not thread-safe: one thread drives a transaction.
 */
public abstract class StagedTransaction implements RefTransaction {

	private enum State {

		OPEN, PREPARED, CLOSED

	}

	private final List<RefUpdate> updates = new ArrayList<>();

	private State state = State.OPEN;

	private PersonIdent committer;

	private String message;

	private NavigableMap<String, PlannedUpdate> planned = new TreeMap<>();

	/**
	 * Updates added as a batch while no single update was; checked in bulk if the backend
	 * can.
	 */
	private UpdateBatch batch;

	/**
	 * Whether {@link #batch} is this transaction's own (else the caller's, from
	 * {@link #addAll}, never changed).
	 */
	private boolean batchOwned;

	/** The batch's plan once prepared in bulk, else {@code null}. */
	private BatchPlan batchPlan;

	/** Whether {@link #createReflogs()} was called. */
	private boolean createReflogs;

	/** Whether {@link #forceSync()} was called. */
	private boolean forced;

	private TransactionHook hook = TransactionHook.NONE;

	private final HashAlgorithm hash;

	private final Supplier<PersonIdent> defaultCommitter;

	/**
	 * A transaction of a store of ids of {@code hash}.
	 * @param hash the hash of the store's ids
	 * @param defaultCommitter who reflog entries name when no committer was set, asked
	 * once per commit
	 */
	protected StagedTransaction(HashAlgorithm hash, Supplier<PersonIdent> defaultCommitter) {
		this.hash = hash;
		this.defaultCommitter = defaultCommitter;
	}

	/**
	 * Reads a ref as it is now, without locks (planning); {@code null} if it does not
	 * exist.
	 */
	protected abstract Ref readUnlocked(String name) throws IOException;

	/**
	 * Takes the backend's locks and checks every planned update under them, recording
	 * rejections in {@code outcome}. Whatever it took is released by {@link #release()}.
	 */
	protected abstract void lockAndCheck(NavigableMap<String, PlannedUpdate> planned, Outcome outcome)
			throws IOException;

	/** Applies the prepared updates; reflog entries name {@code who}. */
	protected abstract void apply(NavigableMap<String, PlannedUpdate> planned, PersonIdent who) throws IOException;

	/**
	 * Takes the backend's locks and checks a batch under them in bulk
	 * ({@link BatchPlan#check}), as {@link #lockAndCheck} would check it update by
	 * update.
	 * @return {@link BatchPlan.Status#UNSUPPORTED} if the backend cannot (the default):
	 * the transaction then releases what was taken and plans update by update
	 */
	protected BatchPlan.Status lockAndCheckBatch(BatchPlan plan, Outcome outcome) throws IOException {
		return BatchPlan.Status.UNSUPPORTED;
	}

	/**
	 * Whether the backend can check a batch in bulk at all ({@link #lockAndCheckBatch});
	 * {@code false} unless it says.
	 */
	protected boolean hasBulkPath() {
		return false;
	}

	/**
	 * Whether checking {@code updates} updates in bulk is worth a try, told before any
	 * plan is made or lock taken (the bulk check may still decline under the lock);
	 * {@code false} unless the backend has a bulk path.
	 */
	protected boolean bulkWorthwhile(int updates) throws IOException {
		return false;
	}

	/** Applies a batch prepared by {@link #lockAndCheckBatch}. */
	protected void applyBatch(BatchPlan plan, PersonIdent who) throws IOException {
		throw new IllegalStateException("this store does not apply batches");
	}

	/** Releases every lock and temporary file; must be idempotent. */
	protected abstract void release();

	/**
	 * Runs the hook for a transaction the backend makes inside this one, as git's files
	 * backend does on {@code packed-refs} for deletions.
	 * @return the hook's exit code; 0 without a hook
	 */
	protected final int runHook(String state, List<String> lines) throws IOException {
		return this.hook.present() ? this.hook.run(state, lines) : 0;
	}

	/**
	 * The lines of the packed-refs transaction git's files backend makes for the
	 * deletions among {@code inOrder} ({@link #runHook}).
	 */
	protected final List<String> packedDeletionLines(List<PlannedUpdate> inOrder) {
		return HookLines.packedDeletions(inOrder, this.hash);
	}

	/** The reflog message of updates without their own, or {@code null}. */
	protected final String message() {
		return this.message;
	}

	@Override
	public final RefTransaction hook(TransactionHook hook) {
		requireState(State.OPEN);
		this.hook = hook;
		return this;
	}

	@Override
	public final RefTransaction forceSync() {
		requireState(State.OPEN);
		this.forced = true;
		forcing();
		return this;
	}

	/**
	 * Called by {@link #forceSync()}, before any lock is taken: a backend whose locks
	 * link to an owner record makes that record durable, so that a lock a power cut
	 * leaves behind is still known as an abandoned one's and the rerun clears it.
	 */
	protected void forcing() {
	}

	/**
	 * Whether the backend must force its writes and directories ({@link #forceSync()}).
	 */
	protected final boolean forced() {
		return this.forced;
	}

	/**
	 * Adds an update. For a backend with a bulk path, while every update added so far can
	 * be held in a batch, they are collected as one ({@link UpdateBatch}), which it may
	 * check in bulk as {@link #addAll} batches are.
	 */
	@Override
	public final RefTransaction add(RefUpdate update) {
		requireState(State.OPEN);
		if (this.updates.isEmpty() && hasBulkPath() && batchable(update)) {
			if (this.batch == null || !this.batchOwned) {
				UpdateBatch own = new UpdateBatch(hashAlgorithm());
				for (int i = 0; this.batch != null && i < this.batch.size(); i++) {
					own.add(this.batch.update(i));
				}
				this.batch = own;
				this.batchOwned = true;
			}
			this.batch.add(update);
			return this;
		}
		unbatch();
		this.updates.add(update);
		return this;
	}

	/** Whether a batch of this store's ids can hold {@code update} as it is. */
	private boolean batchable(RefUpdate update) {
		HashAlgorithm hash = hashAlgorithm();
		return UpdateBatch.canHold(update) && (update.newId() == null || update.newId().algorithm() == hash)
				&& (update.expectedOld() == null || update.expectedOld().algorithm() == hash)
				&& (update.type() != RefUpdate.Type.UPDATE || update.newId() != null);
	}

	/** The hash of the store's ids. */
	protected final HashAlgorithm hashAlgorithm() {
		return this.hash;
	}

	@Override
	public final RefTransaction addAll(UpdateBatch added) {
		requireState(State.OPEN);
		if (this.batch == null && this.updates.isEmpty()) {
			this.batch = added;
			this.batchOwned = false;
		}
		else {
			unbatch();
			for (int i = 0; i < added.size(); i++) {
				this.updates.add(added.update(i));
			}
		}
		return this;
	}

	/** Turns the batch into single updates, for the update-by-update path. */
	private void unbatch() {
		if (this.batch != null) {
			for (int i = 0; i < this.batch.size(); i++) {
				this.updates.add(this.batch.update(i));
			}
			this.batch = null;
			this.batchOwned = false;
		}
	}

	@Override
	public final RefTransaction committer(PersonIdent committer) {
		this.committer = committer;
		return this;
	}

	@Override
	public final RefTransaction createReflogs() {
		this.createReflogs = true;
		return this;
	}

	/**
	 * Whether {@code logName}'s log is created by {@code update} even if the policy does
	 * not create it ({@link #createReflogs()}): the log of the name the update gives.
	 */
	protected final boolean forcesLog(RefUpdate update, String logName) {
		return this.createReflogs && update.name().equals(logName);
	}

	/** Whether {@link #createReflogs()} was called. */
	protected final boolean createsReflogs() {
		return this.createReflogs;
	}

	@Override
	public final RefTransaction message(String message) {
		this.message = message;
		return this;
	}

	/**
	 * Runs the hook in {@code preparing}, locks and checks every update, and runs the
	 * hook in {@code prepared}; a hook that exits non-zero in either aborts the
	 * transaction.
	 */
	@Override
	public final TransactionResult prepare() throws IOException {
		requireState(State.OPEN);
		if (this.hook.present()
				&& this.hook.run("preparing", HookLines.submitted(this.updates, this.batch, this.hash)) != 0) {
			abort();
			throw new TransactionAbortedByHookException("preparing");
		}
		TransactionResult result = lockAndCheckAll();
		if (this.state == State.PREPARED && this.hook.present() && this.hook.run("prepared", hookLines()) != 0) {
			abort();
			throw new TransactionAbortedByHookException("prepared");
		}
		return result;
	}

	/**
	 * The hook's lines now: the planned updates once planned, else the submitted ones.
	 */
	private List<String> hookLines() {
		if (this.batchPlan != null || this.planned.isEmpty()) {
			return HookLines.submitted(this.updates, this.batch, this.hash);
		}
		return HookLines.planned(this.planned.values(), this.hash);
	}

	private TransactionResult lockAndCheckAll() throws IOException {
		if (this.batch != null) {
			if (bulkWorthwhile(this.batch.size())) {
				TransactionResult result = prepareBatch();
				if (result != null) {
					return result;
				}
			}
			unbatch();
		}
		Outcome outcome = new Outcome();
		try {
			this.planned = UpdateChecks.plan(this.updates, this::readUnlocked, outcome);
			if (outcome.isClean() && !this.planned.isEmpty()) {
				lockAndCheck(this.planned, outcome);
			}
		}
		catch (IOException | RuntimeException ex) {
			end();
			throw ex;
		}
		if (outcome.isClean()) {
			this.state = State.PREPARED;
		}
		else {
			end();
		}
		return outcome.result(this.updates, false);
	}

	/**
	 * Prepares the batch in bulk; {@code null} if the backend cannot (nothing is then
	 * held).
	 */
	private TransactionResult prepareBatch() throws IOException {
		BatchPlan plan = new BatchPlan(this.batch);
		if (!plan.eligible()) {
			return null;
		}
		Outcome outcome = new Outcome();
		try {
			if (plan.checkNames(outcome) && plan.size() > 0
					&& lockAndCheckBatch(plan, outcome) == BatchPlan.Status.UNSUPPORTED) {
				release();
				return null;
			}
		}
		catch (IOException | RuntimeException ex) {
			end();
			throw ex;
		}
		if (outcome.isClean()) {
			this.state = State.PREPARED;
			this.batchPlan = plan;
		}
		else {
			end();
		}
		return outcome.result(this.batch, false);
	}

	@Override
	public final TransactionResult commit() throws IOException {
		if (this.state == State.OPEN) {
			TransactionResult prepared = prepare();
			if (this.state != State.PREPARED) {
				return prepared;
			}
		}
		requireState(State.PREPARED);
		try {
			if (this.batchPlan != null) {
				if (this.batchPlan.size() > 0) {
					applyBatch(this.batchPlan, committerOrDefault());
				}
			}
			else if (!this.planned.isEmpty()) {
				apply(this.planned, committerOrDefault());
			}
		}
		catch (EntryTooLargeException ex) {
			// nothing was written: the transaction failed, as git's does
			end();
			return tooLarge();
		}
		finally {
			end();
		}
		if (this.hook.present()) {
			// its exit code changes nothing: the updates are in
			this.hook.run("committed", hookLines());
		}
		return (this.batchPlan != null) ? new Outcome().result(this.batch, true)
				: new Outcome().result(this.updates, true);
	}

	/** The result of a transaction whose table could not hold a record. */
	private TransactionResult tooLarge() {
		Outcome failed = new Outcome();
		if (this.batchPlan != null) {
			int first = this.batchPlan.index(0);
			failed.reject(first, this.batch.update(first), Rejection.IO_ERROR, EntryTooLargeException.GIT_MESSAGE);
			return failed.result(this.batch, false);
		}
		failed.reject(this.planned.values().iterator().next().update(), Rejection.IO_ERROR,
				EntryTooLargeException.GIT_MESSAGE);
		return failed.result(this.updates, false);
	}

	private PersonIdent committerOrDefault() {
		return (this.committer != null) ? this.committer : this.defaultCommitter.get();
	}

	/**
	 * Releases every lock without applying anything and, unless the transaction had
	 * already ended, runs the hook in {@code aborted}. Idempotent.
	 */
	@Override
	public final void abort() {
		boolean ended = this.state == State.CLOSED;
		List<String> lines = (!ended && this.hook.present()) ? hookLines() : null;
		end();
		if (lines != null) {
			try {
				this.hook.run("aborted", lines);
			}
			catch (IOException ex) {
				// as git, which ignores the hook in this state
			}
		}
	}

	/** Ends the transaction quietly, as git frees one neither committed nor aborted. */
	@Override
	public final void close() {
		if (this.state != State.CLOSED) {
			end();
		}
	}

	/** Releases every lock; the transaction is over. */
	private void end() {
		release();
		this.state = State.CLOSED;
	}

	private void requireState(State expected) {
		if (this.state != expected) {
			throw new IllegalStateException("transaction is " + this.state + ", expected " + expected);
		}
	}

}
