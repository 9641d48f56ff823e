package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.refstore.core.ref.RefFormat;

/**
 * Where a kill of {@code refstore refs migrate} landed, read from what it left on disk:
 * the format the configuration names, the work directory, its journal and the store's
 * lock (see {@link MigrationKillIT}).
 */
enum KillLanding {

	NOT_STARTED("old state: nothing written yet"),

	BUILDING("old state: new store being built or verified"),

	LOCKED("old state: store locked for the swap"),

	STAGED("old state: journal written, configuration not yet switched"),

	SWITCHED("new state: old store being retired"),

	CLEANING_UP("new state: journal removed, work directory being removed"),

	COMPLETE("new state: complete");

	final String description;

	KillLanding(String description) {
		this.description = description;
	}

	boolean isOld() {
		return ordinal() <= STAGED.ordinal();
	}

	/**
	 * The lock that stops every writer of a store of {@code format}: the first a
	 * migration takes.
	 */
	static Path storeLock(Path gitDir, RefFormat format) {
		return (format == RefFormat.FILES) ? gitDir.resolve("packed-refs.lock")
				: gitDir.resolve("reftable/tables.list.lock");
	}

	static KillLanding of(Path gitDir, RefFormat old) throws IOException {
		Path work = gitDir.resolve(FormatMigrator.WORK_DIR);
		boolean switched = MigrationRunner.format(gitDir) != old;
		if (switched) {
			if (!Files.exists(work)) {
				return COMPLETE;
			}
			return Files.exists(work.resolve("journal")) ? SWITCHED : CLEANING_UP;
		}
		if (!Files.exists(work)) {
			return NOT_STARTED;
		}
		if (Files.exists(work.resolve("journal"))) {
			return STAGED;
		}
		return Files.exists(storeLock(gitDir, old)) ? LOCKED : BUILDING;
	}

}
