package io.refstore.core.reftable;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import io.refstore.core.io.Fsync;
import io.refstore.core.io.LockFile;
import io.refstore.core.io.SharedPermissions;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.reftable.format.ReftableReader;
import io.refstore.core.reftable.format.ReftableWriter;

/**
 * A stack of reftables under {@code reftable/}: {@code tables.list} names the tables,
 * oldest first. Reads go through a {@link Snapshot} of the tables listed at one moment
 * (reloaded when another process changed the list); writes append one table per
 * transaction under {@code tables.list.lock}, then compact geometrically, as git does.
 *
 * <p>
 * Thread-safe. Tables are memory-mapped and reference-counted, so a snapshot stays
 * readable while this or another process replaces tables by compaction (unlinked files
 * stay readable on POSIX).
 */
final class ReftableStack implements Closeable {

	/** Name of the list of tables. */
	public static final String TABLES_LIST = "tables.list";

	private static final long RELOAD_GIVE_UP_NANOS = 3_000_000_000L;

	private final Path dir;

	private final Path listFile;

	private final HashAlgorithm hash;

	private final StackOptions options;

	private Snapshot current;

	private Object currentIdentity;

	private boolean closed;

	/**
	 * How many bulk writers asked to compact once when they end rather than after each of
	 * their additions ({@link #deferCompaction}).
	 */
	private final AtomicInteger deferrals = new AtomicInteger();

	/**
	 * The tables listed when the outermost deferral began: while compaction is deferred,
	 * only the tables added since are compacted, among themselves.
	 */
	private volatile Set<String> deferredBase = Set.of();

	private ReftableStack(Path dir, HashAlgorithm hash, StackOptions options) {
		this.dir = dir;
		this.listFile = dir.resolve(TABLES_LIST);
		this.hash = hash;
		this.options = options;
	}

	/**
	 * Opens the stack in {@code dir} (the repository's {@code reftable/} directory) and
	 * reads it.
	 * @throws CorruptRefStoreException if a listed table is missing or damaged, naming it
	 */
	public static ReftableStack open(Path dir, HashAlgorithm hash, StackOptions options) throws IOException {
		ReftableStack stack = new ReftableStack(dir, Objects.requireNonNull(hash), Objects.requireNonNull(options));
		stack.snapshot().close();
		return stack;
	}

	/** The stack's directory. */
	public Path dir() {
		return this.dir;
	}

	/** The object hash every table must use. */
	public HashAlgorithm hashAlgorithm() {
		return this.hash;
	}

	StackOptions options() {
		return this.options;
	}

	/**
	 * The tables listed now, re-reading {@code tables.list} if it changed since the last
	 * read.
	 * @return a snapshot the caller must close
	 */
	public Snapshot snapshot() throws IOException {
		Object identity = listIdentity();
		synchronized (this) {
			if (this.closed) {
				throw new IllegalStateException("reftable stack is closed: " + this.dir);
			}
			if (this.current == null || !Objects.equals(identity, this.currentIdentity)) {
				reloadLocked();
			}
			return this.current.retain();
		}
	}

	/** Re-reads {@code tables.list} now, even if it looks unchanged. */
	synchronized void reload() throws IOException {
		reloadLocked();
	}

	private void reloadLocked() throws IOException {
		long deadline = System.nanoTime() + RELOAD_GIVE_UP_NANOS;
		int attempt = 0;
		while (true) {
			Object identity = listIdentity();
			List<String> names = readList();
			try {
				Snapshot next = openTables(names);
				Snapshot previous = this.current;
				this.current = next;
				this.currentIdentity = identity;
				if (previous != null) {
					previous.close();
				}
				return;
			}
			catch (NoSuchFileException ex) {
				// a compactor replaced tables between our reading the list and opening
				// them: read it again
				if (readList().equals(names) || System.nanoTime() > deadline) {
					throw new CorruptRefStoreException(this.listFile, -1,
							"names a table that does not exist: " + Path.of(ex.getFile()).getFileName());
				}
				sleepQuietly(++attempt);
			}
		}
	}

	private Snapshot openTables(List<String> names) throws IOException {
		Map<String, Table> reusable = new HashMap<>();
		if (this.current != null) {
			for (Table table : this.current.tables) {
				reusable.put(table.name, table);
			}
		}
		List<Table> tables = new ArrayList<>(names.size());
		try {
			for (String name : names) {
				Table table = reusable.get(name);
				if (table != null) {
					table.retain();
				}
				else {
					table = Table.open(this.dir.resolve(name), name, this.hash);
				}
				tables.add(table);
			}
		}
		catch (IOException | RuntimeException ex) {
			tables.forEach(Table::release);
			throw ex;
		}
		return new Snapshot(tables);
	}

