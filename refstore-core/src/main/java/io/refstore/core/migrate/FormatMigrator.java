package io.refstore.core.migrate;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.refstore.core.io.FileMoves;
import io.refstore.core.io.ProcessOwner;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.repo.ConfigEditor;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.store.RefStores;

/**
 * Moves a repository's refs and reflogs between the files and reftable formats.
 * <ol>
 * <li>Refuse what cannot be migrated: the format in use, linked worktrees, a store locked by another
 * process. Resume an earlier migration that was interrupted (see 7).</li>
 * <li>Build the new store beside the live one, in {@code refstore-migration/new/}, in bulk: refs stream
 * from the source straight into one {@code packed-refs} or one reftable (no per-ref file or table), reflogs
 * follow. The source's digest is taken in the same pass.</li>
 * <li>Verify: read the new store back through its own backend and compare digests.</li>
 * <li>A dry run stops here and says where the new store is.</li>
 * <li>Take the source store's locks (git's writers wait or fail, none is lost), and re-read the source: if
 * anything changed since step 2, build again under the locks.</li>
 * <li>Stage the new store's files in the git directory; the configuration still names the old format,
 * whose git ignores them. Then switch {@code extensions.refStorage} and
 * {@code core.repositoryformatversion} with one atomic rename of {@code config}: before it git reads
 * exactly the old refs, after it exactly the new ones.</li>
 * <li>Move the old store into {@code refstore-backup/<time>-<format>/} (with git's stubs where the target
 * is reftable), then remove the work directory. A journal in the work directory records the phase, so a
 * migration killed at any point is completed (after the switch) or started over (before it) by running it
 * again.</li>
 * </ol>
 * A repository whose format changed must be reopened ({@link Repository} reads its configuration once).
 */
public final class FormatMigrator {

	/** The work directory below the git directory. */
	public static final String WORK_DIR = "refstore-migration";

	/** The directory below the git directory holding the backups of migrated stores. */
	public static final String BACKUP_DIR = "refstore-backup";

	/** The prefix a restored backup is renamed with before it is removed. */
	private static final String RESTORED = ".restored-";

	/** How long the swap waits for each of the store's locks that a writer holds. */
	private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(5);

	/** How long a store lock may stay before a migration takes it for one left behind and refuses to start. */
	private static final Duration STALE_LOCK_WAIT = Duration.ofSeconds(5);

	/** How long a swap waits for this process's writers already inside the repository to finish. */
	private static final Duration WRITERS_WAIT = Duration.ofSeconds(30);

	/** The file in the work directory naming the process that runs the migration. */
	static final String OWNER = "owner";

	private final Repository repository;

	private final Path gitDir;

	public FormatMigrator(Repository repository) {
		this.repository = repository;
		this.gitDir = repository.gitDir();
	}

	/**
	 * Migrates (or, with {@link MigrationOptions#dryRun()}, builds and verifies) as described above.
	 * @throws MigrationException if the migration is refused or its verification fails; the message says
	 * why and the repository keeps its old format
	 */
	public MigrationReport migrate(MigrationOptions options) throws IOException {
		long started = System.nanoTime();
		Path work = this.gitDir.resolve(WORK_DIR);
		RefFormat current = this.repository.refFormat();
		recoverFromDeadOwner(work);
		Journal journal = Journal.read(work);
		if (journal != null && journal.to() == current && journal.from() != current) {
			return finishInterrupted(journal, work, started);
		}
		FileMoves.deleteTree(work);
		refuse(options.target());
		Files.createDirectories(work);
		claim(work);
		Path staged = work.resolve("new");
		try (RefStore source = RefStores.open(this.repository)) {
			String fingerprint = source.fingerprint();
			Built built = buildAndVerify(source, staged, options);
			if (options.dryRun()) {
				return new MigrationReport(current, options.target(), built.refs, built.logEntries, built.sourceDigest,
						built.targetDigest, staged, null, false, elapsed(started));
			}
			Swapped swapped = swap(source, fingerprint, built, staged, options, work);
			FileMoves.deleteTree(work);
			return report(current, options.target(), swapped.built, staged, swapped.backup, swapped.carried, started);
		}
		catch (IOException | RuntimeException ex) {
			if (!options.dryRun() && Journal.read(work) == null) {
				FileMoves.deleteTree(work);
			}
			throw ex;
		}
	}

