package io.refstore.core.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A lock file that exists: another process is updating the file, or crashed while doing
 * so.
 */
public class LockFailedException extends IOException {

	private static final long serialVersionUID = 1L;

	private final Path lockFile;

	public LockFailedException(Path lockFile) {
		super("Unable to create '" + lockFile + "': File exists. Another process seems to be running in this"
				+ " repository; if no other process is running, remove the file by hand.");
		this.lockFile = lockFile;
	}

	/** The lock file that is in the way. */
	public Path lockFile() {
		return this.lockFile;
	}

}