	private static void sleepQuietly(int attempt) {
		try {
			Thread.sleep(Math.min(100, attempt * 10L) + ThreadLocalRandom.current().nextInt(10));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The names in {@code tables.list}, oldest first; a missing file is an empty stack.
	 */
	List<String> readList() throws IOException {
		byte[] content;
		try {
			content = Files.readAllBytes(this.listFile);
		}
		catch (NoSuchFileException ex) {
			return List.of();
		}
		List<String> names = new ArrayList<>();
		for (String line : new String(content, StandardCharsets.UTF_8).split("\n")) {
			if (!line.isEmpty()) {
				if (line.contains("/") || line.startsWith(".")) {
					throw new CorruptRefStoreException(this.listFile, names.size() + 1,
							"line " + (names.size() + 1) + ": '" + line + "' is not a table name");
				}
				names.add(line);
			}
		}
		return names;
	}

	private Object listIdentity() throws IOException {
		try {
			BasicFileAttributes attributes = Files.readAttributes(this.listFile, BasicFileAttributes.class);
			return List.of(String.valueOf(attributes.fileKey()), attributes.size(),
					attributes.lastModifiedTime().toMillis());
		}
		catch (NoSuchFileException ex) {
			return "missing";
		}
	}

	/**
	 * Starts appending a table: takes {@code tables.list.lock} (waiting up to the lock
	 * timeout) and reloads the stack under the lock, so the caller checks its
	 * expectations against the newest state.
	 * @return the addition, which the caller closes (rolling back unless committed)
	 * @throws io.refstore.core.io.LockFailedException if another writer holds the lock
	 */
	public Addition newAddition() throws IOException {
		return newAddition(false);
	}

	/**
	 * As {@link #newAddition()}; with {@code force}, the table and the list are forced to
	 * the disk whatever {@code core.fsync} says, the directory after the list's rename,
	 * and so is a compaction the commit runs.
	 */
	public Addition newAddition(boolean force) throws IOException {
		LockFile lock = LockFile.acquire(this.listFile, this.options.lockTimeout(), this.options.owner());
		try {
			Snapshot base;
			synchronized (this) {
				reloadLocked();
				base = this.current.retain();
			}
			return new Addition(lock, base, force);
		}
		catch (IOException | RuntimeException ex) {
			lock.rollback();
			throw ex;
		}
	}

	/** Writes a table's records into a writer; returns whether it added any. */
	@FunctionalInterface
	public interface TableContent {

		boolean write(ReftableWriter writer) throws IOException;

	}

	/**
	 * Writes {@code content} as a new table file named for {@code min..max} and returns
	 * its name, or {@code null} if the content was empty (then no file is left behind).
	 */
	String writeTable(long min, long max, TableContent content) throws IOException {
		return writeTable(min, max, this.options.fsync(), content);
	}

	/**
	 * As {@link #writeTable(long, long, TableContent)}, forcing the table before its
	 * rename if {@code fsync}.
	 */
	String writeTable(long min, long max, boolean fsync, TableContent content) throws IOException {
		Path temp = writeUnpublished(min, max, fsync, content);
		return (temp != null) ? publish(temp, min, max) : null;
	}

	/**
	 * Writes a table under a temporary name (not {@code *.ref}, so that no cleaner of
	 * unlisted tables, refstore's or git's, takes it for a leftover), forced if
	 * {@code fsync}; {@link #publish} gives it its name.
	 * @return the temporary file, or {@code null} if the table would hold no record
	 */
	Path writeUnpublished(long min, long max, boolean fsync, TableContent content) throws IOException {
		String base = tableName(min, max);
		Path temp = createTemp(this.dir, base + ".temp.");
		boolean added;
		try {
			try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temp, StandardOpenOption.WRITE),
					1 << 16)) {
				ReftableWriter writer = new ReftableWriter(out, this.options.writeOptions()).setLimits(min, max);
				added = content.write(writer);
				writer.finish();
			}
			if (!added) {
				Files.delete(temp);
				return null;
			}
			SharedPermissions.adjust(temp, this.options.sharedPermissions());
			if (fsync) {
				Fsync.file(temp);
			}
			return temp;
		}
		catch (IOException | RuntimeException ex) {
			Files.deleteIfExists(temp);
			throw ex;
		}
	}

	/**
	 * Renames a table {@link #writeUnpublished} wrote to its table name; returns the
	 * name.
	 */
	String publish(Path temp, long min, long max) throws IOException {
		String name = tableName(min, max) + ".ref";
		Files.move(temp, this.dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
		return name;
	}

	/**
	 * A table's name as git makes it, without {@code .ref}: the update index range in 12
	 * hexadecimal digits each, then 8 random ones. Built by hand: {@code String.format}
	 * took 1.2% of a cold restore of 45,000 refs (45 tables).
	 */
	static String tableName(long min, long max) {
		return "0x" + hex(min, 12) + "-0x" + hex(max, 12) + "-" + randomSuffix();
	}

	/**
	 * {@code value} in lowercase hexadecimal, at least {@code digits} long, as
	 * {@code %0<digits>x} prints it.
	 */
	static String hex(long value, int digits) {
		String text = Long.toHexString(value);
		return (text.length() >= digits) ? text : "0".repeat(digits - text.length()) + text;
	}

	/** Eight random lowercase hexadecimal digits. */
	private static String randomSuffix() {
		return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
	}

	/**
	 * Creates a new empty file {@code <prefix><random>} in {@code dir} the way git
	 * creates its tables: readable as the umask allows (0666 less the umask), where
	 * {@code Files.createTempFile} would make it private (0600) and other users of a
	 * shared repository could not read the refs.
	 */
	static Path createTemp(Path dir, String prefix) throws IOException {
		for (int attempt = 0;; attempt++) {
			Path temp = dir.resolve(prefix + randomSuffix());
			try {
				Files.newByteChannel(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
				return temp;
			}
			catch (java.nio.file.FileAlreadyExistsException ex) {
				if (attempt >= 100) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Replaces {@code tables.list} through its held lock with {@code names}, each
	 * followed by a newline.
	 */
	void writeList(LockFile lock, List<String> names) throws IOException {
		writeList(lock, names, false);
	}

	/**
	 * As {@link #writeList(LockFile, List)}; with {@code force}, the list is forced
	 * whatever {@code core.fsync} says and the directory after the rename (naming the new
	 * tables too), before any old table is removed.
	 */
	void writeList(LockFile lock, List<String> names, boolean force) throws IOException {
		StringBuilder list = new StringBuilder();
		for (String name : names) {
			list.append(name).append('\n');
		}
		lock.write(list.toString().getBytes(StandardCharsets.UTF_8), force || this.options.fsync());
		SharedPermissions.adjust(lock.pendingContent(), this.options.sharedPermissions());
		lock.commit();
		if (force) {
			Fsync.directory(this.dir);
		}
	}

	/**
	 * Compacts every table into one ({@code git pack-refs} on a reftable repository);
	 * fails if another process holds a table's lock.
	 */
	public void compactAll() throws IOException {
		new StackCompactor(this, false).compactAll();
	}

	/** The tables, their size, and whether {@link #autoCompact()} would merge some. */
	public StoreStatistics statistics() throws IOException {
		return new StackCompactor(this, false).statistics();
	}

	/**
	 * Compacts as git's geometric policy asks, skipping tables other processes hold;
	 * never fails on a lock.
	 */
	public void autoCompact() throws IOException {
		new StackCompactor(this, false).autoCompact();
	}

	/**
	 * Leaves the tables listed now out of the geometric compaction after each addition
	 * until the returned deferral is closed, which then compacts the whole stack once
	 * (forced to disk): a bulk writer's hundreds of chunks otherwise merge the stack's
	 * largest tables again and again as their own tables grow past them. The tables added
	 * meanwhile (the bulk writer's and any other writer's) are compacted geometrically
	 * among themselves after each addition, so that a lookup does not step through one
	 * table per chunk written so far.
	 */
	RefStore.Bulk deferCompaction() throws IOException {
		if (this.deferrals.getAndIncrement() == 0) {
			try (Snapshot snapshot = snapshot()) {
				this.deferredBase = Set.copyOf(snapshot.names());
			}
			catch (IOException | RuntimeException ex) {
				this.deferrals.decrementAndGet();
				throw ex;
			}
		}
		return () -> {
			if (this.deferrals.decrementAndGet() == 0 && this.options.autoCompact()) {
				new StackCompactor(this, true).autoCompact();
			}
		};
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		if (this.current != null) {
			this.current.close();
			this.current = null;
		}
	}

	/**
	 * An append in progress: the lock on {@code tables.list} and the stack as it was when
	 * taken.
	 */
	public final class Addition implements Closeable {

		private final LockFile lock;

		private final Snapshot base;

		private final boolean force;

		private String table;

		private boolean closed;

		private Addition(LockFile lock, Snapshot base, boolean force) {
			this.lock = lock;
			this.base = base;
			this.force = force;
		}

		/** The stack under the lock; current until this addition ends. */
		public Snapshot base() {
			return this.base;
		}

		/** The update index the new table gets: one past the newest table's. */
		public long updateIndex() {
			return this.base.maxUpdateIndex() + 1;
		}

		/**
		 * Writes the new table ({@code min = max = }{@link #updateIndex()}).
		 * @return whether it holds any record (an empty table is not added, as in git)
		 */
		public boolean write(TableContent content) throws IOException {
			return write(updateIndex(), content);
		}

		/**
		 * Writes the new table for the update indices {@link #updateIndex()} to
		 * {@code last}: records of several updates at once (log entries of one ref, each
		 * at its own index).
		 * @return whether it holds any record
		 */
		public boolean write(long last, TableContent content) throws IOException {
			if (Long.compareUnsigned(last, updateIndex()) < 0) {
				throw new IllegalArgumentException("last update index " + Long.toUnsignedString(last)
						+ " is before the first, " + Long.toUnsignedString(updateIndex()));
			}
			this.table = writeTable(updateIndex(), last, this.force || ReftableStack.this.options.fsync(), content);
			return this.table != null;
		}

		/**
		 * Appends the written table to {@code tables.list}, releases the lock, reloads,
		 * and compacts geometrically (a compaction that cannot lock is skipped: the write
		 * already succeeded).
		 */
		public void commit() throws IOException {
			if (this.table != null) {
				List<String> names = new ArrayList<>(this.base.names());
				names.add(this.table);
				writeList(this.lock, names, this.force);
				this.table = null;
			}
			else {
				this.lock.rollback();
			}
			close();
			if (ReftableStack.this.options.autoCompact()) {
				Set<String> kept = (ReftableStack.this.deferrals.get() == 0) ? Set.of()
						: ReftableStack.this.deferredBase;
				new StackCompactor(ReftableStack.this, this.force).autoCompactAbove(kept);
			}
		}

		@Override
		public void close() {
			if (this.closed) {
				return;
			}
			this.closed = true;
			if (this.table != null) {
				try {
					Files.deleteIfExists(ReftableStack.this.dir.resolve(this.table));
				}
				catch (IOException ex) {
					// an unlisted table is removed by the next full compaction
				}
				this.table = null;
			}
			this.lock.rollback();
			this.base.close();
		}

	}

	/**
	 * The tables listed at one moment, oldest first. Holds them open until closed.
	 */
	public static final class Snapshot implements Closeable {

		final List<Table> tables;

		private final AtomicInteger references = new AtomicInteger(1);

		Snapshot(List<Table> tables) {
			this.tables = List.copyOf(tables);
		}

		Snapshot retain() {
			this.references.incrementAndGet();
			return this;
		}

		/** The table readers, oldest first. */
		public List<ReftableReader> readers() {
			List<ReftableReader> readers = new ArrayList<>(this.tables.size());
			for (Table table : this.tables) {
				readers.add(table.reader);
			}
			return readers;
		}

		/** The table file names, oldest first. */
		public List<String> names() {
			List<String> names = new ArrayList<>(this.tables.size());
			for (Table table : this.tables) {
				names.add(table.name);
			}
			return names;
		}

		/** The newest table's max update index, 0 for an empty stack. */
		public long maxUpdateIndex() {
			return this.tables.isEmpty() ? 0 : this.tables.get(this.tables.size() - 1).reader.maxUpdateIndex();
		}

		@Override
		public void close() {
			if (this.references.decrementAndGet() == 0) {
				this.tables.forEach(Table::release);
			}
		}

	}

	/** One open table, shared by the snapshots that list it. */
	static final class Table {

		final String name;

		final ReftableReader reader;

		final long size;

		private final AtomicInteger references = new AtomicInteger(1);

		private Table(String name, ReftableReader reader, long size) {
			this.name = name;
			this.reader = reader;
			this.size = size;
		}

		static Table open(Path file, String name, HashAlgorithm hash) throws IOException {
			FileBlockSource source = FileBlockSource.open(file);
			try {
				ReftableReader reader = ReftableReader.open(source);
				if (reader.hashAlgorithm() != hash) {
					throw new CorruptRefStoreException(file, -1, "table uses " + reader.hashAlgorithm().configName()
							+ " but the repository uses " + hash.configName());
				}
				return new Table(name, reader, source.size());
			}
			catch (IOException | RuntimeException ex) {
				source.close();
				throw ex;
			}
		}

		void retain() {
			this.references.incrementAndGet();
		}

		void release() {
			if (this.references.decrementAndGet() == 0) {
				try {
					this.reader.close();
				}
				catch (IOException ex) {
					// read-only mapping: nothing is lost
				}
			}
		}

	}

}
