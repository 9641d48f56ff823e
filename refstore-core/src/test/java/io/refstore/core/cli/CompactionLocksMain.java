package io.refstore.core.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.refstore.core.io.LockFile;
import io.refstore.core.io.LockOwner;

/**
 * A process that takes the locks a reftable compaction of the application or the
 * {@code refstore} command holds while it writes the compacted table, as their owner
 * takes them (links to its record), says {@code locked} and waits to be killed: every
 * listed table's lock, and the lock of a table a compaction already replaced in
 * {@code tables.list} (all that is left of it once the compaction renamed the new list
 * into place). Used by {@link KilledWriterLocksIT}.
 */
public final class CompactionLocksMain {

	/** A table no list names any more. */
	static final String REPLACED = "0x000000000001-0x000000000001-0badcafe.ref";

	private CompactionLocksMain() {
	}

	/** {@code args[0]}: the git directory. */
	public static void main(String[] args) throws Exception {
		Path stack = Path.of(args[0]).resolve("reftable");
		LockOwner owner = LockOwner.forProcess(Path.of(args[0]), "pack-refs");
		for (String table : Files.readAllLines(stack.resolve("tables.list"))) {
			LockFile.acquire(stack.resolve(table), Duration.ZERO, owner);
		}
		LockFile.acquire(stack.resolve(REPLACED), Duration.ZERO, owner);
		System.out.println("locked");
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

}
