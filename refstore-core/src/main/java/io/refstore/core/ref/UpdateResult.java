package io.refstore.core.ref;

/**
 * The outcome of one update of a transaction.
 *
 * @param update the update as submitted
 * @param rejection why it was refused, or {@code null} if it was (or would have been)
 * applied
 * @param message a git-style explanation of a rejection, naming the ref; {@code null}
 * when applied
 * @param detail what the kind of rejection alone does not tell, where a caller words it
 * otherwise (git's {@code update-ref --batch-updates}), or {@code null}
 */
public record UpdateResult(RefUpdate update, Rejection rejection, String message, Detail detail) {

	/** A result without a detail. */
	public UpdateResult(RefUpdate update, Rejection rejection, String message) {
		this(update, rejection, message, null);
	}

	/** Finer kinds of some rejections. */
	public enum Detail {

		/**
		 * A {@link Rejection#DUPLICATE_UPDATE} where one of the two updates goes through
		 * a symbolic ref.
		 */
		VIA_SYMREF,
		/**
		 * An {@link Rejection#INCORRECT_OLD_VALUE} where a symbolic ref's target was
		 * expected and a regular ref is.
		 */
		REGULAR_WHERE_SYMREF_EXPECTED

	}

	/** Whether the update was not refused. */
	public boolean isOk() {
		return this.rejection == null;
	}

}
