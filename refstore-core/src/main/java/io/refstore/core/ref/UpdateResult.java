package io.refstore.core.ref;

/**
 * The outcome of one update of a transaction.
 *
 * @param update the update as submitted
 * @param rejection why it was refused, or {@code null} if it was (or would have been)
 * applied
 * @param message a git-style explanation of a rejection, naming the ref; {@code null}
 * when applied
 */
public record UpdateResult(RefUpdate update, Rejection rejection, String message) {

	/** Whether the update was not refused. */
	public boolean isOk() {
		return this.rejection == null;
	}

}
