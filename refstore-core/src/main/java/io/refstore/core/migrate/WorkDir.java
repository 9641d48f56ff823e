package io.refstore.core.migrate;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

import io.refstore.core.io.FileMoves;
import io.refstore.core.io.LockOwner;
import io.refstore.core.io.ProcessOwner;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.ConfigEditor;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * The work directory of a migration or a rollback, {@code $GIT_DIR/refstore-migration/},
 * and its owner: the store built for the swap ({@code new/}), the {@link Journal} of the
 * swap, and the {@code owner} file naming the process (or job) that runs it. Every lock
 * the swap takes holds the owner's text, so a run after a crash can tell a dead owner's
 * locks from anyone else's. One migration or rollback at a time per repository: the owner
 * claim enforces it across processes.
 */
final class WorkDir {

	/** The work directory below the git directory. */
	static final String NAME = LockOwner.SWAP_DIR;

	/** The file naming the process that runs the migration. */
	static final String OWNER = "owner";

	/** The directory the new store is built in. */
	static final String NEW = "new";

	/**
	 * How long a store lock may stay before a migration takes it for one left behind and
	 * refuses to start.
	 */
	private static final Duration STALE_LOCK_WAIT = Duration.ofSeconds(5);

	private final Repository repository;

	private final Path gitDir;

	private final Path path;

	WorkDir(Repository repository) {
		this.repository = repository;
		this.gitDir = repository.gitDir();
		this.path = this.gitDir.resolve(NAME);
	}

	/** The directory itself. */
	Path path() {
		return this.path;
	}

	/** Where the new store is built. */
	Path staged() {
		return this.path.resolve(NEW);
	}

	/** The owner file, whose text every lock of the swap holds. */
	Path ownerFile() {
		return this.path.resolve(OWNER);
	}

	/**
	 * The journal of a swap that an earlier run began and was stopped after its switch to
	 * the format now in use (so it is finished, not started over), or {@code null}.
	 */
	Journal interruptedSwap() throws IOException {
		RefFormat current = this.repository.refFormat();
		Journal journal = Journal.read(this.path);
		return (journal != null && journal.to() == current && journal.from() != current) ? journal : null;
	}

	/**
	 * Starts afresh: removes what an earlier run left, refuses what cannot be migrated to
	 * {@code target}, then makes the directory and claims it.
	 * @param job the job that owns the work (a batch job's instance), or {@code null} for
	 * a command
	 * @throws MigrationException if the migration is refused
	 */
	void begin(RefFormat target, String job) throws IOException {
		FileMoves.deleteTree(this.path);
		refuse(target);
		Files.createDirectories(this.path);
		claim(job);
	}

	/**
	 * Records this process as the owner, before any lock is taken. A {@code job} names a
	 * migration that outlives processes, so that a later process running the same job
	 * recognises the work as its own.
	 */
	String claim(String job) throws IOException {
		String owner = ProcessOwner.describeThisProcess("refs migrate", job);
		DurableFiles.write(ownerFile(), owner.getBytes(StandardCharsets.UTF_8));
		return owner;
	}

	/** Removes the directory and all it holds. */
	void delete() throws IOException {
		FileMoves.deleteTree(this.path);
	}

	/**
	 * After a failure: removes the directory unless its journal says that the
	 * configuration may have been switched (then a later run finishes the swap).
	 */
	void deleteUnlessJournaled() throws IOException {
		if (Journal.read(this.path) == null) {
			FileMoves.deleteTree(this.path);
		}
	}

	/**
	 * After a migration died (killed, power lost) holding the store's locks: refuses if
	 * its owner may still run, else removes exactly the locks it left (those holding its
	 * owner text) and a {@code config.lock} of a switch it had begun, so that git's
	 * writers and this run can go on.
	 * @param job the job the caller runs (it takes over that job's migration), or
	 * {@code null} for a command
	 */
	void recoverFromDeadOwner(String job) throws IOException {
		ProcessOwner owner = refuseLiveOwner(job);
		if (owner != null) {
			breakLocks(owner);
		}
	}