	/**
	 * Steps 5 to 7 up to the removal of the work directory: closes this process's gate, locks, re-reads and if
	 * need be rebuilds, stages, switches, retires, and carries what a git process slipped into the old store.
	 * @param fingerprint the source's {@link RefStore#fingerprint()} from before the staged store was read from it,
	 * or {@code null} if the staged store does not come from the source (a rollback)
	 * @param built the staged store's digests, as built and verified
	 * @return the store swapped in (rebuilt if the source had changed) and where the old one went
	 */
	Swapped swap(RefStore source, String fingerprint, Built built, Path staged, MigrationOptions options, Path work)
			throws IOException {
		return swap(source, fingerprint, built, staged, options, work, () -> {
			// a writer got in before the locks: build again from what the locks now freeze
			FileMoves.deleteTree(staged);
			return buildAndVerify(source, staged, options);
		}, options.reflogs());
	}

	/**
	 * As {@link #swap(RefStore, String, Built, Path, MigrationOptions, Path)}, with {@code refresh} bringing the
	 * staged store up to date when the source's fingerprint changed before the locks.
	 * @param digestOfRetired whether {@code built}'s source digest is the retired store's (a migration's, with
	 * reflogs), which the backup then records without reading it again
	 */
	private Swapped swap(RefStore source, String fingerprint, Built built, Path staged, MigrationOptions options,
			Path work, Refresh refresh, boolean digestOfRetired) throws IOException {
		RefFormat current = this.repository.refFormat();
		Path backup = newBackupDir(current);
		Built swapped = built;
		List<String> carried;
		try (StoreGate.Swap gate = StoreGate.of(this.repository.commonDir()).closeForSwap(WRITERS_WAIT);
				Closeable locks = source.lockStore(LOCK_TIMEOUT, work.resolve(OWNER))) {
			if (current == RefFormat.FILES) {
				CarryOver.snapshot(this.gitDir).write(work);
			}
			// the fingerprint changes with any write, so an equal one proves the staged copy is still exact
			// without reading every ref again
			if (fingerprint != null && !source.fingerprint().equals(fingerprint)) {
				swapped = refresh.staged();
			}
			RefStores.layout(options.target()).stage(staged, this.gitDir);
			new Journal(current, options.target(), backup).write(work);
			switchConfig(current, options.target(), work, gate);
			// a migration's source digest is that of the store it retires (reflogs included only if they came along);
			// a rollback's staged store is not the retired one, which is then read for its record
			carried = retireAndCarry(current, backup, work, digestOfRetired ? swapped : null);
		}
		return new Swapped(swapped, backup, carried);
	}

	/**
	 * Switches the configuration to {@code target}. If that fails (a {@code git config} holding
	 * {@code config.lock}, a full disk) and the configuration still names {@code current}, the staged store and
	 * the journal are removed again, so the repository is as it was; if it names {@code target} (the rename
	 * happened, but syncing it failed) the journal stays, and running the migration again finishes it.
	 */
	private void switchConfig(RefFormat current, RefFormat target, Path work, StoreGate.Swap gate)
			throws IOException {
		try {
			ConfigEditor.setRefStorage(this.gitDir.resolve("config"), target, this.repository.hashAlgorithm(), work);
		}
		catch (IOException | RuntimeException ex) {
			RefFormat named;
			try (Repository now = Repository.open(this.gitDir)) {
				named = now.refFormat();
			}
			if (named == target) {
				gate.switched();
				throw ex;
			}
			// a staged store that was never switched to: git of the current format ignores it anyway
			RefStores.layout(target).unstage(this.gitDir);
			Journal.delete(work);
			throw ex;
		}
		gate.switched();
	}


