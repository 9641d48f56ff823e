package io.refstore.core.migrate;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.ConfigEditor;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.store.RefStores;

/**
 * Puts a built and verified store in place of the live one: the destructive steps that
 * the one-shot migration, the staged migration and the rollback share.
 * <ol>
 * <li>Close this process's gate (its own writers wait) and take the source store's locks
 * (git's writers wait or fail, none is lost); snapshot the loose refs of a files store,
 * to carry what a git process slips in later.</li>
 * <li>Re-read the source: if anything changed since the store was built, bring the store
 * up to date under the locks ({@link Refresh}).</li>
 * <li>Stage the new store's files in the git directory; the configuration still names the
 * old format, whose git ignores them.</li>
 * <li>Write the {@link Journal}: from here on a run stopped at any point is finished by
 * the next one.</li>
 * <li>Switch {@code extensions.refStorage} and {@code core.repositoryformatversion} with
 * one atomic rename of {@code config}: before it git reads exactly the old refs, after it
 * exactly the new ones.</li>
 * <li>Retire the old store into {@code refstore-backup/<time>-<format>/} (with git's
 * stubs where the target is reftable), carry into the new store what a git process wrote
 * into the old one meanwhile ({@link CarryOver}), and record the backup's digest for a
 * rollback.</li>
 * </ol>
 */
final class Swap {

	/** How long the swap waits for each of the store's locks that a writer holds. */
	private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(5);

	/**
	 * How long a swap waits for this process's writers already inside the repository to
	 * finish.
	 */
	private static final Duration WRITERS_WAIT = Duration.ofSeconds(30);

	private final Repository repository;

	/** The git directory: the configuration, the backups. */
	private final Path gitDir;

	private final WorkDir work;

	Swap(Repository repository, WorkDir work) {
		this.repository = repository;
		this.gitDir = repository.gitDir();
		this.work = work;
	}

	/**
	 * Where the store's files are: the git directory, or where a ref storage URI puts
	 * them (on the same file system: {@link WorkDir} refuses any other).
	 */
	private Path storeDir() throws IOException {
		return this.repository.refsDir();
	}

	/**
	 * Runs the steps above, up to the removal of the work directory (the caller's).
	 * @param source the live store, open
	 * @param mark the source's {@link Mark} from before the staged store was read from
	 * it, or {@code null} to take the staged store as it is
	 * @param built the staged store's digests, as built and verified
	 * @param refresh brings the staged store up to date when the source's mark changed
	 * before the locks
	 * @param retired the record of the store the swap retires, as its caller read it
	 * (which the backup then keeps without the store being read again), given the staged
	 * store swapped in; {@code null} from it to read the retired store
	 * @param restores the backup a rollback restores (its journal names it), or
	 * {@code null} for a migration
	 * @return the store swapped in (refreshed if the source had changed) and where the
	 * old one went
	 */
	Result run(RefStore source, Mark mark, BuiltStore built, RefFormat target, Refresh refresh, Retired retired,
			Path restores) throws IOException {
		RefFormat current = this.repository.refFormat();
		Path backup = newBackupDir(current);
		// before anything changes: an identity file that cannot be read (a planted link)
		// refuses the swap rather than stopping it after the switch; a missing one is
		// written with the backup's record, so a refused swap leaves the repository as it
		// was
		RepositoryId.find(this.repository);
		BuiltStore swapped = built;
		List<String> carried;
		// 1. the gate and the locks
		try (StoreGate.Swap gate = StoreGate.of(this.repository.commonDir()).closeForSwap(WRITERS_WAIT);
				Closeable locks = source.lockStore(LOCK_TIMEOUT, this.work.ownerFile())) {
			StoreFiles locked = null;
			if (current == RefFormat.FILES) {
				locked = StoreFiles.since(storeDir(), (mark != null) ? mark.files : null);
				CarryOver snapshot = CarryOver.of(locked);
				refuseTooDeep(snapshot, backup);
				snapshot.write(this.work.path());
			}
			// 2. the mark changes with any write, so an equal one proves the staged copy
			// is still exact without reading every ref again
			if (mark != null && mark.changedBy(source, locked)) {
				swapped = refresh.staged();
			}
			// 3. to 5.
			RefStores.layout(target).stage(this.work.staged(), storeDir());
			new Journal(current, target, backup, (restores != null) ? Journal.absolute(restores) : null)
				.write(this.work.path());
			switchConfig(current, target, gate);
			// 6. the record of the store it retires, as the source was last read (a
			// migration's source digest if reflogs came along, a rollback's catch-up's),
			// else read from the backup
			carried = retireAndCarry(current, backup, retired.record(swapped));
		}
		return new Result(swapped, backup, carried);
	}

