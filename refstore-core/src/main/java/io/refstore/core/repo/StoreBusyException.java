package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A repository's store is being swapped (a format migration or rollback in this process)
 * and did not become free in time: nothing was written; try again shortly.
 */
public final class StoreBusyException extends IOException {

	private static final long serialVersionUID = 1L;

	private final transient Duration waited;

	public StoreBusyException(Path commonDir, Duration waited) {
		super("the ref store of '" + commonDir + "' is being swapped (format migration or rollback); nothing was"
				+ " written, try again shortly");
		this.waited = waited;
	}

	/** How long the caller waited. */
	public Duration waited() {
		return this.waited;
	}

}
