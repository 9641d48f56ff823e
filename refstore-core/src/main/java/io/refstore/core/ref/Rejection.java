package io.refstore.core.ref;

/**
 * Why an update of a transaction was refused. A transaction with any rejection changes
 * nothing.
 */
public enum Rejection {

	/**
	 * Another process holds the lock of the ref (or of {@code packed-refs}, or of the
	 * reftable stack).
	 */
	LOCK_FAILURE,
	/** The ref's current value is not the expected old value. */
	INCORRECT_OLD_VALUE,
	/** The ref was required not to exist, but it does. */
	CREATE_EXISTS,
	/** The ref was required to exist with a value, but it does not. */
	NONEXISTENT_REF,
	/**
	 * The name conflicts with an existing ref or another update ({@code a} versus
	 * {@code a/b}).
	 */
	NAME_CONFLICT,
	/** The new value names an object the repository does not have. */
	MISSING_OBJECT,
	/** The name breaks a rule of {@code git check-ref-format}. */
	INVALID_NAME,
	/** The same ref is named by two updates of the transaction. */
	DUPLICATE_UPDATE,
	/**
	 * The ref's loose file holds no value git can parse. git refuses to lock such a ref
	 * rather than overwrite what may be something else's file (a loose object named like
	 * a ref); so does refstore.
	 */
	BROKEN_REF,
	/** The update was fine, but another update of the transaction was rejected. */
	NOT_ATTEMPTED,
	/** Reading or writing the store failed. */
	IO_ERROR

}
