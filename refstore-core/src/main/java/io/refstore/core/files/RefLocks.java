package io.refstore.core.files;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.refstore.core.io.LockFile;
import io.refstore.core.io.ParallelIo;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;

/**
 * The ref locks of one files transaction ({@code <ref>.lock}, made exclusively), each
 * with the ref's loose file as read under it. Making and removing lock files is kernel
 * work (inode and directory allocation) that one thread cannot hurry: the locks of a
 * transaction are made ahead on every processor ({@link ParallelIo}), and their outcomes
 * taken in submission order, so the first refusal is the one git reports. Each lock's
 * descriptor is closed once it is made, as git does: a transaction may hold more locks
 * than the process may open files.
 *
 * <p>
 * Belongs to one transaction; not thread-safe.
 */
final class RefLocks {

	/**
	 * A ref's lock, and its loose file as read under the lock ({@code null} if there is
	 * none).
	 */
	record Taken(LockFile lock, Ref loose) {
	}

	private final FilesRefStore store;

	/** Every lock held, by ref name. */
	private final Map<String, LockFile> held = new TreeMap<>();

	/**
	 * The names locked ahead, in order, and their outcomes; {@code null} until
	 * {@link #takeAhead}.
	 */
	private List<String> ahead;

	private List<ParallelIo.Outcome<Taken>> taken;

	RefLocks(FilesRefStore store) {
		this.store = store;
	}

	/** Makes the locks of {@code names} now, on every processor when there are many. */
	void takeAhead(List<String> names) throws IOException {
		this.ahead = names;
		this.taken = ParallelIo.map(names, this::acquire);
		for (int i = 0; i < names.size(); i++) {
			if (this.taken.get(i).failure() == null) {
				this.held.put(names.get(i), this.taken.get(i).get().lock());
			}
		}
	}

	/**
	 * The lock of the {@code index}-th name: made ahead, or made now when none were.
	 * @return the outcome: the lock and the loose file, or why the lock could not be made
	 */
	ParallelIo.Outcome<Taken> take(int index, String name) throws IOException {
		if (this.taken != null) {
			return this.taken.get(index);
		}
		ParallelIo.Outcome<Taken> outcome = ParallelIo.attempt(() -> acquire(name));
		if (outcome.failure() == null) {
			this.held.put(name, outcome.get().lock());
		}
		return outcome;
	}

	/**
	 * After the refusal of the {@code refused}-th name: releases the locks made ahead for
	 * the later names, and the directories made for them, which git, stopping at the
	 * refusal, would not have made. The refused name's own lock is released now; the
	 * directories made for it stay unless {@code pruneRefused}: git keeps them when
	 * taking the lock failed (a name conflict found under it included) and prunes them
	 * when a locked ref failed a later check.
	 */
	void releaseAfter(int refused, String refusedName, boolean pruneRefused) {
		LockFile own = this.held.remove(refusedName);
		if (own != null && own.isHeld()) {
			own.rollback();
			if (pruneRefused) {
				FilesRefStore.removeEmptyParents(this.store.base(refusedName), own.target());
			}
		}
		for (int i = refused + 1; this.ahead != null && i < this.ahead.size(); i++) {
			String name = this.ahead.get(i);
			LockFile lock = this.held.remove(name);
			if (lock != null) {
				lock.rollback();
				FilesRefStore.removeEmptyParents(this.store.base(name), lock.target());
			}
		}
	}

	/** The lock held for {@code name}. */
	LockFile get(String name) {
		return this.held.get(name);
	}

	/**
	 * Releases every lock still held, and the directories made for them that are left
	 * empty (git prunes them when a transaction is aborted or never committed); the refs
	 * are unchanged.
	 */
	void releaseAll() {
		for (Map.Entry<String, LockFile> held : this.held.entrySet()) {
			LockFile lock = held.getValue();
			if (lock.isHeld()) {
				lock.rollback();
				FilesRefStore.removeEmptyParents(this.store.base(held.getKey()), lock.target());
			}
		}
	}

	/**
	 * After the deletions are in {@code packed-refs}: removes each deleted ref's loose
	 * file, then its lock and the directories left empty, on every processor (a directory
	 * holding another ref's lock is not empty until that ref's turn).
	 */
	void removeDeleted(List<String> names) throws IOException {
		for (ParallelIo.Outcome<Void> removed : ParallelIo.map(names, this::removeOne)) {
			removed.get();
		}
	}

	private Void removeOne(String name) throws IOException {
		Path path = this.store.refPath(name);
		try {
			Files.deleteIfExists(path);
		}
		catch (FileSystemException ex) {
			// a directory where the ref's file would be is no loose ref
			if (!Files.isDirectory(path)) {
				throw ex;
			}
		}
		this.held.get(name).rollback();
		FilesRefStore.removeEmptyParents(this.store.base(name), path);
		return null;
	}

	/**
	 * Creates the lock file of a ref, as git does: tries first, and makes its directories
	 * only when missing; then reads the ref's loose file on the same thread (only a lock
	 * holder changes it).
	 */
	private Taken acquire(String name) throws IOException {
		Path path = this.store.refPath(name);
		LockFile lock;
		try {
			lock = LockFile.acquire(path, this.store.options.looseLockTimeout(), this.store.options.owner());
		}
		catch (FileSystemException ex) {
			// a missing directory (or a file where one should be, found by making them)
			FilesRefStore.createParentDirectories(path);
			lock = LockFile.acquire(path, this.store.options.looseLockTimeout(), this.store.options.owner());
		}
		try {
			lock.closeChannel();
			return new Taken(lock,
					RefName.isValid(name, true) ? LooseRefs.read(path, name, this.store.hashAlgorithm()) : null);
		}
		catch (IOException | RuntimeException ex) {
			lock.rollback();
			throw ex;
		}
	}

}
