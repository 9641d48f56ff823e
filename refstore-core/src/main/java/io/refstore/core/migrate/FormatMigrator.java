package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * Moves a repository's refs and reflogs between the files and reftable formats, in one
 * run. Safe steps first, then destructive ones:
 * <ol>
 * <li>Refuse what cannot be migrated: the format in use, linked worktrees, a store locked
 * by another process, a migration whose owner still runs ({@link WorkDir}). Finish an
 * earlier migration (or rollback) that was stopped after its switch (see 5): to the
 * format asked for, that is the whole run; to the other, the run goes on from there on
 * the reopened repository. A dry run is refused then: it would change the
 * repository.</li>
 * <li>Build the new store beside the live one, in {@code refstore-migration/new/}, in
 * bulk ({@link StoreBuilder}): refs stream from the source straight into one
 * {@code packed-refs} or one reftable (no per-ref file or table), reflogs follow. The
 * source's digest is taken in the same pass.</li>
 * <li>Verify: read the new store back through its own backend and compare digests.</li>
 * <li>A dry run stops here and says where the new store is.</li>
 * <li>Swap ({@link Swap}): under the source store's locks (git's writers wait or fail,
 * none is lost) re-read the source and build again if anything changed since step 2;
 * stage the new store, write the journal, switch the configuration with one atomic rename
 * of {@code config}, and move the old store into
 * {@code refstore-backup/<time>-<format>/}. A migration killed at any point is completed
 * (after the switch) or started over (before it) by running it again.</li>
 * <li>Remove the work directory.</li>
 * </ol>
 * {@link StagedMigration} runs the same steps in phases a batch job can resume;
 * {@link #rollback} restores a backup through the same swap. A repository whose format
 * changed must be reopened ({@link Repository} reads its configuration once).
 */
public final class FormatMigrator {

	/** The work directory below the git directory. */
	public static final String WORK_DIR = WorkDir.NAME;

	/** The directory below the git directory holding the backups of migrated stores. */
	public static final String BACKUP_DIR = "refstore-backup";

	private final Repository repository;

	private final WorkDir work;

	private final MigrationProgress progress;

	public FormatMigrator(Repository repository) {
		this(repository, MigrationProgress.NONE);
	}

	/**
	 * A migrator that tells {@code progress} how far each long phase has come (reading
	 * reflogs, copying refs, verifying), as the {@code refstore} command shows it on a
	 * terminal.
	 */
	public FormatMigrator(Repository repository, MigrationProgress progress) {
		this.repository = repository;
		this.work = new WorkDir(repository);
		this.progress = progress;
	}

	/**
	 * Migrates (or, with {@link MigrationOptions#dryRun()}, builds and verifies) as
	 * described above. After a run killed after its switch to the format other than
	 * {@code options.target()}, that run is finished first, the repository migrated on to
	 * the target, and the report says so ({@link MigrationReport#finishedFirst()}); the
	 * backups of both swaps stay.
	 * @throws MigrationException if the migration is refused or its verification fails;
	 * the message says why and the repository keeps its old format
	 */
	public MigrationReport migrate(MigrationOptions options) throws IOException {
		long started = System.nanoTime();
		RefFormat current = this.repository.refFormat();
		Swap swap = new Swap(this.repository, this.work);
		// 1. refuse, or finish an earlier run
		if (options.dryRun()) {
			refuseDryRunBeforeFinishing();
		}
		this.work.recoverFromDeadOwner(null);
		Journal interrupted = this.work.interruptedSwap();
		if (interrupted != null) {
			return finishThenMigrate(swap, interrupted, options, started);
		}
		this.work.begin(options.target(), null);
		Path staged = this.work.staged();
		StoreBuilder builder = new StoreBuilder(this.repository, this.progress);
		try (RefStore source = RefStores.open(this.repository)) {
			Swap.Mark mark = Swap.Mark.withReflogNames(this.repository, source);
			// 2. and 3.
			BuiltStore built = builder.buildAndVerify(source, mark.reflogNames(), staged, options);
			// 4.
			if (options.dryRun()) {
				Path result = keepDryRun(staged);
				return new MigrationReport(current, options.target(), built.refs, built.logEntries, built.sourceDigest,
						built.targetDigest, result, null, false, Swap.elapsed(started));
			}
			// 5. and 6.
			Swap.Result swapped = swap.run(source, mark, built, options.target(),
					builder.rebuild(source, staged, options), Swap.Retired.ofMigration(options.reflogs()), null);
			this.work.delete();
			return Swap.report(current, options.target(), swapped, staged, started);
		}
		catch (IOException | RuntimeException ex) {
			if (!options.dryRun()) {
				this.work.deleteUnlessJournaled();
			}
			throw ex;
		}
	}

	/**
	 * Refuses a dry run after a run killed after its switch, before anything changes (the
	 * locks the dead run left stay too): finishing that run, which must come first,
	 * changes the repository.
	 */
	private void refuseDryRunBeforeFinishing() throws IOException {
		this.work.refuseLiveOwner(null);
		Journal interrupted = this.work.interruptedSwap();
		if (interrupted != null) {
			throw new MigrationException("the " + interrupted.describe()
					+ " that a killed run had begun must be finished first, which a dry run does not do: run"
					+ " 'refstore refs migrate --ref-format=" + interrupted.to().configName()
					+ "' to finish it, then the dry run; the repository is unchanged");
		}
	}

	/**
	 * After a run killed after its switch: a migration to the format it switched to is
	 * that run finished, and reported as such; a migration to the other format finishes
	 * it first, then migrates on the reopened repository, and its report says what it
	 * finished ({@link MigrationReport#finishedFirst()}). Both swaps' backups stay.
	 */
	private MigrationReport finishThenMigrate(Swap swap, Journal interrupted, MigrationOptions options, long started)
			throws IOException {
		if (interrupted.to() == options.target()) {
			return swap.finishInterrupted(interrupted, started);
		}
		InterruptedSwap finished = swap.finishAnother(interrupted);
		try (Repository switched = this.repository.reopen()) {
			return new FormatMigrator(switched, this.progress).migrate(options).afterFinishing(finished, started);
		}
		catch (MigrationException ex) {
			throw Swap.afterFinishing(ex, interrupted);
		}
	}

	/**
	 * Moves a dry run's new store out of the work directory to where git leaves its own,
	 * {@code $GIT_DIR/ref_migration.XXXXXX}, and removes the work directory, so that the
	 * result outlives the next migration and nothing of the run holds a claim.
	 */
	private Path keepDryRun(Path staged) throws IOException {
		Path result = newDryRunDir(this.repository.gitDir());
		try (Stream<Path> entries = Files.list(staged)) {
			for (Path entry : (Iterable<Path>) entries::iterator) {
				Files.move(entry, result.resolve(entry.getFileName()));
			}
		}
		this.work.delete();
		return result;
	}

	private static final String MKDTEMP_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	/**
	 * A new directory named as git's {@code mkdtemp("ref_migration.XXXXXX")} names it:
	 * six letters or digits (scripts cut the name out of git's message by that shape).
	 */
	private static Path newDryRunDir(Path gitDir) throws IOException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (true) {
			StringBuilder name = new StringBuilder("ref_migration.");
			for (int i = 0; i < 6; i++) {
				name.append(MKDTEMP_LETTERS.charAt(random.nextInt(MKDTEMP_LETTERS.length())));
			}
			try {
				return Files.createDirectory(gitDir.resolve(name.toString()));
			}
			catch (FileAlreadyExistsException ex) {
				// taken: another name
			}
		}
	}

	/**
	 * Restores the store a migration kept in {@code backup} (as printed in its report),
	 * migrating the current store out of the way into a backup of its own. Refs written,
	 * moved or deleted since the migration are so in the restored store too
	 * ({@link CatchUp}): a confirmed write survives a rollback. The backup gives the
	 * restored store its layout and reflogs; the entries the current store logged since
	 * are in its new backup.
	 * <p>
	 * The backup is never moved: its store is copied into the work directory byte for
	 * byte, the copy read back and compared with the digest recorded when the backup was
	 * made, and the copy is swapped in exactly as a migration swaps its new store. A
	 * rollback killed or failed at any point leaves git reading the current store or the
	 * restored one, and running it again finishes it; the backup is removed only once the
	 * restored store is in place. A migration killed after its switch (or a rollback of
	 * another backup) is finished first, as a migration run again finishes it; the
	 * rollback then restores {@code backup} (which may be the one that run made) and
	 * reports the finished run ({@link MigrationReport#finishedFirst()}).
	 * @throws MigrationException if the backup does not read as recorded, or the rollback
	 * is refused
	 */
	public MigrationReport rollback(Path backup) throws IOException {
		return rollback(backup, null);
	}

	/**
	 * As {@link #rollback(Path)}, owned by {@code job} (a batch job's instance), so that
	 * the job restarted in another process takes over a rollback its dead run had begun,
	 * and its locks are known as the job's.
	 */
	public MigrationReport rollback(Path backup, String job) throws IOException {
		return new Rollback(this.repository, this.progress).run(backup, job);
	}

	/**
	 * Deletes a backup the operator no longer needs.
	 * @throws io.refstore.core.repo.RefusedJobInputException if it is not a backup of
	 * this repository reached without a symbolic link ({@link Backups#check})
	 */
	public void dropBackup(Path backup) throws IOException {
		if (!backup.normalize().startsWith(this.repository.gitDir().resolve(BACKUP_DIR))) {
			throw new MigrationException("'" + backup + "' is not a refstore backup of " + this.repository.gitDir());
		}
		FileMoves.deleteTree(Backups.check("backup", this.repository, backup.toString()));
	}

	/**
	 * Removes the locks a migration or rollback left when its owner died, if its owner is
	 * known to be gone: a job the caller has found dead (its execution marked failed at
	 * start-up or by a surviving instance), or a command whose process no longer runs on
	 * this host. Locks of anyone else are left alone. The staged work stays, for the
	 * job's restart to resume.
	 * @param deadJob the job instance the caller knows is dead (as the owner file names
	 * it), or {@code null}
	 * @return how many locks were removed
	 */
	public int releaseAbandonedLocks(String deadJob) throws IOException {
		return this.work.releaseAbandonedLocks(deadJob);
	}

}
