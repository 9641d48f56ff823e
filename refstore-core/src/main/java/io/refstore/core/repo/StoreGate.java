package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps this process's own ref writers out of a repository while its store is being
 * swapped (a format migration or a rollback), and tells a writer whose store was opened
 * before a swap that it now writes to a retired store.
 * <p>
 * git's locks cannot do this alone: a swap locks the refs that exist, but a writer
 * creating a new ref takes a lock no one holds, and a writer that read the configuration
 * before the switch goes on writing the old format. So every writer of a store opened
 * through {@link Repository} passes the gate ({@link #enter}) for the span of its locks,
 * and a swap closes it ({@link #closeForSwap}) before it takes the store's locks: writers
 * already in finish first, new ones wait for the swap to end (bounded). Each switch of
 * the configuration advances the gate's generation; a writer whose repository was opened
 * at an earlier generation is refused with {@link StoreSwappedException} and must open
 * the repository again.
 * <p>
 * One gate per repository (its common directory) and process; other processes (git,
 * another refstore) are not held by it. The lock is fair, so a waiting swap is not
 * starved by a stream of writers. Thread-safe.
 */
public final class StoreGate {

	/** How long a writer waits for a swap to end before {@link StoreBusyException}. */
	public static final Duration WRITER_WAIT = Duration.ofSeconds(10);

	private static final ConcurrentMap<Path, StoreGate> GATES = new ConcurrentHashMap<>();

	private final Path commonDir;

	private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);

	private final AtomicLong generation = new AtomicLong();

	private StoreGate(Path commonDir) {
		this.commonDir = commonDir;
	}

	/** The gate of the repository whose common directory is {@code commonDir}. */
	public static StoreGate of(Path commonDir) {
		return GATES.computeIfAbsent(key(commonDir), StoreGate::new);
	}

	private static Path key(Path dir) {
		try {
			return dir.toRealPath();
		}
		catch (IOException ex) {
			return dir.toAbsolutePath().normalize();
		}
	}

	/**
	 * The number of switches so far; read it before reading the configuration a store is
	 * opened by.
	 */
	public long generation() {
		return this.generation.get();
	}

	/**
	 * Lets a writer in, waiting up to {@code wait} for a swap to end.
	 * @param openedAt the {@link #generation()} read before the writer's configuration
	 * was read
	 * @return the pass, to be closed when the writer has released its locks
	 * @throws StoreBusyException if a swap holds the gate longer than {@code wait}
	 * @throws StoreSwappedException if the store was switched since {@code openedAt}
	 */
	public Pass enter(long openedAt, Duration wait) throws IOException {
		boolean entered;
		try {
			entered = this.lock.readLock().tryLock(wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new java.io.InterruptedIOException("interrupted while waiting for a swap of " + this.commonDir);
		}
		if (!entered) {
			throw new StoreBusyException(this.commonDir, wait);
		}
		if (this.generation.get() != openedAt) {
			this.lock.readLock().unlock();
			throw new StoreSwappedException(this.commonDir);
		}
		return this.lock.readLock()::unlock;
	}

	/**
	 * Closes the gate for a swap: waits up to {@code wait} for the writers inside to
	 * finish; new writers wait until the returned swap is closed.
	 * @throws StoreBusyException if writers stay inside longer than {@code wait}
	 */
	public Swap closeForSwap(Duration wait) throws IOException {
		boolean closed;
		try {
			closed = this.lock.writeLock().tryLock(wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new java.io.InterruptedIOException("interrupted while waiting for writers of " + this.commonDir);
		}
		if (!closed) {
			throw new StoreBusyException(this.commonDir, wait);
		}
		return new Swap();
	}

	/** A writer's way through the gate. */
	@FunctionalInterface
	public interface Pass extends AutoCloseable {

		@Override
		void close();

	}

	/** A closed gate, held by the thread that swaps. */
	public final class Swap implements AutoCloseable {

		private boolean open = true;

		private Swap() {
		}

		/**
		 * Records that the configuration now names another store: writers opened before
		 * are refused from now on. Call it right after the switch, before the swap opens
		 * the new store itself.
		 */
		public void switched() {
			StoreGate.this.generation.incrementAndGet();
		}

		/** Opens the gate again. Idempotent. */
		@Override
		public void close() {
			if (this.open) {
				this.open = false;
				StoreGate.this.lock.writeLock().unlock();
			}
		}

	}

}