	/**
	 * After the switch: moves the old store into {@code backup}, carries into the new store what a git process
	 * wrote into the old one under the swap (files only), and records in the backup the digest a rollback checks
	 * its copy against. Idempotent: a run that finishes an interrupted swap does it again.
	 */
	private List<String> retireAndCarry(RefFormat old, Path backup, Path work, Built built) throws IOException {
		retire(old, backup, work);
		CarryOver loose = (old == RefFormat.FILES) ? CarryOver.read(work) : null;
		List<String> carried = (loose != null) ? loose.carry(this.gitDir, backup, work) : List.of();
		BackupRecord record = (built != null && carried.isEmpty()) ? BackupRecord.of(built)
				: BackupRecord.read(this.repository, old, backup);
		record.write(backup);
		return carried;
	}

	/**
	 * Restores the store a migration kept in {@code backup} (as printed in its report), migrating the
	 * current store out of the way into a backup of its own. Refs written, moved or deleted since the migration
	 * are so in the restored store too ({@link CatchUp}): a confirmed write survives a rollback. The backup gives
	 * the restored store its layout and reflogs; the entries the current store logged since are in its new backup.
	 * <p>
	 * The backup is never moved: its store is copied into the work directory byte for byte, the copy read back and
	 * compared with the digest recorded when the backup was made, and the copy is swapped in exactly as a
	 * migration swaps its new store. A rollback killed or failed at any point leaves git reading the current
	 * store or the restored one, and running it again finishes it; the backup is removed only once the
	 * restored store is in place.
	 * @throws MigrationException if the backup does not read as recorded, or the rollback is refused
	 */
	public MigrationReport rollback(Path backup) throws IOException {
		return rollback(backup, null);
	}

	/**
	 * As {@link #rollback(Path)}, owned by {@code job} (a batch job's instance), so that the job restarted in another
	 * process takes over a rollback its dead run had begun, and its locks are known as the job's.
	 */
	public MigrationReport rollback(Path backup, String job) throws IOException {
		long started = System.nanoTime();
		RefFormat current = this.repository.refFormat();
		RefFormat restored = Files.isDirectory(backup.resolve("reftable")) ? RefFormat.REFTABLE : RefFormat.FILES;
		Path work = this.gitDir.resolve(WORK_DIR);
		recoverFromDeadOwner(work, job);
		Path restoredMark = backup.resolveSibling(RESTORED + backup.getFileName());
		Journal journal = Journal.read(work);
		if (journal != null && journal.to() == current && journal.from() != current) {
			MigrationReport done = finishInterrupted(journal, work, started);
			FileMoves.deleteTree(backup);
			FileMoves.deleteTree(restoredMark);
			return done;
		}
		if (!Files.exists(backup) && Files.exists(restoredMark)) {
			// an earlier run restored it and was stopped while it removed the backup
			FileMoves.deleteTree(work);
			FileMoves.deleteTree(restoredMark);
			return finishedReport(current, current, work, null, List.of(), started);
		}
		if (!Files.isDirectory(backup)) {
			throw new MigrationException("there is no backup at '" + backup + "'");
		}
		if (restored == current) {
			throw new MigrationException("the backup at '" + backup + "' holds a " + restored.configName()
					+ " store, the format the repository already uses");
		}
		FileMoves.deleteTree(work);
		refuse(restored);
		Files.createDirectories(work);
		claim(work, job);
		MigrationOptions options = new MigrationOptions(restored, false, true);
		Path staged = work.resolve("new");
		Swapped swapped;
		// the refs written, moved or deleted since the migration, kept in the restored store: the report names them
		Set<String> kept = new TreeSet<>();
		try (RefStore source = RefStores.open(this.repository)) {
			BackupCopy.copy(backup, staged);
			BackupRecord copied = BackupRecord.read(this.repository, restored, staged);
			BackupRecord recorded = BackupRecord.readRecorded(backup);
			if (recorded != null && !recorded.digest().equals(copied.digest())) {
				throw new MigrationException("the backup at '" + backup + "' reads differently from when it was"
						+ " made (digest " + copied.digest() + ", recorded " + recorded.digest()
						+ "); the repository is unchanged");
			}
			String fingerprint = source.fingerprint();
			Built[] caughtUp = { new Built(copied.digest(), copied.digest(), copied.refs(), copied.logEntries()) };
			Refresh catchUp = () -> {
				List<String> changed = CatchUp.apply(this.repository, source, restored, staged);
				kept.addAll(changed);
				if (!changed.isEmpty()) {
					BackupRecord now = BackupRecord.read(this.repository, restored, staged);
					caughtUp[0] = new Built(now.digest(), now.digest(), now.refs(), now.logEntries());
				}
				return caughtUp[0];
			};
			// the bulk of what changed since the migration now, what changes until the locks under them
			swapped = swap(source, fingerprint, catchUp.staged(), staged, options, work, catchUp, false);
		}
		catch (IOException | RuntimeException ex) {
			if (Journal.read(work) == null) {
				FileMoves.deleteTree(work);
			}
			throw ex;
		}
		// renamed while the journal still says how to finish: a run stopped from here on finds it restored
		FileMoves.move(backup, restoredMark);
		FileMoves.deleteTree(work);
		FileMoves.deleteTree(restoredMark);
		kept.addAll(swapped.carried());
		return report(current, restored, swapped.built(), staged, swapped.backup(), List.copyOf(kept), started);
	}

