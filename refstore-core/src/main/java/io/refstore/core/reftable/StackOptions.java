package io.refstore.core.reftable;

import java.time.Duration;
import java.util.Objects;

import io.refstore.core.io.LockOwner;
import io.refstore.core.io.SharedPermissions;
import io.refstore.core.reftable.format.WriteOptions;

/**
 * How a {@link ReftableStack} writes.
 *
 * @param lockTimeout how long to wait for {@code tables.list.lock}
 * ({@code reftable.lockTimeout}, git's default 100 ms; {@code null} waits forever)
 * @param geometricFactor the factor of the auto-compaction policy
 * ({@code reftable.geometricFactor}, default 2)
 * @param autoCompact whether each addition is followed by geometric compaction (git's
 * default: yes)
 * @param fsync whether tables and the list reach the disk before they are renamed into
 * place
 * @param writeOptions the layout of new tables (block size, restart interval, object
 * index)
 * @param owner the run whose locks these are ({@link LockOwner}), or {@code null} for
 * locks as git takes them
 * @param sharedPermissions what {@code core.sharedRepository} adds to the permissions of
 * new tables and of {@code tables.list} ({@link SharedPermissions})
 */
public record StackOptions(Duration lockTimeout, int geometricFactor, boolean autoCompact, boolean fsync,
		WriteOptions writeOptions, LockOwner owner, int sharedPermissions) {

	public StackOptions {
		Objects.requireNonNull(writeOptions, "writeOptions");
		if (geometricFactor < 2 || geometricFactor > 255) {
			throw new IllegalArgumentException("geometricFactor must be 2..255, was " + geometricFactor);
		}
	}

	/** git's defaults for a repository of {@code writeOptions.hash()}. */
	public static StackOptions defaults(WriteOptions writeOptions) {
		return new StackOptions(Duration.ofMillis(100), 2, true, false, writeOptions, null, SharedPermissions.UMASK);
	}

	/** These options waiting {@code lockTimeout} for the stack's lock. */
	public StackOptions withLockTimeout(Duration lockTimeout) {
		return new StackOptions(lockTimeout, this.geometricFactor, this.autoCompact, this.fsync, this.writeOptions,
				this.owner, this.sharedPermissions);
	}

	/** These options for the locks of {@code owner}. */
	public StackOptions withOwner(LockOwner owner) {
		return new StackOptions(this.lockTimeout, this.geometricFactor, this.autoCompact, this.fsync, this.writeOptions,
				owner, this.sharedPermissions);
	}

}
