package io.refstore.core.store;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.refstore.core.files.FilesInitialWriter;
import io.refstore.core.files.FilesOptions;
import io.refstore.core.files.FilesRefStore;
import io.refstore.core.io.LockOwner;
import io.refstore.core.io.SharedPermissions;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.reftable.ReftableInitialWriter;
import io.refstore.core.reftable.ReftableOptions;
import io.refstore.core.reftable.ReftableRefStore;
import io.refstore.core.reftable.StackOptions;
import io.refstore.core.reftable.format.WriteOptions;
import io.refstore.core.repo.FsyncSettings;
import io.refstore.core.repo.GitConfig;
import io.refstore.core.repo.GitHooks;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.StoreGate;

/**
 * Opens the ref store of a repository in the format its configuration names: the one way
 * to reach a repository's refs ({@code RefStores.open(repository)}). The only place that
 * knows the backends; everything above them goes through here, the {@link RefStore}
 * contract and, for a format swap, {@link StoreLayout}.
 */
public final class RefStores {

	/** The largest {@code reftable.geometricFactor} git takes (a byte). */
	private static final long MAX_GEOMETRIC_FACTOR = 255;

	/**
	 * The configuration keys that decide how {@link #open} opens a store, beside the
	 * format: the repository's ({@code core.logAllRefUpdates},
	 * {@code core.filesRefLockTimeout}, {@code core.packedRefsTimeout}), the reftable
	 * stack's ({@link #stackOptions}) and {@code core.fsync}. A store opened under other
	 * values behaves otherwise, so a caller keeping stores open compares
	 * {@link #settings}.
	 */
	public static final List<String> SETTINGS = List.of("core.fsync", "core.logAllRefUpdates",
			"core.filesRefLockTimeout", "core.packedRefsTimeout", "reftable.blockSize", "reftable.restartInterval",
			"reftable.indexObjects", "reftable.lockTimeout", "reftable.geometricFactor", "reftable.autoCompaction");

	private RefStores() {
	}

	/**
	 * The values of {@link #SETTINGS} in {@code repository}'s configuration, one
	 * {@code key=[values]} line each: two stores opened under equal texts behave alike.
	 */
	public static String settings(Repository repository) {
		GitConfig config = repository.config();
		StringBuilder text = new StringBuilder();
		for (String setting : SETTINGS) {
			int dot = setting.indexOf('.');
			text.append(setting)
				.append('=')
				.append(config.getAll(setting.substring(0, dot), null, setting.substring(dot + 1)))
				.append('\n');
		}
		return text.toString();
	}

	/**
	 * Opens the ref store of {@code repository}. The object database is opened only when
	 * a store first needs it (to check a new value or peel a tag), so a plain lookup does
	 * not pay for it.
	 * @param repository an open repository, which must outlive the store
	 * @return a store the caller closes (closing it leaves the repository open)
	 * @throws IOException if the store cannot be opened
	 */
	public static RefStore open(Repository repository) throws IOException {
		return open(repository, repository.reflogPolicy());
	}

	/**
	 * Opens the ref store of {@code repository} with a reflog policy other than
	 * {@code core.logAllRefUpdates}. A restore that copies saved reflog entries back uses
	 * {@link ReflogPolicy#EXISTING_ONLY}, so that recreating a ref does not add an entry
	 * of its own (git's migration skips them the same way).
	 * @param repository an open repository, which must outlive the store
	 * @param reflogPolicy which updates create a log
	 * @return a store the caller closes
	 * @throws IOException if the store cannot be opened
	 */
	public static RefStore open(Repository repository, ReflogPolicy reflogPolicy) throws IOException {
		return open(repository, reflogPolicy, null);
	}

	/**
	 * As {@link #open(Repository, ReflogPolicy)}, for a run that records the locks it
	 * takes: each is a link to {@code owner}'s record, so that the locks of a run that
	 * dies are cleared when it is run again ({@link LockOwner#releaseAbandoned}).
	 * @param owner the run, closed by the caller after the store; {@code null} takes
	 * locks as git does
	 */
	public static RefStore open(Repository repository, ReflogPolicy reflogPolicy, LockOwner owner) throws IOException {
		return open(repository, reflogPolicy, owner, Duration.ZERO);
	}

