package io.refstore.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * git's lock protocol for one file: {@code <path>.lock} is created exclusively
 * ({@code O_EXCL}), may receive the new content, and is then either renamed over
 * {@code <path>} (commit) or deleted (rollback). A lock held by someone else is waited
 * for with git's back-off (sleeps of about k² ms, randomised to 75-125 %) until the
 * timeout. A stale lock is never broken, except by a taker for a {@link LockOwner}: it
 * removes a lock that is a link to the record of a refstore process known to be gone
 * ({@link AbandonedLocks}).
 *
 * <p>
 * Not thread-safe; one owner per instance.
 */
public final class LockFile implements AutoCloseable {

	/**
	 * How many abandoned locks one acquisition removes at the most before it waits like
	 * any other: each removal lets another taker in first.
	 */
	private static final int MAX_BREAKS = 3;

	private final Path target;

	private final Path lock;

	private FileChannel channel;

	private boolean held;

	/**
	 * The owner this lock is linked to, whose staged file receives the content;
	 * {@code null} for git's locks.
	 */
	private LockOwner owner;

	/**
	 * Where {@link #write} put the content of an owned lock, renamed over the target by
	 * {@link #commit}.
	 */
	private Path staged;

	private LockFile(Path target) {
		this.target = target;
		this.lock = target.resolveSibling(target.getFileName() + ".lock");
	}