	/**
	 * Switches the configuration to {@code target}. If that fails (a {@code git config}
	 * holding {@code config.lock}, a full disk) and the configuration still names
	 * {@code current}, the staged store and the journal are removed again, so the
	 * repository is as it was; if it names {@code target} (the rename happened, but
	 * syncing it failed) the journal stays, and running the migration again finishes it.
	 */
	private void switchConfig(RefFormat current, RefFormat target, StoreGate.Swap gate) throws IOException {
		try {
			ConfigEditor.setRefStorage(this.gitDir.resolve("config"), target, this.repository.refStoragePath(),
					this.repository.hashAlgorithm(), this.work.path());
		}
		catch (IOException | RuntimeException ex) {
			RefFormat named;
			try (Repository now = this.repository.reopen()) {
				named = now.refFormat();
			}
			if (named == target) {
				gate.switched();
				throw ex;
			}
			// a staged store that was never switched to: git of the current format
			// ignores it anyway
			RefStores.layout(target).unstage(storeDir());
			Journal.delete(this.work.path());
			throw ex;
		}
		gate.switched();
	}

	/**
	 * After the switch: moves the old store into {@code backup}, carries into the new
	 * store what a git process wrote into the old one under the swap (files only), and
	 * records in the backup the digest a rollback checks its copy against and the
	 * repository's identity (recorded now if it has none). Idempotent: a run that
	 * finishes an interrupted swap does it again.
	 * @param read the retired store's record as its source was read, or {@code null} to
	 * read it from the backup
	 */
	private List<String> retireAndCarry(RefFormat old, Path backup, BackupRecord read) throws IOException {
		Path strays = (old == RefFormat.FILES) ? CarryOver.newStraysDir(this.work.path()) : null;
		RefStores.layout(old).retire(storeDir(), backup, strays);
		CarryOver loose = (old == RefFormat.FILES) ? CarryOver.read(this.work.path()) : null;
		List<String> carried = (loose != null) ? loose.carry(this.repository, storeDir(), backup, this.work.path())
				: List.of();
		BackupRecord record = (read != null && carried.isEmpty()) ? read
				: BackupRecord.read(this.repository, old, backup);
		record.write(backup, RepositoryId.of(this.repository));
		return carried;
	}

	/**
	 * Refuses, before anything changes, a files store with a file too deep to be kept in
	 * its backup: after the switch it could be neither retired nor checked for a write
	 * that must be carried, and the swap could never finish.
	 */
	private static void refuseTooDeep(CarryOver snapshot, Path backup) throws MigrationException {
		Optional<String> file = snapshot.tooDeepFor(backup);
		if (file.isPresent()) {
			int bytes = backup.resolve(file.get()).toString().getBytes(StandardCharsets.UTF_8).length;
			throw new MigrationException("the files store cannot be kept as a backup: the path of its file '"
					+ file.get() + "' in " + FormatMigrator.BACKUP_DIR + "/" + backup.getFileName() + " would be "
					+ bytes + " bytes, its lock's " + (bytes + ".lock".length()) + ", and a path may have "
					+ (FileMoves.PATH_MAX - 1) + "; nothing was changed: migrate the repository at a shorter path");
		}
	}

	private Path newBackupDir(RefFormat old) {
		String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
		return this.gitDir.resolve(FormatMigrator.BACKUP_DIR).resolve(stamp + "-" + old.configName());
	}

	/**
	 * Step 6 of an earlier run that stopped after the switch: retires the old store and
	 * carries what a git process slipped into it, then removes the work directory.
	 * @return the report, its digests the store's as it now reads
	 */
	MigrationReport finishInterrupted(Journal journal, long started) throws IOException {
		List<String> carried = finish(journal);
		return finishedReport(journal.from(), journal.to(), journal.backup(), carried, started);
	}

	/**
	 * {@link #finishInterrupted} without the report, which reads the whole store.
	 * @return the refs carried into the new store
	 */
	List<String> finish(Journal journal) throws IOException {
		List<String> carried = retireAndCarry(journal.from(), journal.backup(), null);
		this.work.delete();
		return carried;
	}

	/**
	 * Finishes the swap another run began ({@link #finish}), before this run does what it
	 * was asked on the repository reopened: a rollback's, or a migration's to the other
	 * format. A backup that a killed rollback restored stays (only that rollback run
	 * again removes it); if that rollback was removing it, its hidden rest goes too.
	 * @return what was finished, for the report
	 */
	InterruptedSwap finishAnother(Journal journal) throws IOException {
		finish(journal);
		Path restored = journal.restores();
		if (restored != null && !Files.exists(restored)) {
			FileMoves.deleteTree(Rollback.restoredMark(restored));
		}
		return new InterruptedSwap(journal.from(), journal.to(), journal.backup(), restored);
	}