	/**
	 * As {@link #open(Repository, ReflogPolicy, LockOwner)}, for a run that waits at
	 * least {@code lockWait} for each lock another writer holds, where git waits the
	 * repository's lock timeouts (100 ms for a ref or the table stack by default): a job
	 * working through thousands of refs while git and the API write meets their locks
	 * many times, and failing on the first wait longer than git's would fail the job for
	 * a moment's contention. A longer timeout in the repository's configuration (or none)
	 * is kept.
	 */
	public static RefStore open(Repository repository, ReflogPolicy reflogPolicy, LockOwner owner, Duration lockWait)
			throws IOException {
		if (owner != null && fsyncRefs(repository)) {
			owner.makeDurable();
		}
		ObjectDatabase objects = new DeferredObjectDatabase(repository);
		RefStore store = switch (repository.refFormat()) {
			case FILES -> new FilesRefStore(new FilesOptions(repository.refsDir(), repository.refsCommonDir(),
					repository.hashAlgorithm(), reflogPolicy, atLeast(repository.filesRefLockTimeout(), lockWait),
					atLeast(repository.packedRefsTimeout(), lockWait), fsyncRefs(repository), objects,
					repository::committer, owner));
			case REFTABLE -> {
				StackOptions options = stackOptions(repository);
				yield ReftableRefStore.open(new ReftableOptions(repository.refsDir(),
						repository.refsCommonDir().resolve("reftable"), reflogPolicy,
						options.withOwner(owner).withLockTimeout(atLeast(options.lockTimeout(), lockWait)), objects,
						repository::committer));
			}
		};
		return new GatedRefStore(store, StoreGate.of(repository.commonDir()), repository.storeGeneration(),
				GitHooks.referenceTransaction(repository));
	}

	/**
	 * Opens a store of {@code format} kept outside the repository's own place, such as a
	 * migration's staged store or a backup: {@code dir} is laid out like a git directory
	 * ({@code packed-refs}, {@code refs/}, ... or {@code reftable/}). The repository
	 * lends its hash, settings and object database.
	 */
	public static RefStore openAt(Repository repository, RefFormat format, Path dir) throws IOException {
		return openAt(repository, format, dir, repository.reflogPolicy());
	}

	/**
	 * As {@link #openAt(Repository, RefFormat, Path)}, with a reflog policy other than
	 * {@code core.logAllRefUpdates} (a rollback that carries a ref with its log into the
	 * restored store uses {@link ReflogPolicy#ALWAYS}).
	 */
	public static RefStore openAt(Repository repository, RefFormat format, Path dir, ReflogPolicy reflogPolicy)
			throws IOException {
		ObjectDatabase objects = new DeferredObjectDatabase(repository);
		return switch (format) {
			case FILES -> new FilesRefStore(new FilesOptions(dir, dir, repository.hashAlgorithm(), reflogPolicy,
					repository.filesRefLockTimeout(), repository.packedRefsTimeout(), false, objects,
					repository::committer, null));
			case REFTABLE -> ReftableRefStore.open(new ReftableOptions(dir, dir.resolve("reftable"), reflogPolicy,
					stackOptions(repository), objects, repository::committer));
		};
	}

	/**
	 * A bulk writer of a new store of {@code format} in {@code dir} (see
	 * {@link #openAt}).
	 * @param maxLogEntries the most log entries any one ref will get
	 */
	public static InitialRefWriter initialWriter(Repository repository, RefFormat format, Path dir, long maxLogEntries)
			throws IOException {
		return switch (format) {
			case FILES -> new FilesInitialWriter(dir, repository.hashAlgorithm());
			case REFTABLE -> new ReftableInitialWriter(dir.resolve("reftable"), stackOptions(repository).writeOptions(),
					maxLogEntries);
		};
	}

