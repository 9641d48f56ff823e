package io.refstore.core.ref;

import java.io.IOException;

/**
 * An all-or-nothing set of ref updates, moving OPEN → PREPARED → CLOSED as git's
 * transactions do.
 *
 * <p>
 * {@link #prepare()} takes every lock and checks every expectation; after a successful
 * prepare, {@link #commit()} applies the updates. If any update is rejected, nothing
 * changes, every lock is released and the transaction is closed. {@link #close()} aborts
 * a transaction that was not committed.
 *
 * <p>
 * Not thread-safe: one thread drives a transaction.
 */
public interface RefTransaction extends AutoCloseable {

	/**
	 * Adds an update; only while OPEN.
	 * @return this transaction
	 * @throws IllegalStateException if the transaction was already prepared or closed
	 */
	RefTransaction add(RefUpdate update);

	/**
	 * Adds every update of {@code batch}, in its order; only while OPEN. The transaction
	 * may keep the batch itself: the caller must not change it afterwards. A store may
	 * check and apply a large batch in bulk, with the same results as update by update.
	 * @return this transaction
	 * @throws IllegalStateException if the transaction was already prepared or closed
	 */
	default RefTransaction addAll(UpdateBatch batch) {
		for (int i = 0; i < batch.size(); i++) {
			add(batch.update(i));
		}
		return this;
	}

	/**
	 * Sets the identity recorded in reflog entries (default: the repository's committer).
	 */
	RefTransaction committer(PersonIdent committer);

	/** Sets the reflog message used by updates without their own. */
	RefTransaction message(String message);

	/**
	 * Sets the {@code reference-transaction} hook this transaction runs as git's do
	 * (default: none); only while OPEN. A hook that refuses in {@code preparing} or
	 * {@code prepared} makes {@link #prepare()} and {@link #commit()} throw
	 * {@link TransactionAbortedByHookException} with nothing changed; {@link #abort()}
	 * runs it in {@code aborted}, and {@link #close()} of a transaction neither committed
	 * nor aborted does not run it.
	 * @return this transaction
	 */
	RefTransaction hook(TransactionHook hook);

	/**
	 * Makes every update create the log of the ref it names if it has none, whatever
	 * {@code core.logAllRefUpdates} says ({@code git update-ref --create-reflog}). Only
	 * the name as given gets one: a branch written through a symbolic ref does not, as in
	 * git.
	 * @return this transaction
	 */
	RefTransaction createReflogs();

	/**
	 * Forces what this transaction writes to the disk whatever {@code core.fsync} says:
	 * every new file before its rename, and, before {@link #commit()} returns, every
	 * directory in which it renamed or removed a file. For writes that a record elsewhere
	 * (a deletion manifest) promises to be done once committed; ordinary writes sync only
	 * as git does. Only while OPEN.
	 * @return this transaction
	 */
	RefTransaction forceSync();

	/**
	 * Locks and checks every update.
	 * @return the per-update results; {@code committed()} is {@code false} here even on
	 * success, and the transaction is PREPARED only if no update was rejected
	 * @throws IOException on an I/O error (the transaction is then aborted)
	 */
	TransactionResult prepare() throws IOException;

	/**
	 * Prepares (if still OPEN) and applies every update.
	 * @return the per-update results, {@code committed()} telling whether the updates
	 * were applied
	 * @throws IOException on an I/O error
	 */
	TransactionResult commit() throws IOException;

	/** Releases every lock without applying anything. Idempotent. */
	void abort();

	/** Aborts unless committed. */
	@Override
	void close();

}
