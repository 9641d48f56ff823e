package io.refstore.core.repo;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import io.refstore.core.io.LockWaits;

/**
 * Keeps every refstore process's ref writers out of a repository while its store is being
 * swapped (a format migration or a rollback, by the {@code refstore} command, the
 * application or another node on the same storage), and tells a writer whose store was
 * opened before a swap that it now writes to a retired store.
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
 * Across processes the gate is the file {@value #FILE} in the common directory, which no
 * one renames or removes, and byte-range locks on it ({@code fcntl}), which the kernel
 * drops when their process dies, so a killed swap never blocks anyone. A process whose
 * writers are inside holds a shared lock on the <em>gate</em> byte while any of them is;
 * a swap holds the <em>intent</em> byte exclusively, which turns away writers not yet
 * inside (so a busy process cannot starve it), then waits for the gate byte exclusively.
 * The generation is a counter in the file, advanced under the swap's locks. Inside one
 * process a fair read-write lock does the same for its threads, since a process shares
 * its {@code fcntl} locks among them. git does not take these locks: it is held off by
 * its own, which the swap takes.
 * <p>
 * A bulk run (a deletion or a restore) announces itself with a third byte, the
 * <em>run</em> byte, held exclusively for as long as it runs ({@link #beginRun}); a swap
 * takes it too, first, so that swaps and runs take turns, one at a time per repository.
 * Writers do not look at it: a run closes the gate only for each of its chunks
 * ({@link #closeForChunk}), as a swap closes it, and writers wait for the chunk rather
 * than meet its locks.
 * <p>
 * One gate per repository (its common directory) and process. Thread-safe.
 */
public final class StoreGate {

	/** The gate's file in the common directory. */
	public static final String FILE = "refstore-gate";

	/** How long a writer waits for a swap to end before {@link StoreBusyException}. */
	public static final Duration WRITER_WAIT = Duration.ofSeconds(10);

	private static final long INTENT = 0;

	private static final long GATE = 1;

	/** Held exclusively for a whole swap or bulk run: one at a time per repository. */
	private static final long RUN = 2;

	/** Where the generation is kept: a big-endian {@code long}. */
	private static final long GENERATION_AT = 8;

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private static final ConcurrentMap<Path, StoreGate> GATES = new ConcurrentHashMap<>();

	private final Path commonDir;

	private final Path file;

