package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * Restores the store a migration kept in a backup, migrating the current store out of the
 * way into a backup of its own ({@link FormatMigrator#rollback(Path, String)} describes
 * what it guarantees).
 * <ol>
 * <li>Refuse what cannot be rolled back (no backup, a backup reached through a symbolic
 * link, outside the repository's backups or of another repository
 * ({@link Backups#check}), a backup of the format in use, a live owner, the refusals of a
 * migration); finish this rollback if an earlier run stopped after its switch or while it
 * removed the backup. A migration (or a rollback of another backup) stopped after its
 * switch is finished first, as every migration finishes it, and the rollback then runs on
 * the repository in that run's new format: the journal names the backup a rollback
 * restores, so that no run takes another's swap for its own.</li>
 * <li>Copy the backup's store into the work directory byte for byte, read the copy back
 * and compare it with the digest recorded when the backup was made.</li>
 * <li>Bring the copy up to date with every ref written, moved or deleted since the
 * migration ({@link CatchUp}).</li>
 * <li>Swap the copy in exactly as a migration swaps its new store ({@link Swap}),
 * catching up again under the locks if a writer got in.</li>
 * <li>Rename the backup (the journal still says how to finish), then remove the work
 * directory and the backup.</li>
 * </ol>
 */
final class Rollback {

	/** The prefix a restored backup is renamed with before it is removed. */
	private static final String RESTORED = ".restored-";

	private final Repository repository;

	private final WorkDir work;

	private final Swap swap;

	private final MigrationProgress progress;

	Rollback(Repository repository, MigrationProgress progress) {
		this.repository = repository;
		this.progress = progress;
		this.work = new WorkDir(repository);
		this.swap = new Swap(repository, this.work);
	}

	MigrationReport run(Path backup, String job) throws IOException {
		long started = System.nanoTime();
		// 1. refuse, or finish an earlier run
		this.work.recoverFromDeadOwner(job);
		Path restoredMark = restoredMark(backup);
		Journal interrupted = this.work.interruptedSwap();
		if (interrupted != null && interrupted.restores(backup)) {
			// this rollback, killed after its switch
			MigrationReport done = this.swap.finishInterrupted(interrupted, started);
			FileMoves.deleteTree(backup);
			FileMoves.deleteTree(restoredMark);
			return done;
		}
		if (interrupted == null && !Files.exists(backup) && Files.exists(restoredMark)) {
			// an earlier run restored it and was stopped while it removed the backup
			this.work.delete();
			FileMoves.deleteTree(restoredMark);
			RefFormat current = this.repository.refFormat();
			return this.swap.finishedReport(current, current, null, List.of(), started);
		}
		if (!Files.isDirectory(backup)) {
			throw new MigrationException("there is no backup at '" + backup + "'");
		}
		// inside this repository's backups, reached through no link, and made here
		Backups.check("backup", this.repository, backup.toString());
		RefFormat restored = Files.isDirectory(backup.resolve("reftable")) ? RefFormat.REFTABLE : RefFormat.FILES;
		// the format in use once the swap a killed run left is finished
		RefFormat current = (interrupted != null) ? interrupted.to() : this.repository.refFormat();
		if (restored == current) {
			String uses = (interrupted == null) ? "already uses"
					: "uses once the " + interrupted.describe() + " that a killed run had begun is finished (run"
							+ " 'refstore refs migrate --ref-format=" + current.configName() + "' to finish it)";
			throw new MigrationException("the backup at '" + backup + "' holds a " + restored.configName()
					+ " store, the format the repository " + uses);
		}
		if (interrupted != null) {
			return finishThenRollBack(interrupted, backup, job, started);
		}
		this.work.begin(restored, job);
		Path staged = this.work.staged();
		Swap.Result swapped;
		// the refs written, moved or deleted since the migration, kept in the restored
		// store: the report names them
		Set<String> kept = new TreeSet<>();
		try (RefStore source = RefStores.open(this.repository)) {
			// 2. the copy, as recorded
			BackupRecord copied = copy(backup, staged, restored);
			Swap.Mark mark = Swap.Mark.of(this.repository, source);
			// 3. and 4. the bulk of what changed since the migration now, what changes
			// until the locks under them
			BuiltStore[] caughtUp = {
					new BuiltStore(copied.digest(), copied.digest(), copied.refs(), copied.logEntries()) };
			// the current store as the last catch-up read it: what the swap retires once
			// its locks prove it unchanged since
			BackupRecord[] retired = { null };
			Swap.Refresh catchUp = () -> {
				RefDigest read = new RefDigest(this.repository.objectDatabase());
				List<String> changed = CatchUp.apply(this.repository, source, restored, staged, caughtUp[0].refs, read,
						this.progress);
				retired[0] = new BackupRecord(read.finish(), read.refs(), read.logEntries());
				kept.addAll(changed);
				if (!changed.isEmpty()) {
					BackupRecord now = BackupRecord.read(this.repository, restored, staged);
					caughtUp[0] = new BuiltStore(now.digest(), now.digest(), now.refs(), now.logEntries());
				}
				return caughtUp[0];
			};
			swapped = this.swap.run(source, mark, catchUp.staged(), restored, catchUp, (built) -> retired[0], backup);
		}
		catch (IOException | RuntimeException ex) {
			this.work.deleteUnlessJournaled();
			throw ex;
		}
		// 5. renamed while the journal still says how to finish: a run stopped from here
		// on finds it restored
		FileMoves.move(backup, restoredMark);
		this.work.delete();
		FileMoves.deleteTree(restoredMark);
		kept.addAll(swapped.carried());
		return Swap.report(current, restored, new Swap.Result(swapped.built(), swapped.backup(), List.copyOf(kept)),
				staged, started);
	}

	/**
	 * After a migration (or a rollback of another backup) killed after its switch: its
	 * swap is finished first, as any migration or rollback finishes it, and the rollback
	 * then runs on the repository in its new format. The backup the killed run retired
	 * its store into is a backup like any other (this rollback may restore it); a backup
	 * that a killed rollback restored stays.
	 */
	private MigrationReport finishThenRollBack(Journal interrupted, Path backup, String job, long started)
			throws IOException {
		InterruptedSwap finished = this.swap.finishAnother(interrupted);
		try (Repository switched = this.repository.reopen()) {
			return new Rollback(switched, this.progress).run(backup, job).afterFinishing(finished, started);
		}
		catch (MigrationException ex) {
			throw Swap.afterFinishing(ex, interrupted);
		}
	}

	/** The name a restored backup is renamed to before it is removed. */
	static Path restoredMark(Path backup) {
		return backup.resolveSibling(RESTORED + backup.getFileName());
	}

	/**
	 * Copies the store of {@code backup} into {@code staged} and reads it back.
	 * @throws MigrationException if the copy does not read as the backup's record says
	 */
	private BackupRecord copy(Path backup, Path staged, RefFormat restored) throws IOException {
		// the total is known before the copy: a display shows it from the start
		BackupRecord recorded = BackupRecord.readRecorded(backup);
		this.progress.start("Verifying backup", (recorded != null) ? recorded.refs() : 0);
		BackupCopy.copy(backup, staged);
		BackupRecord copied = BackupRecord.read(this.repository, restored, staged, this.progress);
		this.progress.stop();
		if (recorded != null && !recorded.digest().equals(copied.digest())) {
			throw new MigrationException(
					"the backup at '" + backup + "' reads differently from when it was" + " made (digest "
							+ copied.digest() + ", recorded " + recorded.digest() + "); the repository is unchanged");
		}
		return copied;
	}

}
