package io.refstore.core.txn;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * Collects the rejections of a transaction while it is prepared, and turns them into its result.
 * Not thread-safe.
 */
public final class Outcome {

	private final Map<RefUpdate, UpdateResult> rejected = new IdentityHashMap<>();

	/** The batch index of the first rejected update of a batch, or -1. */
	private int batchIndex = -1;

	private UpdateResult batchRejection;

	/** Records why {@code update} is refused (the first reason counts). */
	public void reject(RefUpdate update, Rejection rejection, String message) {
		this.rejected.putIfAbsent(update, new UpdateResult(update, rejection, message));
	}

	/** Records why update {@code index} of a batch ({@code update} made from it) is refused. */
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

	/** Whether nothing was refused so far. */
	public boolean isClean() {
		return this.rejected.isEmpty();
	}

	/**
	 * The result for {@code updates} in submission order: the rejected ones with their reasons, the others
	 * {@link Rejection#NOT_ATTEMPTED} if anything was refused, else applied.
	 */
	public TransactionResult result(List<RefUpdate> updates, boolean committed) {
		List<UpdateResult> results = new ArrayList<>(updates.size());
		for (RefUpdate update : updates) {
			UpdateResult result = this.rejected.get(update);
			if (result == null) {
				result = this.rejected.isEmpty() ? new UpdateResult(update, null, null)
						: new UpdateResult(update, Rejection.NOT_ATTEMPTED, null);
			}
			results.add(result);
		}
		return new TransactionResult(committed && this.rejected.isEmpty(), results);
	}

	/**
	 * The result for a batch, as {@link #result} gives it; the per-update results are made when read, so
	 * that a million applied updates need no million objects.
	 */
	TransactionResult result(UpdateBatch batch, boolean committed) {
		return new TransactionResult(committed && this.rejected.isEmpty(),
				new BatchResults(batch, this.batchIndex, this.batchRejection, !this.rejected.isEmpty()));
	}

	/** An unmodifiable list of a batch's results, made on access. */
	static final class BatchResults extends AbstractList<UpdateResult> implements RandomAccess {

		private final UpdateBatch batch;

		private final int rejectedIndex;

		private final UpdateResult rejection;

		private final boolean rejected;

		BatchResults(UpdateBatch batch, int rejectedIndex, UpdateResult rejection, boolean rejected) {
			this.batch = batch;
			this.rejectedIndex = rejectedIndex;
			this.rejection = rejection;
			this.rejected = rejected;
		}

		@Override
		public UpdateResult get(int index) {
			if (index < 0 || index >= this.batch.size()) {
				throw new IndexOutOfBoundsException(index);
			}
			if (index == this.rejectedIndex) {
				return this.rejection;
			}
			return new UpdateResult(this.batch.update(index), this.rejected ? Rejection.NOT_ATTEMPTED : null, null);
		}

		@Override
		public int size() {
			return this.batch.size();
		}

	}

}