	private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);

	// the file and this process's locks on it, guarded by this gate's monitor: open while
	// writers of this process are inside (sharers > 0) or a swap of this process holds it

	private FileChannel channel;

	private FileLock shared;

	private int sharers;

	/** The generation read when the shared lock was taken, or a swap's or a run's own. */
	private long held;

	/** The lock of this process's {@link Run}, or {@code null}. */
	private FileLock run;

	/** Whether a {@link Swap} or a run's chunk of this process holds the gate closed. */
	private boolean closed;

	private StoreGate(Path commonDir) {
		this.commonDir = commonDir;
		this.file = commonDir.resolve(FILE);
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
	 * The number of switches so far, by any process; read it before reading the
	 * configuration a store is opened by. 0 while no swap ever made the gate's file.
	 */
	public synchronized long generation() throws IOException {
		if (this.channel != null) {
			return this.held;
		}
		// only while this process holds no lock on the file: closing any descriptor of a
		// file drops every fcntl lock the process holds on it, whichever descriptor took
		// it
		try (FileChannel read = FileChannel.open(this.file, StandardOpenOption.READ)) {
			return readGeneration(read);
		}
		catch (NoSuchFileException ex) {
			return 0;
		}
	}

	/**
	 * Lets a writer in, waiting up to {@code wait} for a swap to end.
	 * @param openedAt the {@link #generation()} read before the writer's configuration
	 * was read
	 * @return the pass, to be closed by the same thread when the writer has released its
	 * locks
	 * @throws StoreBusyException if a swap holds the gate longer than {@code wait}
	 * @throws StoreSwappedException if the store was switched since {@code openedAt}
	 */
	public Pass enter(long openedAt, Duration wait) throws IOException {
		return LockWaits.timed(LockWaits.Kind.GATE_WRITER, () -> enterWaiting(openedAt, wait));
	}

	private Pass enterWaiting(long openedAt, Duration wait) throws IOException {
		if (this.lock.isWriteLockedByCurrentThread() || this.lock.getReadHoldCount() > 0) {
			// this thread is inside already (a swap's own writes, a writer's nested one):
			// its process holds the file
			this.lock.readLock().lock();
			return checked(openedAt, this.lock.readLock()::unlock);
		}
		long deadline = System.nanoTime() + wait.toNanos();
		boolean entered;
		try {
			entered = this.lock.readLock().tryLock(wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw interrupted();
		}
		if (!entered) {
			throw new StoreBusyException(this.commonDir, wait);
		}
		try {
			while (!share()) {
				pause(deadline, wait);
			}
		}
		catch (IOException | RuntimeException ex) {
			this.lock.readLock().unlock();
			throw ex;
		}
		return checked(openedAt, () -> {
			unshare();
			this.lock.readLock().unlock();
		});
	}

	private Pass checked(long openedAt, Pass pass) throws StoreSwappedException {
		long now;
		synchronized (this) {
			now = this.held;
		}
		if (now != openedAt) {
			pass.close();
			throw new StoreSwappedException(this.commonDir);
		}
		return pass;
	}

	/**
	 * Takes this process's share of the file for one more writer, unless another
	 * process's swap has announced itself or holds the gate.
	 * @return whether the writer is in
	 */
	private synchronized boolean share() throws IOException {
		open();
		try {
			// every writer looks at the intent, also while others of this process are
			// inside: a swap waiting for them is not starved by newcomers
			FileLock intent = tryLock(this.channel, INTENT, true);
			if (intent == null) {
				return false;
			}
			try {
				if (this.sharers == 0) {
					this.shared = tryLock(this.channel, GATE, true);
					if (this.shared == null) {
						return false;
					}
					this.held = readGeneration(this.channel);
				}
				this.sharers++;
				return true;
			}
			finally {
				intent.release();
			}
		}
		finally {
			if (this.sharers == 0) {
				closeIfUnused();
			}
		}
	}

	private synchronized void unshare() {
		if (--this.sharers == 0) {
			release(this.shared);
			this.shared = null;
			closeIfUnused();
		}
	}

	/** Opens the file if this process has not. */
	private void open() throws IOException {
		if (this.channel == null) {
			this.channel = FileChannel.open(this.file, StandardOpenOption.READ, StandardOpenOption.WRITE,
					StandardOpenOption.CREATE);
		}
	}

	/**
	 * Closes the file, which drops this process's locks on it, once no writer, swap, run
	 * or chunk of this process holds any.
	 */
	private void closeIfUnused() {
		if (this.channel == null || this.sharers > 0 || this.run != null || this.closed) {
			return;
		}
		try {
			this.channel.close();
		}
		catch (IOException ex) {
			// closing a file only read and locked: its locks are gone either way
		}
		this.channel = null;
		this.shared = null;
	}

	/** Releases one byte's lock; the file stays open for this process's other locks. */
	private static void release(FileLock lock) {
		if (lock == null || !lock.isValid()) {
			return;
		}
		try {
			lock.release();
		}
		catch (IOException ex) {
			// the lock goes with the file at the latest
		}
	}

	/**
	 * One byte's lock, or {@code null} while another process (or, through another path to
	 * the same file, this one) holds it.
	 */
	private static FileLock tryLock(FileChannel channel, long at, boolean shared) throws IOException {
		try {
			return channel.tryLock(at, 1, shared);
		}
		catch (OverlappingFileLockException ex) {
			return null;
		}
	}

	private void pause(long deadline, Duration wait) throws IOException {
		long left = deadline - System.nanoTime();
		if (left <= 0) {
			throw new StoreBusyException(this.commonDir, wait);
		}
		try {
			TimeUnit.NANOSECONDS.sleep(Math.min(left, POLL_NANOS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw interrupted();
		}
	}

	private InterruptedIOException interrupted() {
		return new InterruptedIOException("interrupted while waiting for a swap of " + this.commonDir);
	}

	private static long readGeneration(FileChannel channel) throws IOException {
		ByteBuffer bytes = ByteBuffer.allocate(Long.BYTES);
		while (bytes.hasRemaining()) {
			if (channel.read(bytes, GENERATION_AT + bytes.position()) < 0) {
				// a gate no swap has written yet
				return 0;
			}
		}
		return bytes.flip().getLong();
	}

	/**
	 * Closes the gate for a swap: announces it to every process, then waits up to
	 * {@code wait} for the writers inside to finish; new writers wait until the returned
	 * swap is closed.
	 * @throws StoreBusyException if writers stay inside, or another swap or a bulk run
	 * holds the repository, longer than {@code wait}
	 */
	public Swap closeForSwap(Duration wait) throws IOException {
		long deadline = System.nanoTime() + wait.toNanos();
		FileLock[] locks = LockWaits.timed(LockWaits.Kind.GATE_SWAP, () -> close(deadline, wait, true));
		synchronized (this) {
			// written now, before anything changes: advancing it after the switch then
			// needs no new space
			writeGeneration(this.held);
		}
		return new Swap(locks);
	}

	/**
	 * Announces a bulk run (a deletion or a restore) to every process: no swap and no
	 * other run begins in the repository until the returned run is closed, and this one
	 * waits up to {@code wait} for one that holds it. Writers are not held off by the run
	 * itself, only by each of its chunks ({@link #closeForChunk}).
	 * @throws StoreBusyException if a swap or another run holds the repository longer
	 * than {@code wait}
	 */
	public Run beginRun(Duration wait) throws IOException {
		long deadline = System.nanoTime() + wait.toNanos();
		return LockWaits.timed(LockWaits.Kind.GATE_RUN, () -> {
			while (lockRun(true) == null) {
				pause(deadline, wait);
			}
			return new Run();
		});
	}

	/**
	 * Takes the run byte, unless this process or another holds it; a run's lock is kept
	 * as this process's {@link #run}, with the generation it begins at.
	 */
	private synchronized FileLock lockRun(boolean forRun) throws IOException {
		if (this.run != null) {
			return null;
		}
		open();
		FileLock lock = tryLock(this.channel, RUN, false);
		if (lock == null) {
			closeIfUnused();
		}
		else if (forRun) {
			this.run = lock;
			this.held = readGeneration(this.channel);
		}
		return lock;
	}

	/**
	 * Closes the gate for one chunk of a bulk run (or any short write that must see no
	 * other writer): waits up to {@code wait} for the writers inside to finish; new
	 * writers wait until the returned pass is closed, which the same thread must do. The
	 * thread's own writes pass meanwhile.
	 * @throws StoreBusyException if writers stay inside, or a swap holds the gate, longer
	 * than {@code wait}
	 */
	public Pass closeForChunk(Duration wait) throws IOException {
		long deadline = System.nanoTime() + wait.toNanos();
		FileLock[] locks = LockWaits.timed(LockWaits.Kind.GATE_CHUNK, () -> close(deadline, wait, false));
		return () -> reopen(locks);
	}

	/**
	 * Takes this process's write lock, then the intent and gate bytes exclusively (and
	 * the run byte first, for a swap).
	 */
	private FileLock[] close(long deadline, Duration wait, boolean swap) throws IOException {
		boolean locked;
		try {
			locked = this.lock.writeLock().tryLock(wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw interrupted();
		}
		if (!locked) {
			throw new StoreBusyException(this.commonDir, wait);
		}
		FileLock[] locks = new FileLock[3];
		try {
			synchronized (this) {
				// no writer of this process is inside: it holds no share
				open();
				this.closed = true;
			}
			if (swap) {
				while ((locks[2] = lockRun(false)) == null) {
					pause(deadline, wait);
				}
			}
			while ((locks[0] = tryLock(this.channel, INTENT, false)) == null) {
				pause(deadline, wait);
			}
			while ((locks[1] = tryLock(this.channel, GATE, false)) == null) {
				pause(deadline, wait);
			}
			synchronized (this) {
				this.held = readGeneration(this.channel);
			}
			return locks;
		}
		catch (IOException | RuntimeException ex) {
			reopen(locks);
			throw ex;
		}
	}

	/** Undoes {@link #close}: releases its locks, then this process's write lock. */
	private void reopen(FileLock[] locks) {
		synchronized (this) {
			for (FileLock held : locks) {
				release(held);
			}
			this.closed = false;
			closeIfUnused();
		}
		this.lock.writeLock().unlock();
	}

	private void writeGeneration(long generation) throws IOException {
		ByteBuffer bytes = ByteBuffer.allocate(Long.BYTES).putLong(generation).flip();
		while (bytes.hasRemaining()) {
			this.channel.write(bytes, GENERATION_AT + bytes.position());
		}
	}

	/** A writer's way through the gate. */
	@FunctionalInterface
	public interface Pass extends AutoCloseable {

		@Override
		void close();

	}

	/** A closed gate, held by the thread that swaps. */
	public final class Swap implements AutoCloseable {

		private final FileLock[] locks;

		private boolean open = true;

		private Swap(FileLock[] locks) {
			this.locks = locks;
		}

		/**
		 * Records that the configuration now names another store: writers opened before
		 * are refused from now on, in every process. Call it right after the switch,
		 * before the swap opens the new store itself.
		 */
		public void switched() throws IOException {
			synchronized (StoreGate.this) {
				writeGeneration(StoreGate.this.held + 1);
				StoreGate.this.held++;
			}
		}

		/** Opens the gate again. Idempotent. */
		@Override
		public void close() {
			if (this.open) {
				this.open = false;
				reopen(this.locks);
			}
		}

	}

	/**
	 * A bulk run announced to every process ({@link #beginRun}); closing it lets swaps
	 * and other runs begin again. Idempotent.
	 */
	public final class Run implements AutoCloseable {

		private boolean open = true;

		private Run() {
		}

		@Override
		public void close() {
			synchronized (StoreGate.this) {
				if (this.open) {
					this.open = false;
					release(StoreGate.this.run);
					StoreGate.this.run = null;
					closeIfUnused();
				}
			}
		}

	}

}
