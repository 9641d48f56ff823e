package io.refstore.core.ref;

import java.util.AbstractList;
import java.util.List;
import java.util.Optional;
import java.util.RandomAccess;

/**
 * The outcome of a transaction: one result per update, in submission order.
 *
 * @param committed whether every update was applied
 * @param results per-update outcomes
 */
public record TransactionResult(boolean committed, List<UpdateResult> results) {

	public TransactionResult {
		// a batch's results are made on access, never changed
		results = (results instanceof BatchResults) ? results : List.copyOf(results);
	}

	/**
	 * The result of a transaction of {@code batch}, its per-update results made when
	 * read, so that a million applied updates need no million objects.
	 * @param batch the transaction's updates
	 * @param committed whether every update was applied
	 * @param rejectedIndex the index of the update {@code rejection} refuses, or -1
	 * @param rejection the result of that update, or {@code null}
	 * @param rejected whether any update was refused (every other update is then
	 * {@link Rejection#NOT_ATTEMPTED})
	 */
	public static TransactionResult ofBatch(UpdateBatch batch, boolean committed, int rejectedIndex,
			UpdateResult rejection, boolean rejected) {
		return new TransactionResult(committed, new BatchResults(batch, rejectedIndex, rejection, rejected));
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

	/** An unmodifiable list of a batch's results, made on access. */
	private static final class BatchResults extends AbstractList<UpdateResult> implements RandomAccess {

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
