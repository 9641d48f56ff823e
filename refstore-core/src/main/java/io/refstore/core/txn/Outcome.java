package io.refstore.core.txn;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects the rejections of a transaction while it is prepared, and turns them into its result.
 * Not thread-safe.
 */
public final class Outcome {

	private final Map<RefUpdate, UpdateResult> rejected = new IdentityHashMap<>();

	/** Records why {@code update} is refused (the first reason counts). */
	public void reject(RefUpdate update, Rejection rejection, String message) {
		this.rejected.putIfAbsent(update, new UpdateResult(update, rejection, message));
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

}
