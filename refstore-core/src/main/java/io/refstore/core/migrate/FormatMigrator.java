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

import io.refstore.core.RefStores;
import io.refstore.core.files.FilesLayout;
import io.refstore.core.io.FileMoves;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.InitialRefWriter;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.reftable.ReftableLayout;
import io.refstore.core.repo.ConfigEditor;
import io.refstore.core.repo.Repository;

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

	private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(1);

	/** The file in the work directory naming the process that runs the migration. */
	static final String OWNER = "owner";

	/** The line of the owner file naming a job that owns the migration across processes. */
	private static final String JOB = "job ";

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
		try (RefStore source = this.repository.refStore()) {
			String fingerprint = source.fingerprint();
			Built built = buildAndVerify(source, staged, options);
			if (options.dryRun()) {
				return report(current, options.target(), built, staged, null, false, started);
			}
			Swapped swapped = swap(source, fingerprint, built, staged, options, work);
			FileMoves.deleteTree(work);
			return report(current, options.target(), swapped.built, staged, swapped.backup, true, started);
		}
		catch (IOException | RuntimeException ex) {
			if (!options.dryRun() && Journal.read(work) == null) {
				FileMoves.deleteTree(work);
			}
			throw ex;
		}
	}

	/**
	 * Steps 5 to 7 up to the removal of the work directory: locks, re-reads and if need be rebuilds, stages,
	 * switches and retires.
	 * @param fingerprint the source's {@link RefStore#fingerprint()} from before the staged store was read from it
	 * @param built the staged store's digests, as built and verified
	 * @return the store swapped in (rebuilt if the source had changed) and where the old one went
	 */
	Swapped swap(RefStore source, String fingerprint, Built built, Path staged, MigrationOptions options, Path work)
			throws IOException {
		RefFormat current = this.repository.refFormat();
		Path backup = newBackupDir(current);
		Built swapped = built;
		try (Closeable locks = source.lockStore(LOCK_TIMEOUT, work.resolve(OWNER))) {
			// the fingerprint changes with any write, so an equal one proves the staged copy is still exact
			// without reading every ref again
			if (!source.fingerprint().equals(fingerprint)) {
				// a writer got in before the locks: build again from what the locks now freeze
				FileMoves.deleteTree(staged);
				swapped = buildAndVerify(source, staged, options);
			}
			stage(current, staged);
			new Journal(current, options.target(), backup).write(work);
			ConfigEditor.setRefStorage(this.gitDir.resolve("config"), options.target(), this.repository.hashAlgorithm());
			retire(current, backup);
		}
		return new Swapped(swapped, backup);
	}

	/**
	 * Restores the store a migration kept in {@code backup} (as printed in its report), migrating the
	 * current store out of the way into a backup of its own. Changes made since the migration are in that
	 * new backup, not in the restored store.
	 */
	public MigrationReport rollback(Path backup) throws IOException {
		long started = System.nanoTime();
		RefFormat current = this.repository.refFormat();
		RefFormat restored = Files.isDirectory(backup.resolve("reftable")) ? RefFormat.REFTABLE : RefFormat.FILES;
		if (restored == current) {
			throw new MigrationException("the backup at '" + backup + "' holds a " + restored.configName()
					+ " store, the format the repository already uses");
		}
		Path work = this.gitDir.resolve(WORK_DIR);
		recoverFromDeadOwner(work);
		refuse(restored);
		Files.createDirectories(work);
		claim(work);
		Built built;
		try (RefStore kept = RefStores.openAt(this.repository, restored, backup)) {
			built = new Built(RefDigest.of(kept, objects(), true), null);
		}
		Path retiredTo = newBackupDir(current);
		try (RefStore source = this.repository.refStore(); Closeable locks = source.lockStore(LOCK_TIMEOUT, work.resolve(OWNER))) {
			stage(current, backup);
			new Journal(current, restored, retiredTo).write(work);
			ConfigEditor.setRefStorage(this.gitDir.resolve("config"), restored, this.repository.hashAlgorithm());
			retire(current, retiredTo);
		}
		FileMoves.deleteTree(work);
		FileMoves.deleteTree(backup);
		return report(current, restored, built, backup, retiredTo, true, started);
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
		ProcessHandle self = ProcessHandle.current();
		String owner = "refstore refs migrate\npid " + self.pid() + "\nstarted "
				+ self.info().startInstant().map(Object::toString).orElse("unknown") + "\n"
				+ ((job != null) ? JOB + job + "\n" : "");
		FileMoves.writeAtomically(work.resolve(OWNER), owner.getBytes(StandardCharsets.UTF_8));
		return owner;
	}

	/**
	 * After a migration died (killed, power lost) holding the store's locks: refuses if its process still runs,
	 * else removes exactly the locks it left (those holding its owner text) and a {@code config.lock} of a
	 * switch it had begun, so that git's writers and this run can go on.
	 */
	String recoverFromDeadOwner(Path work) throws IOException {
		String owner;
		try {
			owner = Files.readString(work.resolve(OWNER), StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		String[] lines = owner.split("\n");
		if (lines.length >= 3 && lines[1].startsWith("pid ")) {
			long pid = Long.parseLong(lines[1].substring(4).strip());
			boolean alive = ProcessHandle.of(pid)
				.map((process) -> process.info().startInstant().map(Object::toString).orElse("unknown"))
				.filter((started) -> ("started " + started).equals(lines[2]))
				.isPresent();
			if (alive && pid != ProcessHandle.current().pid()) {
				String job = jobOf(owner);
				throw new MigrationException("another refstore migration (pid " + pid
						+ ((job != null) ? ", job " + job : "") + ") is running on " + this.gitDir);
			}
		}
		try (RefStore store = this.repository.refStore()) {
			store.breakLocks(owner);
		}
		if (Journal.read(work) != null) {
			Files.deleteIfExists(this.gitDir.resolve("config.lock"));
		}
		return owner;
	}

	/** The job an owner text names, or {@code null} for a one-process migration (or no owner). */
	static String jobOf(String owner) {
		if (owner != null) {
			for (String line : owner.split("\n")) {
				if (line.startsWith(JOB)) {
					return line.substring(JOB.length());
				}
			}
		}
		return null;
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
		if (Files.exists(lock)) {
			throw new MigrationException("the ref store is locked by another process: '" + lock + "' exists");
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

	private void stage(RefFormat current, Path staged) throws IOException {
		if (current == RefFormat.FILES) {
			ReftableLayout.stage(staged, this.gitDir);
		}
		else {
			FilesLayout.clear(this.gitDir);
			FilesLayout.stage(staged, this.gitDir);
		}
	}

	private void retire(RefFormat old, Path backup) throws IOException {
		if (old == RefFormat.FILES) {
			FilesLayout.retire(this.gitDir, backup);
			ReftableLayout.writeStubs(this.gitDir);
		}
		else {
			ReftableLayout.retire(this.gitDir, backup);
		}
	}

	Path newBackupDir(RefFormat old) {
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
		return this.gitDir.resolve(BACKUP_DIR).resolve(stamp + "-" + old.configName());
	}

	/** Step 7 of an earlier run that stopped after the switch: retire the old store, then clean up. */
	MigrationReport finishInterrupted(Journal journal, Path work, long started) throws IOException {
		retire(journal.from(), journal.backup());
		FileMoves.deleteTree(work);
		try (RefStore store = this.repository.refStore()) {
			RefDigest digest = RefDigest.of(store, objects(), true);
			String hex = digest.finish();
			return new MigrationReport(journal.from(), journal.to(), digest.refs(), digest.logEntries(), hex, hex, work,
					journal.backup(), true, Duration.ofNanos(System.nanoTime() - started));
		}
	}

	static MigrationReport report(RefFormat from, RefFormat to, Built built, Path staged, Path backup,
			boolean swapped, long started) {
		return new MigrationReport(from, to, built.refs, built.logEntries, built.sourceDigest, built.targetDigest,
				staged, backup, swapped, Duration.ofNanos(System.nanoTime() - started));
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
	record Swapped(Built built, Path backup) {

	}

}
