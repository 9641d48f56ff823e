package io.refstore.core.reftable;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A compaction that must not skip anything ({@code pack-refs}) found {@code tables.list}
 * or a table locked by another process. Its message is git's: {@value #MESSAGE}.
 */
public class StackLockedException extends IOException {

	/** What git says when its compaction meets a lock. */
	public static final String MESSAGE = "unable to compact stack: data is locked";

	private static final long serialVersionUID = 1L;

	private final transient Path lockFile;

	StackLockedException(Path lockFile, Throwable cause) {
		super(MESSAGE, cause);
		this.lockFile = lockFile;
	}

	/** The lock another process holds. */
	public Path lockFile() {
		return this.lockFile;
	}

}