	/**
	 * {@code refused}, refusing what a run asked after it had finished the swap of
	 * {@code journal} ({@link #finishAnother}): its message says that the repository now
	 * uses that swap's format and where its old store is.
	 */
	static MigrationException afterFinishing(MigrationException refused, Journal journal) {
		return new MigrationException(refused.getMessage() + " (the " + journal.describe()
				+ " that a killed run had begun was finished first: the repository uses the "
				+ journal.to().configName() + " format now, its old store kept at '" + journal.backup() + "')");
	}

	/**
	 * The report of a swap finished by a later run: the digests are the store's as it now
	 * reads (the repository reopened with its environment, as the run was given it).
	 */
	MigrationReport finishedReport(RefFormat from, RefFormat to, Path backup, List<String> carried, long started)
			throws IOException {
		try (Repository fresh = this.repository.reopen(); RefStore store = RefStores.open(fresh)) {
			RefDigest digest = RefDigest.of(store, fresh.objectDatabase(), true);
			String hex = digest.finish();
			return new MigrationReport(from, to, digest.refs(), digest.logEntries(), hex, hex, this.work.path(), backup,
					true, elapsed(started), carried);
		}
	}

	/** The report of a swap this run made. */
	static MigrationReport report(RefFormat from, RefFormat to, Result swapped, Path staged, long started) {
		BuiltStore built = swapped.built();
		return new MigrationReport(from, to, built.refs, built.logEntries, built.sourceDigest, built.targetDigest,
				staged, swapped.backup(), true, elapsed(started), swapped.carried());
	}

	static Duration elapsed(long started) {
		return Duration.ofNanos(System.nanoTime() - started);
	}

	/** Brings a staged store up to date with its source under the swap's locks. */
	@FunctionalInterface
	interface Refresh {

		/**
		 * @return the staged store's digests and counts, as it now reads
		 */
		BuiltStore staged() throws IOException;

	}

	/**
	 * The record of the store a swap retires, as the swap's caller read that store: valid
	 * once the swap has proved, under its locks, that the store is as read (its mark
	 * unchanged, or the staged store refreshed from it under them).
	 */
	@FunctionalInterface
	interface Retired {

		/**
		 * The caller read nothing it can vouch for: the backup is read for its record.
		 */
		Retired UNREAD = (swapped) -> null;

		/**
		 * A migration's: the source digest of the store it built, which is the retired
		 * store's record when the reflogs came along.
		 */
		static Retired ofMigration(boolean reflogs) {
			return reflogs ? BackupRecord::of : UNREAD;
		}

		/**
		 * @param swapped the staged store swapped in
		 * @return the retired store's record, or {@code null} to read it from the backup
		 */
		BackupRecord record(BuiltStore swapped);

	}

	/**
	 * The store a swap put in place, where the old one went, and the refs carried into
	 * it.
	 */
	record Result(BuiltStore built, Path backup, List<String> carried) {

	}

	/**
	 * How a swap tells, under its locks, that its source changed since the staged store
	 * was read from it: for a files store the identities of its files
	 * ({@link StoreFiles}), compared with the snapshot the swap takes under the locks
	 * anyway for {@link CarryOver}; else the store's {@link RefStore#fingerprint()}.
	 */
	static final class Mark {

		private final String fingerprint;

		private final StoreFiles files;

		private Mark(String fingerprint, StoreFiles files) {
			this.fingerprint = fingerprint;
			this.files = files;
		}

		/** A mark of {@link RefStore#fingerprint()} (as a job's state keeps it). */
		static Mark fingerprint(String fingerprint) {
			return new Mark(fingerprint, null);
		}

		/** {@code source}'s mark now: take it before reading the store. */
		static Mark of(Repository repository, RefStore source) throws IOException {
			return (repository.refFormat() == RefFormat.FILES) ? new Mark(null, StoreFiles.of(repository.refsDir()))
					: fingerprint(source.fingerprint());
		}

		/**
		 * {@link #of}, keeping the names of a files store's logs from its walk
		 * ({@link #reflogNames()}) for the copy that follows.
		 */
		static Mark withReflogNames(Repository repository, RefStore source) throws IOException {
			return (repository.refFormat() == RefFormat.FILES)
					? new Mark(null, StoreFiles.withReflogNames(repository.refsDir()))
					: fingerprint(source.fingerprint());
		}

		/**
		 * The names of the logs when the mark was taken, as
		 * {@link RefStore#reflogNames()} listed them then, if it was taken
		 * {@link #withReflogNames} of a files store; else {@code null}. A log made or
		 * removed since changes the mark.
		 */
		List<String> reflogNames() {
			return (this.files != null) ? this.files.reflogNames() : null;
		}

		/**
		 * Whether {@code source} was written since this mark.
		 * @param locked the files store's snapshot under the locks, or {@code null}
		 */
		boolean changedBy(RefStore source, StoreFiles locked) throws IOException {
			if (this.files != null) {
				return locked == null || !this.files.unchangedIn(locked);
			}
			return !source.fingerprint().equals(this.fingerprint);
		}

	}

}
