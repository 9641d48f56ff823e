package io.refstore.core.txn;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of a transaction: one result per update, in submission order.
 *
 * @param committed whether every update was applied
 * @param results per-update outcomes
 */
public record TransactionResult(boolean committed, List<UpdateResult> results) {

	public TransactionResult {
		// a batch's results are made on access, never changed
		results = (results instanceof Outcome.BatchResults) ? results : List.copyOf(results);
	}

	/** The first rejected update, which explains why the transaction failed. */
	public Optional<UpdateResult> firstRejection() {
		if (this.committed) {
			return Optional.empty();
		}
		return this.results.stream()
			.filter((result) -> result.rejection() != null && result.rejection() != Rejection.NOT_ATTEMPTED)
			.findFirst();
	}

}
