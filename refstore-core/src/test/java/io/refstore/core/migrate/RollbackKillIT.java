package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.Processes;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore refs rollback} killed with SIGKILL at random moments, in both
 * directions. Each source repository was migrated by refstore (keeping a backup) and then
 * got one more ref, so the current store and the backup differ, and the rollback keeps
 * that ref: after a kill, git must read exactly the current state, in the migrated format
 * (the current store) or in the restored one (the restored store, caught up), the
 * repository must be sound, and running the rollback again must finish it: the restored
 * state, the backup gone, the current store kept in exactly one new backup, no work
 * directory and no lock left. {@code -Drefstore.killTrials} (32) and
 * {@code -Drefstore.killSeed} as for {@link MigrationKillIT}.
 */
class RollbackKillIT {

	private static final GitCli GIT = MigrationRepos.NEWEST;

	private static final int TRIALS = Integer.getInteger("refstore.killTrials", 32);

	private static final long SEED = Long.getLong("refstore.killSeed", System.nanoTime());

	@TempDir
	static Path dir;

	private static Source toFiles;

	private static Source toReftable;

	/**
	 * A repository to copy for each trial: its backup (relative to the git directory),
	 * what git reads now and after the rollback, and the duration of an undisturbed
	 * rollback.
	 */
	private record Source(Path dir, String backup, GitView current, GitView restored, RefFormat restoredFormat,
			long nanos) {

	}

	@BeforeAll
	static void prepareBothDirections() throws IOException {
		toReftable = prepare("to-reftable", RefFormat.FILES);
		toFiles = prepare("to-files", RefFormat.REFTABLE);
	}

	/**
	 * A repository in {@code original} format migrated away from it by refstore, then
	 * written to by git.
	 */
	private static Source prepare(String name, RefFormat original) throws IOException {
		TempRepo repo = MigrationRepos.createLarge(dir.resolve(name), 2000);
		if (original == RefFormat.REFTABLE) {
			GIT.ok(repo.dir(), "refs", "migrate", "--ref-format=reftable");
		}
		GitView backedUp = GitView.captureQuickly(GIT, repo.dir());
		RefFormat other = (original == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		MigrationReport report = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(other));
		GIT.ok(repo.dir(), "update-ref", "refs/heads/after-migration", "HEAD");
		GitView current = GitView.captureQuickly(GIT, repo.dir());
		assertThat(current.difference(backedUp)).as("the current store differs from the backup").isNotNull();
		String backup = repo.gitDir().relativize(report.backup()).toString();
		Path copy = dir.resolve(name + "-timing");
		DirSnapshot.copy(repo.dir(), copy);
		long started = System.nanoTime();
		Process process = start(copy, copy.resolve(".git").resolve(backup), dir.resolve(name + "-timing.err"));
		assertThat(waitFor(process)).as("undisturbed rollback").isZero();
		long nanos = System.nanoTime() - started;
		GitView restored = GitView.captureQuickly(GIT, copy);
		// a rollback keeps what was written since the migration: the current refs, in the
		// restored format
		assertThat(restored.format()).isEqualTo(backedUp.format());
		assertThat(restored.difference(current)).isNull();
		System.out.printf("undisturbed rollback to %s: %d ms%n", original.configName(), nanos / 1_000_000);
		FileMoves.deleteTree(copy);
		return new Source(repo.dir(), backup, current, restored, original, nanos);
	}