	/**
	 * Takes the lock of {@code target}, waiting up to {@code timeout} for another holder
	 * to let go.
	 * @param target the file to lock
	 * @param timeout how long to retry; zero tries once, {@code null} waits forever
	 * @return the held lock
	 * @throws LockFailedException if the lock stays held by someone else, naming the lock
	 * file
	 * @throws IOException if the lock cannot be created for another reason (such as a
	 * missing directory)
	 */
	public static LockFile acquire(Path target, Duration timeout) throws IOException {
		LockFile lockFile = new LockFile(target);
		return lockFile.take(timeout, () -> lockFile.channel = FileChannel.open(lockFile.lock,
				StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
	}

	/**
	 * How a lock file is created; fails with {@link FileAlreadyExistsException} while
	 * another holder has it.
	 */
	@FunctionalInterface
	private interface Creation {

		void create() throws IOException;

	}

	/**
	 * Retries {@code creation} with a growing, jittered back-off until it succeeds or
	 * {@code timeout} (zero tries once, {@code null} waits forever) runs out; whatever
	 * the creation, the wait is git's.
	 */
	private LockFile take(Duration timeout, Creation creation) throws IOException {
		return LockWaits.timed(LockWaits.Kind.LOCK_FILE, () -> takeWaiting(timeout, creation));
	}

	private LockFile takeWaiting(Duration timeout, Creation creation) throws IOException {
		long deadline = (timeout != null) ? System.nanoTime() + timeout.toNanos() : Long.MAX_VALUE;
		int attempt = 1;
		int broken = 0;
		while (true) {
			try {
				creation.create();
				this.held = true;
				return this;
			}
			catch (FileAlreadyExistsException ex) {
				// an owned lock's taker clears a lock that a dead refstore process left
				// (a
				// link to its record), and only such a one; git's locks are waited for
				if (this.owner != null && broken < MAX_BREAKS && this.owner.breakIfAbandoned(this.lock)) {
					broken++;
					continue;
				}
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					throw new LockFailedException(this.lock);
				}
				sleepBackoff(attempt++, remaining);
			}
		}
	}

	private static void sleepBackoff(int attempt, long remainingNanos) throws IOException {
		long multiplier = Math.min((long) attempt * attempt, 1000);
		long millis = multiplier * ThreadLocalRandom.current().nextLong(750, 1250) / 1000;
		long nanos = Math.min(Math.max(millis, 1) * 1_000_000L, remainingNanos);
		try {
			Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new java.io.InterruptedIOException("interrupted while waiting for a lock");
		}
	}

	/**
	 * Takes the lock of {@code target} as a hard link to {@code mark}, so that the lock
	 * file holds the mark's content (its owner) from the instant it exists: a process
	 * killed at any moment leaves only locks that {@link #deleteIfOwned} recognises.
	 * {@code mark} must be on the same file system. Waits like {@link #acquire}.
	 */
	public static LockFile acquireLinked(Path target, Duration timeout, Path mark) throws IOException {
		LockFile lockFile = new LockFile(target);
		return lockFile.take(timeout, () -> Files.createLink(lockFile.lock, mark));
	}

	/**
	 * Takes the lock of {@code target} for {@code owner}: as a hard link to the owner's
	 * record, so that a lock left by a run that died is known as its own
	 * ({@link LockOwner#releaseAbandoned}). Content written into it is staged in a file
	 * of the owner's and renamed over the target on {@link #commit}, never written into
	 * the link. Waits like {@link #acquire}.
	 * @param owner the run taking the lock, or {@code null} for a lock as git takes it
	 */
	public static LockFile acquire(Path target, Duration timeout, LockOwner owner) throws IOException {
		if (owner == null) {
			return acquire(target, timeout);
		}
		LockFile lock = new LockFile(target);
		lock.owner = owner;
		Path mark = owner.mark();
		try {
			return lock.take(timeout, () -> Files.createLink(lock.lock, mark));
		}
		catch (NoSuchFileException ex) {
			if (!owner.recordLost()) {
				throw ex;
			}
			// the record was removed under a long-lived owner: publish it again
			Path again = owner.mark();
			return lock.take(timeout, () -> Files.createLink(lock.lock, again));
		}
	}

	/** The file this lock protects. */
	public Path target() {
		return this.target;
	}

	/** The {@code .lock} file itself. */
	public Path lockPath() {
		return this.lock;
	}

	/**
	 * Writes the complete new content into the lock file and closes it; a lock whose
	 * descriptor was closed ({@link #closeChannel()}) is opened again for it.
	 * @param content the bytes the target will hold after {@link #commit()}
	 * @param fsync whether to flush to disk before closing ({@code core.fsync} covers
	 * references)
	 */
	public void write(byte[] content, boolean fsync) throws IOException {
		if (this.channel == null) {
			if (!this.held) {
				throw new IllegalStateException("lock not held: " + this.lock);
			}
			this.channel = (this.owner != null) ? stage()
					: FileChannel.open(this.lock, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
		}
		ByteBuffer buffer = ByteBuffer.wrap(content);
		while (buffer.hasRemaining()) {
			this.channel.write(buffer);
		}
		if (fsync) {
			Fsync.force(this.channel);
		}
		closeChannel();
	}

	/**
	 * An owned lock's staged file, new, for its content (the lock itself is the owner's
	 * record).
	 */
	private FileChannel stage() throws IOException {
		if (this.staged != null) {
			Files.deleteIfExists(this.staged);
		}
		this.staged = this.owner.stagingFile();
		return FileChannel.open(this.staged, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
	}

	/**
	 * Closes the lock file's descriptor without releasing the lock, as git does for
	 * {@code packed-refs.lock} and for the refs of a transaction (one process may hold
	 * more locks than it may open files).
	 */
	public void closeChannel() throws IOException {
		if (this.channel != null) {
			this.channel.close();
			this.channel = null;
		}
	}

	/**
	 * The file {@link #commit()} renames over the target: the lock itself, or an owned
	 * lock's staged file once written. Its permissions become the target's.
	 */
	public Path pendingContent() {
		return (this.staged != null) ? this.staged : this.lock;
	}

	/**
	 * Renames the lock file over the target, atomically replacing it, and releases the
	 * lock.
	 * @throws IllegalStateException if the lock is not held
	 */
	public void commit() throws IOException {
		if (!this.held) {
			throw new IllegalStateException("lock not held: " + this.lock);
		}
		closeChannel();
		if (this.owner != null) {
			if (this.staged == null) {
				throw new IllegalStateException("nothing written to commit: " + this.lock);
			}
			// the content replaces the target while the lock still stands, then the lock
			// goes
			Files.move(this.staged, this.target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			this.staged = null;
			Files.delete(this.lock);
		}
		else {
			Files.move(this.lock, this.target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		this.held = false;
	}

	/** Deletes the lock file, releasing the lock; the target is unchanged. Idempotent. */
	public void rollback() {
		if (!this.held) {
			return;
		}
		try {
			closeChannel();
		}
		catch (IOException ex) {
			// the lock file is deleted below either way
		}
		try {
			if (this.staged != null) {
				Files.deleteIfExists(this.staged);
				this.staged = null;
			}
			Files.deleteIfExists(this.lock);
		}
		catch (IOException ex) {
			// nothing more can be done; the next writer will report the stale lock by
			// name
		}
		this.held = false;
	}

	/** Whether this instance still holds the lock. */
	public boolean isHeld() {
		return this.held;
	}

	@Override
	public void close() {
		rollback();
	}

	/**
	 * Deletes a lock file left behind by a process that died, recognised by the owner
	 * text it wrote into the lock ({@link #write}): locks of anyone else are never
	 * touched.
	 * @param lock the {@code .lock} file
	 * @param owner the exact content the dead owner wrote
	 * @return whether the lock was that owner's and is gone
	 */
	public static boolean deleteIfOwned(Path lock, byte[] owner) throws IOException {
		byte[] content;
		try {
			if (Files.size(lock) != owner.length) {
				return false;
			}
			content = Files.readAllBytes(lock);
		}
		catch (NoSuchFileException ex) {
			return false;
		}
		return java.util.Arrays.equals(content, owner) && deleteIfExists(lock);
	}

	/**
	 * Deletes a file if it exists, treating a missing file as done.
	 * @return whether a file was deleted
	 */
	public static boolean deleteIfExists(Path path) throws IOException {
		try {
			return Files.deleteIfExists(path);
		}
		catch (NoSuchFileException ex) {
			return false;
		}
	}

}