	/** Deletes a backup the operator no longer needs. */
	public void dropBackup(Path backup) throws IOException {
		if (!backup.normalize().startsWith(this.gitDir.resolve(BACKUP_DIR))) {
			throw new MigrationException("'" + backup + "' is not a refstore backup of " + this.gitDir);
		}
		FileMoves.deleteTree(backup);
	}

	/**
	 * Records this process as the owner of the migration in {@code work}, before any lock is taken: every lock
	 * file then holds the same text, so a run after a crash can tell the dead owner's locks from anyone else's.
	 */
	static String claim(Path work) throws IOException {
		return claim(work, null);
	}

	/**
	 * As {@link #claim(Path)}, for a migration that outlives processes: {@code job} names it (a batch job's
	 * instance), so that a later process running the same job recognises the work as its own.
	 */
	static String claim(Path work, String job) throws IOException {
		String owner = ProcessOwner.describeThisProcess("refs migrate", job);
		DurableFiles.write(work.resolve(OWNER), owner.getBytes(StandardCharsets.UTF_8));
		return owner;
	}

	/**
	 * After a migration died (killed, power lost) holding the store's locks: refuses if its owner may still run,
	 * else removes exactly the locks it left (those holding its owner text) and a {@code config.lock} of a
	 * switch it had begun, so that git's writers and this run can go on.
	 * @param job the job the caller runs (it takes over that job's migration), or {@code null} for a command
	 */
	String recoverFromDeadOwner(Path work, String job) throws IOException {
		ProcessOwner owner = readOwner(work);
		if (owner == null) {
			return null;
		}
		if (!owner.isGone(job)) {
			throw new MigrationException("another refstore migration (" + owner.describe() + ") is running on "
					+ this.gitDir);
		}
		breakLocks(owner, work);
		return owner.text();
	}

	/** As {@link #recoverFromDeadOwner(Path, String)} for a command. */
	String recoverFromDeadOwner(Path work) throws IOException {
		return recoverFromDeadOwner(work, null);
	}

