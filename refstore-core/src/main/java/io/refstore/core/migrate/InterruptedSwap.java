package io.refstore.core.migrate;

import java.nio.file.Path;

import io.refstore.core.ref.RefFormat;

/**
 * The swap of a migration or rollback that a killed run had begun (its configuration
 * already switched), which another run finished before doing what it was asked: a
 * rollback after a killed migration finishes the migration, then rolls back.
 *
 * @param from the format the killed run migrated from
 * @param to the format it migrated to, which the repository used once it was finished
 * @param backup where the killed run kept the store it retired
 * @param restored the backup the killed run restored if it was a rollback (left in place:
 * only that rollback run again removes it), or {@code null} for a migration or a run of
 * an earlier version, whose journal did not say
 */
public record InterruptedSwap(RefFormat from, RefFormat to, Path backup, Path restored) {

	/** Whether the killed run was a rollback. */
	public boolean rollback() {
		return this.restored != null;
	}

}
