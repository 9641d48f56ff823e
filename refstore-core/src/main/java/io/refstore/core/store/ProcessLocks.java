package io.refstore.core.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.refstore.core.io.LockOwner;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;

/**
 * The lock records of this process's ordinary writes (the API's transactions, a command's
 * {@code update-ref}, {@code pack-refs}, the compactions after them): one owner record
 * per repository and process ({@link LockOwner#forProcess}), written at the first lock
 * the process takes there, so that every lock such a write takes is a hard link to it and
 * the locks of a process that is killed, or dies with its machine, are known as its own
 * and cleared by the next writer that needs them or by {@link #releaseAbandoned}. A store
 * under {@code core.fsync} for references makes the record durable (one directory sync
 * per repository and process, not per transaction).
 *
 * <p>
 * Thread-safe. Close it after every store it opened, at the end of the process's work:
 * the records are removed then.
 */
public final class ProcessLocks implements AutoCloseable {

	private final String command;

	private final Map<Path, LockOwner> owners = new ConcurrentHashMap<>();

	/**
	 * @param command what runs, for the records ({@code "update-ref"},
	 * {@code "refstore-web"})
	 */
	public ProcessLocks(String command) {
		this.command = command;
	}

	/**
	 * Opens {@code repository}'s ref store (as {@link RefStores#open(Repository)}) with
	 * its locks recorded as this process's.
	 * @return a store the caller closes, before closing this
	 */
	public RefStore open(Repository repository) throws IOException {
		Path commonDir = repository.refsCommonDir().toAbsolutePath().normalize();
		LockOwner owner = this.owners.computeIfAbsent(commonDir, (dir) -> LockOwner.forProcess(dir, this.command));
		return RefStores.open(repository, repository.reflogPolicy(), owner);
	}

	/**
	 * Removes the locks that refstore processes known to be gone left in
	 * {@code repository} (links to their records; git's locks and those of owners that
	 * may run stay), with their records: what an application does at its start.
	 * @return how many locks were removed
	 */
	public static int releaseAbandoned(Repository repository) throws IOException {
		return LockOwner.releaseAbandoned(repository.refsCommonDir(), null).locks();
	}

	/** Removes this process's records (those no lock links to any more). */
	@Override
	public void close() throws IOException {
		List<IOException> failures = new ArrayList<>();
		for (LockOwner owner : this.owners.values()) {
			try {
				owner.close();
			}
			catch (IOException ex) {
				failures.add(ex);
			}
		}
		this.owners.clear();
		if (!failures.isEmpty()) {
			throw failures.get(0);
		}
	}

}
