package io.refstore.core.txn;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateBatch;
import io.refstore.core.ref.UpdateResult;

/**
 * Collects the rejections of a transaction while it is prepared, and turns them into its
 * result. Not thread-safe.
 */
public final class Outcome {

	private final Map<RefUpdate, UpdateResult> rejected = new IdentityHashMap<>();

	/** The batch index of the first rejected update of a batch, or -1. */
	private int batchIndex = -1;

	private UpdateResult batchRejection;

	/** Records why {@code update} is refused (the first reason counts). */
	public void reject(RefUpdate update, Rejection rejection, String message) {
		reject(update, rejection, message, null);
	}

	/**
	 * As {@link #reject(RefUpdate, Rejection, String)}, with what the kind alone does not
	 * tell.
	 */
	public void reject(RefUpdate update, Rejection rejection, String message, UpdateResult.Detail detail) {
		this.rejected.putIfAbsent(update, new UpdateResult(update, rejection, message, detail));
	}

	/**
	 * Records why update {@code index} of a batch ({@code update} made from it) is
	 * refused.
	 */
	public void reject(int index, RefUpdate update, Rejection rejection, String message) {
		reject(update, rejection, message);
		markBatchIndex(index);
	}

	/** Marks the update rejected last as update {@code index} of a batch. */
	void markBatchIndex(int index) {
		if (this.batchIndex < 0 && this.rejected.size() == 1) {
			this.batchIndex = index;
			this.batchRejection = this.rejected.values().iterator().next();
		}
	}

	/** Why {@code update} was refused, or {@code null} if it was not. */
	public Rejection rejectionOf(RefUpdate update) {
		UpdateResult result = this.rejected.get(update);
		return (result != null) ? result.rejection() : null;
	}

	/** Whether nothing was refused so far. */
	public boolean isClean() {
		return this.rejected.isEmpty();
	}

	/**
	 * The result for {@code updates} in submission order: the rejected ones with their
	 * reasons, the others {@link Rejection#NOT_ATTEMPTED} if anything was refused, else
	 * applied.
	 */
	public TransactionResult result(List<RefUpdate> updates, boolean committed) {
		List<UpdateResult> results = new ArrayList<>(updates.size());
		for (RefUpdate update : updates) {
			UpdateResult result = this.rejected.isEmpty() ? null : this.rejected.get(update);
			if (result == null) {
				result = this.rejected.isEmpty() ? new UpdateResult(update, null, null)
						: new UpdateResult(update, Rejection.NOT_ATTEMPTED, null);
			}
			results.add(result);
		}
		return new TransactionResult(committed && this.rejected.isEmpty(), results);
	}

	/**
	 * The result for a batch, as {@link #result} gives it (see
	 * {@link TransactionResult#ofBatch}).
	 */
	TransactionResult result(UpdateBatch batch, boolean committed) {
		return TransactionResult.ofBatch(batch, committed && this.rejected.isEmpty(), this.batchIndex,
				this.batchRejection, !this.rejected.isEmpty());
	}

}