	/**
	 * How a whole store of {@code format} moves in and out of a git directory, for a
	 * format swap.
	 */
	public static StoreLayout layout(RefFormat format) {
		return BackendLayout.of(format);
	}

	/** The longer of two lock timeouts, {@code null} (waiting forever) the longest. */
	private static Duration atLeast(Duration timeout, Duration wait) {
		return (timeout == null || timeout.compareTo(wait) >= 0) ? timeout : wait;
	}

	/** The reftable settings of {@code reftable.*}, with git's defaults. */
	static StackOptions stackOptions(Repository repository) {
		GitConfig config = repository.config();
		// as git: 0 leaves the default, and a value too large is refused with git's words
		// (its message for the restart interval says "block size" too)
		long blockSize = config.getUnsignedLong("reftable", null, "blockSize").orElse(0L);
		if (blockSize > WriteOptions.MAX_BLOCK_SIZE) {
			throw new IllegalArgumentException("reftable block size cannot exceed 16MB");
		}
		long restartInterval = config.getUnsignedLong("reftable", null, "restartInterval").orElse(0L);
		if (restartInterval > WriteOptions.MAX_RESTART_INTERVAL) {
			throw new IllegalArgumentException(
					"reftable block size cannot exceed " + WriteOptions.MAX_RESTART_INTERVAL);
		}
		WriteOptions write = WriteOptions.defaults()
			.withHash(repository.hashAlgorithm())
			.withBlockSize((blockSize == 0) ? WriteOptions.DEFAULT_BLOCK_SIZE : (int) blockSize)
			.withRestartInterval((restartInterval == 0) ? WriteOptions.DEFAULT_RESTART_INTERVAL : (int) restartInterval)
			.withIndexObjects(config.getBoolean("reftable", null, "indexObjects").orElse(true));
		long timeout = config.getLong("reftable", null, "lockTimeout").orElse(100);
		if (timeout < -1) {
			throw new IllegalArgumentException("reftable lock timeout does not support negative values other than -1");
		}
		Duration lockTimeout = (timeout < 0) ? null : Duration.ofMillis(timeout);
		long factor = config.getUnsignedLong("reftable", null, "geometricFactor").orElse(2);
		if (factor > MAX_GEOMETRIC_FACTOR) {
			throw new IllegalArgumentException("reftable geometric factor cannot exceed " + MAX_GEOMETRIC_FACTOR);
		}
		// git's test suite turns automatic compaction off with
		// GIT_TEST_REFTABLE_AUTOCOMPACTION=false
		boolean autoCompact = config.getBoolean("reftable", null, "autoCompaction").orElse(true)
				&& repository.environmentFlag("GIT_TEST_REFTABLE_AUTOCOMPACTION", true);
		int shared = SharedPermissions.parse(config.getString("core", null, "sharedRepository").orElse("umask"));
		return new StackOptions(lockTimeout, (int) Math.max(2, factor), autoCompact, fsyncRefs(repository), write, null,
				shared);
	}

	/**
	 * Whether {@code core.fsync} asks for ref files to reach the disk before they replace
	 * the old ones, read exactly as git reads it (see {@link FsyncSettings}).
	 */
	static boolean fsyncRefs(Repository repository) {
		return FsyncSettings.of(repository.config()).references();
	}

	/** The repository's object database, opened on first use. */
	private static final class DeferredObjectDatabase implements ObjectDatabase {

		private final Repository repository;

		DeferredObjectDatabase(Repository repository) {
			this.repository = repository;
		}

		@Override
		public ObjectType type(ObjectId id) throws IOException {
			return this.repository.objectDatabase().type(id);
		}

		@Override
		public ObjectId peel(ObjectId id) throws IOException {
			return this.repository.objectDatabase().peel(id);
		}

		@Override
		public ObjectId tagTarget(ObjectId id) throws IOException {
			return this.repository.objectDatabase().tagTarget(id);
		}

		@Override
		public StoredObject read(ObjectId id) throws IOException {
			return this.repository.objectDatabase().read(id);
		}

		@Override
		public void close() {
			// the repository owns the database and closes it
		}

	}

}