	/**
	 * The first half of {@link #recoverFromDeadOwner}, which changes nothing: refuses if
	 * the owner of the work may still run.
	 * @return the dead owner, or {@code null} if there is none
	 */
	ProcessOwner refuseLiveOwner(String job) throws IOException {
		ProcessOwner owner = readOwner();
		if (owner != null && !owner.isGone(job)) {
			throw new MigrationException(
					"another refstore migration (" + owner.describe() + ") is running on " + this.gitDir);
		}
		return owner;
	}

	/**
	 * Removes the locks a migration or rollback left when its owner died, if its owner is
	 * known to be gone (see {@link FormatMigrator#releaseAbandonedLocks}).
	 * @return how many locks were removed
	 */
	int releaseAbandonedLocks(String deadJob) throws IOException {
		ProcessOwner owner = readOwner();
		if (owner == null || !owner.isGone(deadJob)) {
			return 0;
		}
		return breakLocks(owner);
	}

	private ProcessOwner readOwner() throws IOException {
		try {
			return ProcessOwner.parse(Files.readString(ownerFile(), StandardCharsets.UTF_8));
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	private int breakLocks(ProcessOwner owner) throws IOException {
		int removed;
		try (RefStore store = RefStores.open(this.repository)) {
			removed = store.breakLocks(owner.text());
		}
		Path config = this.gitDir.resolve("config");
		if (ConfigEditor.ownsLock(config, this.path) && Files.deleteIfExists(config.resolveSibling("config.lock"))) {
			removed++;
		}
		return removed;
	}

	/**
	 * Refuses the format in use, linked worktrees, refs kept on another file system than
	 * the git directory's and a store locked by another process.
	 */
	private void refuse(RefFormat target) throws IOException {
		RefFormat current = this.repository.refFormat();
		if (target == current) {
			throw new MigrationException("repository already uses '" + current.configName() + "' format");
		}
		if (!this.repository.gitDir().equals(this.repository.commonDir()) || hasWorktrees()) {
			throw new MigrationException("migrating repositories with worktrees is not supported yet");
		}
		Path storeDir = this.repository.refsDir();
		if (!sameFileSystem(storeDir, this.gitDir)) {
			// the swap moves the new store in, and the old one to its backup in the git
			// directory, by renames
			throw new MigrationException("migrating a repository whose refs are kept on another file system ("
					+ storeDir + ") is not supported yet");
		}
		Path lock = (current == RefFormat.FILES) ? storeDir.resolve("packed-refs.lock")
				: storeDir.resolve("reftable/tables.list.lock");
		// a writer holds the lock for moments; one that stays is likely left by a process
		// that died
		long deadline = System.nanoTime() + STALE_LOCK_WAIT.toNanos();
		while (Files.exists(lock)) {
			if (System.nanoTime() > deadline) {
				throw new MigrationException("the ref store is locked by another process: '" + lock + "' exists; if no"
						+ " git or refstore process is working in this repository, remove it (rm '" + lock
						+ "') and run again");
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new InterruptedIOException("interrupted while waiting for '" + lock + "'");
			}
		}
	}

	/**
	 * Whether two directories are on one file system: by their mounts, or by their
	 * devices where the mount table cannot tell (in a chroot it names mounts by paths
	 * outside it, and Java then finds no mount point).
	 */
	private static boolean sameFileSystem(Path a, Path b) throws IOException {
		try {
			return Files.getFileStore(a).equals(Files.getFileStore(b));
		}
		catch (IOException ex) {
			return Files.getAttribute(a, "unix:dev").equals(Files.getAttribute(b, "unix:dev"));
		}
	}

	private boolean hasWorktrees() throws IOException {
		Path worktrees = this.repository.commonDir().resolve("worktrees");
		if (!Files.isDirectory(worktrees)) {
			return false;
		}
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(worktrees)) {
			return entries.iterator().hasNext();
		}
	}

}