	@Test
	void killedAtAnyMomentGitReadsTheCurrentOrTheRestoredStateAndARerunFinishesIt() throws Exception {
		System.out.printf("%d rollback kill trials, seed %d (-Drefstore.killSeed)%n", TRIALS, SEED);
		Random random = new Random(SEED);
		List<String> failures = new ArrayList<>();
		int killedCurrent = 0;
		int killedRestored = 0;
		for (int trial = 0; trial < TRIALS; trial++) {
			Source source = (trial % 2 == 0) ? toReftable : toFiles;
			long delay = (long) (random.nextDouble() * source.nanos() * 1.1);
			Path repo = dir.resolve("trial-" + trial);
			DirSnapshot.copy(source.dir(), repo);
			if (trial % 4 >= 2) {
				// half the trials on an old store: the swap's walks reuse the listings of
				// unchanged directories (StoreFiles.since), kept on disk for the rerun
				StoreFilesIT.age(repo.resolve(".git"));
			}
			Path backup = repo.resolve(".git").resolve(source.backup());
			Process process = start(repo, backup, dir.resolve("trial-" + trial + ".err"));
			process.waitFor(delay, TimeUnit.NANOSECONDS);
			process.destroyForcibly();
			waitFor(process);
			List<String> problems = new ArrayList<>();
			GitView now = GitView.captureQuickly(GIT, repo);
			boolean restored = false;
			if (now.format().equals(source.current().format()) && now.difference(source.current()) == null) {
				killedCurrent++;
			}
			else if (now.format().equals(source.restored().format()) && now.difference(source.restored()) == null) {
				killedRestored++;
				restored = true;
			}
			else {
				problems
					.add("git reads neither the current nor the restored state: " + now.difference(source.restored()));
			}
			String unsound = GitView.unsoundness(GIT, repo);
			if (unsound != null) {
				problems.add(unsound);
			}
			if (problems.isEmpty()) {
				try {
					MigrationRunner.rollback(repo, backup);
				}
				catch (MigrationException ex) {
					// a run killed after it had removed the backup left nothing to do:
					// that is finished, not failed
					if (!restored || Files.exists(backup)) {
						problems.add("the rerun failed (git read the " + (restored ? "restored" : "current")
								+ " state): " + ex.getMessage() + "; the killed run said: "
								+ Files.readString(dir.resolve("trial-" + trial + ".err")));
					}
				}
				catch (IOException | RuntimeException ex) {
					problems.add("the rerun failed: " + ex);
				}
			}
			if (problems.isEmpty()) {
				checkFinished(repo, backup, source, problems);
			}
			if (!problems.isEmpty()) {
				failures.add("trial " + trial + " (rollback to " + source.restoredFormat().configName()
						+ ", kill after " + delay / 1_000_000 + " ms): " + String.join("; ", problems));
			}
			FileMoves.deleteTree(repo);
		}
		System.out.printf("rollback kills: git read the current state after %d, the restored one after %d%n",
				killedCurrent, killedRestored);
		assertThat(failures).as("failed trials").isEmpty();
		assertThat(killedCurrent).as("kills before the switch").isPositive();
	}

	private static void checkFinished(Path repo, Path backup, Source source, List<String> problems) throws IOException {
		GitView now = GitView.captureQuickly(GIT, repo);
		if (!now.format().equals(source.restoredFormat().configName())) {
			problems.add("after the rerun the format is " + now.format());
		}
		if (now.difference(source.restored()) != null) {
			problems.add("after the rerun: " + now.difference(source.restored()));
		}
		Path gitDir = repo.resolve(".git");
		if (Files.exists(backup)) {
			problems.add("the restored backup is still there");
		}
		List<String> left = new ArrayList<>();
		try (Stream<Path> paths = Files.walk(gitDir)) {
			paths.map((path) -> gitDir.relativize(path).toString())
				.filter((name) -> name.endsWith(".lock") || name.contains(".refstore-tmp")
						|| name.startsWith(FormatMigrator.WORK_DIR) || name.contains(".restored-"))
				.forEach(left::add);
		}
		if (!left.isEmpty()) {
			problems.add("left behind: " + left);
		}
		try (Stream<Path> backups = Files.list(gitDir.resolve(FormatMigrator.BACKUP_DIR))) {
			long count = backups.count();
			if (count != 1) {
				problems.add(count + " backups instead of the one keeping the store rolled back from");
			}
		}
	}

	private static Process start(Path repo, Path backup, Path stderr) throws IOException {
		return MigrationRunner.refsProcess(repo, "rollback", backup.toString())
			.redirectOutput(Redirect.DISCARD)
			.redirectError(stderr.toFile())
			.start();
	}

	private static int waitFor(Process process) {
		return Processes.waitFor(process, "refstore refs rollback");
	}

}
