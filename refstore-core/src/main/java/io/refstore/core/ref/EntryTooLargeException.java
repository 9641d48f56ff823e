package io.refstore.core.ref;

/**
 * A record that does not fit in one block of the table being written
 * ({@code reftable.blockSize} too small for it). A transaction that meets one fails and
 * changes nothing, with git's words ({@link #GIT_MESSAGE}).
 */
public class EntryTooLargeException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	/** What git 2.55 says of such a transaction. */
	public static final String GIT_MESSAGE = "reftable: transaction failure: entry too large";

	/**
	 * @param message which record, and the block size
	 */
	public EntryTooLargeException(String message) {
		super(message);
	}

}