	/**
	 * Removes the locks a migration or rollback left when its owner died, if its owner is known to be gone: a job
	 * the caller has found dead (its execution marked failed at start-up or by a surviving instance), or a command
	 * whose process no longer runs on this host. Locks of anyone else are left alone. The staged work stays, for
	 * the job's restart to resume.
	 * @param deadJob the job instance the caller knows is dead (as the owner file names it), or {@code null}
	 * @return how many locks were removed
	 */
	public int releaseAbandonedLocks(String deadJob) throws IOException {
		Path work = this.gitDir.resolve(WORK_DIR);
		ProcessOwner owner = readOwner(work);
		if (owner == null || !owner.isGone(deadJob)) {
			return 0;
		}
		return breakLocks(owner, work);
	}

	private static ProcessOwner readOwner(Path work) throws IOException {
		try {
			return ProcessOwner.parse(Files.readString(work.resolve(OWNER), StandardCharsets.UTF_8));
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	private int breakLocks(ProcessOwner owner, Path work) throws IOException {
		int removed;
		try (RefStore store = RefStores.open(this.repository)) {
			removed = store.breakLocks(owner.text());
		}
		Path config = this.gitDir.resolve("config");
		if (ConfigEditor.ownsLock(config, work) && Files.deleteIfExists(config.resolveSibling("config.lock"))) {
			removed++;
		}
		return removed;
	}

	/** The job an owner text names, or {@code null} for a one-process migration (or no owner). */
	static String jobOf(String owner) {
		return (owner != null) ? ProcessOwner.parse(owner).job() : null;
	}

	void refuse(RefFormat target) throws IOException {
		RefFormat current = this.repository.refFormat();
		if (target == current) {
			throw new MigrationException("repository already uses '" + current.configName() + "' format");
		}
		if (!this.repository.gitDir().equals(this.repository.commonDir()) || hasWorktrees()) {
			throw new MigrationException("migrating repositories with worktrees is not supported yet");
		}
		Path lock = (current == RefFormat.FILES) ? this.gitDir.resolve("packed-refs.lock")
				: this.gitDir.resolve("reftable/tables.list.lock");
		// a writer holds the lock for moments; one that stays is likely left by a process that died
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
				throw new java.io.InterruptedIOException("interrupted while waiting for '" + lock + "'");
			}
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

	ObjectDatabase objects() throws IOException {
		return this.repository.objectDatabase();
	}

	/** Steps 2 and 3: the new store in bulk, then read back and compared. */
	Built buildAndVerify(RefStore source, Path staged, MigrationOptions options) throws IOException {
		Map<String, List<ReflogEntry>> reflogs = new LinkedHashMap<>();
		long maxEntries = 0;
		if (options.reflogs()) {
			for (String name : source.reflogNames()) {
				List<ReflogEntry> entries = source.reflog(name);
				reflogs.put(name, entries);
				maxEntries = Math.max(maxEntries, entries.size());
			}
		}
		RefDigest sourceDigest = new RefDigest(objects());
		Files.createDirectories(staged);
		try (InitialRefWriter writer = RefStores.initialWriter(this.repository, options.target(), staged, maxEntries);
				RefCursor refs = source.refs(RefQuery.ALL.withRootRefs())) {
			writeRefs(refs, sourceDigest, writer);
			for (Map.Entry<String, List<ReflogEntry>> log : reflogs.entrySet()) {
				sourceDigest.addReflog(log.getKey(), writer.addReflog(log.getKey(), log.getValue()));
			}
			writer.finish();
		}
		return verify(new Built(sourceDigest, null), staged, options);
	}

	/** Streams every ref of {@code refs} into the digest and the writer, in the cursor's order. */
	static void writeRefs(RefCursor refs, RefDigest digest, InitialRefWriter writer) throws IOException {
		while (refs.next()) {
			byte[] peeled = digest.addRef(refs);
			if (refs.isSymbolic()) {
				writer.addSymbolic(refs.nameBuffer(), refs.nameLength(),
						new String(refs.targetBuffer(), 0, refs.targetLength(), StandardCharsets.UTF_8));
			}
			else {
				writer.addDirect(refs.nameBuffer(), refs.nameLength(), refs.idBuffer(), peeled);
			}
		}
	}

	/**
	 * Step 3: reads the store staged in {@code staged} back through its own backend.
	 * @return {@code built} with the digest read back
	 * @throws MigrationException if it reads differently from the source
	 */
	Built verify(Built built, Path staged, MigrationOptions options) throws IOException {
		String targetDigest;
		try (RefStore target = RefStores.openAt(this.repository, options.target(), staged)) {
			targetDigest = RefDigest.of(target, objects(), options.reflogs()).finish();
		}
		if (!built.sourceDigest.equals(targetDigest)) {
			throw new MigrationException("verification failed: the new " + options.target().configName()
					+ " store at '" + staged + "' reads differently from the source (digest " + built.sourceDigest
					+ " vs " + targetDigest + "); the repository is unchanged");
		}
		return new Built(built.sourceDigest, targetDigest, built.refs, built.logEntries);
	}

	private void retire(RefFormat old, Path backup, Path work) throws IOException {
		Path strays = (old == RefFormat.FILES) ? CarryOver.newStraysDir(work) : null;
		RefStores.layout(old).retire(this.gitDir, backup, strays);
	}

	Path newBackupDir(RefFormat old) {
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
		return this.gitDir.resolve(BACKUP_DIR).resolve(stamp + "-" + old.configName());
	}

	/**
	 * Step 7 of an earlier run that stopped after the switch: retire the old store and carry what a git process
	 * slipped into it, then clean up.
	 */
	MigrationReport finishInterrupted(Journal journal, Path work, long started) throws IOException {
		List<String> carried = retireAndCarry(journal.from(), journal.backup(), work, null);
		FileMoves.deleteTree(work);
		return finishedReport(journal.from(), journal.to(), work, journal.backup(), carried, started);
	}

	/** The report of a swap finished by a later run: the digests are the store's as it now reads. */
	private MigrationReport finishedReport(RefFormat from, RefFormat to, Path work, Path backup, List<String> carried,
			long started) throws IOException {
		try (Repository fresh = Repository.open(this.gitDir); RefStore store = RefStores.open(fresh)) {
			RefDigest digest = RefDigest.of(store, fresh.objectDatabase(), true);
			String hex = digest.finish();
			return new MigrationReport(from, to, digest.refs(), digest.logEntries(), hex, hex, work, backup, true,
					elapsed(started), carried);
		}
	}

	/** The report of a swap. */
	static MigrationReport report(RefFormat from, RefFormat to, Built built, Path staged, Path backup,
			List<String> carried, long started) {
		return new MigrationReport(from, to, built.refs, built.logEntries, built.sourceDigest, built.targetDigest,
				staged, backup, true, elapsed(started), carried);
	}

	private static Duration elapsed(long started) {
		return Duration.ofNanos(System.nanoTime() - started);
	}

	/** Brings a staged store up to date with its source under the swap's locks. */
	@FunctionalInterface
	private interface Refresh {

		/** @return the staged store's digests and counts, as it now reads */
		Built staged() throws IOException;

	}

	/** A built store's digests and counts. */
	static final class Built {

		final String sourceDigest;

		final String targetDigest;

		final long refs;

		final long logEntries;

		Built(RefDigest source, String targetDigest) {
			this.refs = source.refs();
			this.logEntries = source.logEntries();
			this.sourceDigest = source.finish();
			this.targetDigest = (targetDigest != null) ? targetDigest : this.sourceDigest;
		}

		Built(String sourceDigest, String targetDigest, long refs, long logEntries) {
			this.sourceDigest = sourceDigest;
			this.targetDigest = targetDigest;
			this.refs = refs;
			this.logEntries = logEntries;
		}

	}

	/** The store a swap put in place, and where the old one went. */
	record Swapped(Built built, Path backup, List<String> carried) {

	}

}
