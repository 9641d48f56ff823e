package io.refstore.core.ref;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Packing that must not skip anything ({@link RefStore#packRefs}, a reftable stack's
 * compaction) found {@code tables.list} or a table locked by another process. Its message
 * is git's: {@value #MESSAGE}. Part of the contract so that callers can tell it apart
 * without knowing the backend.
 */
public class PackLockedException extends IOException {

	/** What git says when its compaction meets a lock. */
	public static final String MESSAGE = "unable to compact stack: data is locked";

	private static final long serialVersionUID = 1L;

	private final transient Path lockFile;

	/**
	 * The lock met.
	 * @param lockFile the lock another process holds
	 * @param cause the failure to take it
	 */
	public PackLockedException(Path lockFile, Throwable cause) {
		super(MESSAGE, cause);
		this.lockFile = lockFile;
	}

	/** The lock another process holds. */
	public Path lockFile() {
		return this.lockFile;
	}

}
