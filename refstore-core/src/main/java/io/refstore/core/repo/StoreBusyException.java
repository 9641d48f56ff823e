package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A repository's store is being swapped (a format migration or rollback), or a bulk run
 * (a deletion or a restore) holds it, by this or another refstore process, and it did not
 * become free in time: nothing was written; try again shortly.
 */
public final class StoreBusyException extends IOException {

	private static final long serialVersionUID = 1L;

	private final transient Duration waited;

	public StoreBusyException(Path commonDir, Duration waited) {
		super("the ref store of '" + commonDir + "' is busy with a swap (format migration or rollback) or a"
				+ " deletion or restore of refs, by refstore; nothing was written, try again shortly");
		this.waited = waited;
	}

	/** How long the caller waited. */
	public Duration waited() {
		return this.waited;
	}

}
