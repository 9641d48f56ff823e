package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.files.FilesLayout;
import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.reftable.ReftableLayout;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore refs rollback <backup>} right after a {@code refs migrate} was killed
 * (SIGKILL, {@link KillAtStep}) at a chosen step of its swap, in both directions: before
 * the configuration switch, after it while the old store was being retired into its
 * backup, before the backup's record was written, and with only the work directory left
 * to remove. The rollback must finish the killed migration and then roll back (or, before
 * the switch, simply roll back): git 2.55 reads exactly the refs and reflogs of before
 * the kill, in the backup's format, the restored backup is gone, every other backup is
 * there byte for byte (the killed run's with the whole old store), the store rolled back
 * from is kept in exactly one new backup, nothing is left behind, and every backup the
 * command's output says is kept exists.
 * <p>
 * Each repository was migrated twice by refstore (keeping a backup in each format) with a
 * git write after each, so every backup differs from the current refs.
 */
class RollbackAfterKilledMigrationIT {

	private static final GitCli GIT = MigrationRepos.NEWEST;

	private static final int REFS = 600;

	private static final Pattern KEPT_AT = Pattern.compile("kept at '([^']+)'");

	@TempDir
	static Path dir;

	private static Source files;

	private static Source reftable;

	/**
	 * A repository in {@code format} to copy for each case, with the backups of its two
	 * migrations and what git reads in it.
	 *
	 * @param oldest the backup of the first migration, of a {@code format} store
	 * @param previous the backup of the second, of the other format
	 */
	private record Source(RefFormat format, Path dir, String oldest, String previous, GitView current,
			Map<String, String> store) {

		RefFormat other() {
			return (this.format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		}

	}

	/** Where the migration is killed. */
	enum Step {

		/** Store locked and the new store staged, no journal yet. */
		LOCKED(false),

		/** Journal written, configuration not switched. */
		STAGED(false),

		/**
		 * Switched; the old store half moved into its backup (files: {@code packed-refs}
		 * moved, its lock and the loose refs not; reftable: the stack moved, its lock not
		 * removed).
		 */
		RETIRING(true),

		/** Switched and retired, the backup's record not written. */
		RECORDING(true),

		/** Swap complete, the work directory with its journal not removed. */
		CLEANING(true);

		final boolean switched;

		Step(boolean switched) {
			this.switched = switched;
		}

		KillAtStep in(RefFormat source) {
			return switch (this) {
				case LOCKED -> KillAtStep.entering(Journal.class, "write").calledFrom(Swap.class, "run");
				case STAGED -> KillAtStep.entering(Swap.class, "switchConfig");
				case RETIRING -> (source == RefFormat.FILES)
						? KillAtStep.entering(FileMoves.class, "move").calledFrom(FilesLayout.class, "retire").time(2)
						: KillAtStep.entering(FileMoves.class, "deleteLocks")
							.calledFrom(ReftableLayout.class, "retire");
				case RECORDING ->
					KillAtStep.entering(BackupRecord.class, "write").calledFrom(Swap.class, "retireAndCarry");
				case CLEANING ->
					KillAtStep.entering(WorkDir.class, "delete").calledFrom(FormatMigrator.class, "migrate");
			};
		}

	}

	/** The backup the rollback is asked for. */
	enum Target {

		/** The one the killed migration made (so it exists only after the switch). */
		KILLED_RUNS,

		/** The older one of the source's format. */
		OLDEST,

		/** The one of the other format, which the killed migration was going to. */
		PREVIOUS

	}

	record Case(RefFormat format, Step step, Target target) {

		@Override
		public String toString() {
			return this.format.configName() + " migration killed at " + this.step + ", rollback to " + this.target;
		}

	}

	static List<Case> cases() {
		List<Case> cases = new ArrayList<>();
		for (RefFormat format : RefFormat.values()) {
			for (Step step : Step.values()) {
				if (step.switched) {
					cases.add(new Case(format, step, Target.KILLED_RUNS));
					cases.add(new Case(format, step, Target.OLDEST));
				}
				else {
					cases.add(new Case(format, step, Target.PREVIOUS));
				}
			}
		}
		return cases;
	}

	@BeforeAll
	static void prepareBothFormats() throws IOException {
		files = prepare(RefFormat.FILES);
		reftable = prepare(RefFormat.REFTABLE);
	}

	private static Source prepare(RefFormat format) throws IOException {
		TempRepo repo = MigrationRepos.createLarge(dir.resolve(format.configName()), REFS);
		if (format == RefFormat.REFTABLE) {
			GIT.ok(repo.dir(), "refs", "migrate", "--ref-format=reftable");
		}
		RefFormat other = (format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		MigrationReport first = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(other));
		GIT.ok(repo.dir(), "update-ref", "-m", "since the first migration", "refs/heads/after-first", "HEAD");
		MigrationReport second = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(format));
		GIT.ok(repo.dir(), "update-ref", "-m", "since the second migration", "refs/heads/after-second", "HEAD~1");
		GIT.ok(repo.dir(), "update-ref", "-m", "moved since", "refs/heads/feature", "HEAD");
		GIT.ok(repo.dir(), "update-ref", "-d", "refs/tags/light");
		GitView current = GitView.captureQuickly(GIT, repo.dir());
		assertThat(current.format()).isEqualTo(format.configName());
		return new Source(format, repo.dir(), first.backup().getFileName().toString(),
				second.backup().getFileName().toString(), current, storeOf(repo.gitDir(), format));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void rollbackAfterAKilledMigrationRestoresTheBackupAndKeepsEveryOther(Case test) throws Exception {
		Source source = (test.format() == RefFormat.FILES) ? files : reftable;
		Path repo = dir.resolve("case-" + test.format().configName() + "-" + test.step() + "-" + test.target());
		DirSnapshot.copy(source.dir(), repo);
		Path gitDir = repo.resolve(".git");
		Path backups = gitDir.resolve(FormatMigrator.BACKUP_DIR);
		Map<String, Map<String, String>> before = new TreeMap<>();
		for (String name : List.of(source.oldest(), source.previous())) {
			before.put(name, DirSnapshot.of(backups.resolve(name), Set.of()));
		}

		test.step()
			.in(test.format())
			.kill(repo, dir.resolve(repo.getFileName() + ".err"), "migrate",
					"--ref-format=" + source.other().configName());

		assertThat(MigrationRunner.format(gitDir)).as("the format after the kill")
			.isEqualTo(test.step().switched ? source.other() : source.format());
		assertThat(gitDir.resolve(FormatMigrator.WORK_DIR).resolve(Journal.FILE)).as("the journal")
			.matches((journal) -> Files.exists(journal) == (test.step() != Step.LOCKED));
		Set<String> made = names(backups);
		made.removeAll(before.keySet());
		assertThat(made).as("backups made by the killed run").hasSize(test.step().switched ? 1 : 0);
		String killedRuns = made.isEmpty() ? null : made.iterator().next();
		String restored = switch (test.target()) {
			case KILLED_RUNS -> killedRuns;
			case OLDEST -> source.oldest();
			case PREVIOUS -> source.previous();
		};
		RefFormat restoredFormat = (test.target() == Target.PREVIOUS) ? source.other() : source.format();
		RefFormat rolledBackFrom = (restoredFormat == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;

		GitCli.Result rollback = MigrationRunner.refs(repo, "rollback", restored);

		assertThat(rollback.exitCode()).as("exit code; stderr: %s", rollback.stderr()).isZero();
		assertThat(rollback.stderr()).isEmpty();
		GitView now = GitView.captureQuickly(GIT, repo);
		assertThat(now.format()).as("format after the rollback").isEqualTo(restoredFormat.configName());
		assertThat(source.current().difference(now)).as("refs and reflogs after the rollback").isNull();
		assertThat(GitView.unsoundness(GIT, repo)).isNull();
		assertThat(leftovers(gitDir)).as("left behind").isEmpty();
		Set<String> after = names(backups);
		assertThat(after).as("the restored backup").doesNotContain(restored);
		for (Map.Entry<String, Map<String, String>> kept : before.entrySet()) {
			if (!kept.getKey().equals(restored)) {
				assertThat(DirSnapshot.of(backups.resolve(kept.getKey()), Set.of()))
					.as("backup %s, byte for byte", kept.getKey())
					.isEqualTo(kept.getValue());
			}
		}
		if (killedRuns != null && !killedRuns.equals(restored)) {
			assertThat(storeOf(backups.resolve(killedRuns), source.format()))
				.as("the killed run's backup holds the old store, byte for byte")
				.isEqualTo(source.store());
			assertThat(MigrationRunner.refs(repo, "backups").requireOk().stdout())
				.as("the killed run's backup has its record")
				.containsPattern("(?m)^" + killedRuns + " " + source.format().configName() + " [0-9]+ [0-9]+ [0-9]+$");
		}
		Set<String> expected = new TreeSet<>(before.keySet());
		if (killedRuns != null) {
			expected.add(killedRuns);
		}
		expected.remove(restored);
		Set<String> madeByRollback = new TreeSet<>(after);
		madeByRollback.removeAll(expected);
		assertThat(madeByRollback).as("backups made by the rollback").hasSize(1);
		assertThat(madeByRollback.iterator().next()).endsWith("-" + rolledBackFrom.configName());
		if (test.step().switched) {
			assertThat(rollback.stdout()).as("the rollback's report")
				.startsWith("finished first the migration from " + source.format().configName() + " to "
						+ source.other().configName() + " that a killed run had begun; ");
		}
		Matcher kept = KEPT_AT.matcher(rollback.stdout());
		while (kept.find()) {
			assertThat(Path.of(kept.group(1))).as("a backup the output says is kept: %s", rollback.stdout())
				.isDirectory();
		}
	}

	/**
	 * A rollback to a backup of the format the killed migration switched to is refused,
	 * saying how to finish the migration, and keeps every backup; doing what it says
	 * finishes the migration.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("formats")
	void rollbackToTheFormatAKilledMigrationSwitchedToIsRefusedAndSaysHowToFinish(RefFormat format) throws Exception {
		Source source = (format == RefFormat.FILES) ? files : reftable;
		Path repo = dir.resolve("refused-" + format.configName());
		DirSnapshot.copy(source.dir(), repo);
		Path backups = repo.resolve(".git").resolve(FormatMigrator.BACKUP_DIR);
		Step.RETIRING.in(format)
			.kill(repo, dir.resolve(repo.getFileName() + ".err"), "migrate",
					"--ref-format=" + source.other().configName());
		Map<String, String> kept = DirSnapshot.of(backups, Set.of());

		GitCli.Result rollback = MigrationRunner.refs(repo, "rollback", source.previous());

		String finish = "refstore refs migrate --ref-format=" + source.other().configName();
		assertThat(rollback.exitCode()).isNotZero();
		assertThat(rollback.stdout()).isEmpty();
		assertThat(rollback.stderr()).startsWith("error: the backup at '")
			.contains("holds a " + source.other().configName() + " store")
			.contains("migration from " + format.configName() + " to " + source.other().configName())
			.contains("run '" + finish + "' to finish it")
			.doesNotContain("Exception");
		assertThat(DirSnapshot.of(backups, Set.of())).as("every backup, byte for byte").isEqualTo(kept);
		MigrationRunner.refs(repo, "migrate", "--ref-format=" + source.other().configName()).requireOk();
		GitView now = GitView.captureQuickly(GIT, repo);
		assertThat(now.format()).isEqualTo(source.other().configName());
		assertThat(source.current().difference(now)).isNull();
		assertThat(leftovers(repo.resolve(".git"))).isEmpty();
		assertThat(names(backups)).contains(source.oldest(), source.previous()).hasSize(3);
	}

	static List<RefFormat> formats() {
		return List.of(RefFormat.values());
	}

	private static Set<String> names(Path backups) throws IOException {
		Set<String> names = new TreeSet<>();
		if (Files.isDirectory(backups)) {
			try (Stream<Path> children = Files.list(backups)) {
				children.map((child) -> child.getFileName().toString()).forEach(names::add);
			}
		}
		return names;
	}

	/** The files of a store of {@code format} below {@code root}, with their content. */
	private static Map<String, String> storeOf(Path root, RefFormat format) {
		Set<String> entries = (format == RefFormat.FILES)
				? Set.of("packed-refs", "refs", "logs", "HEAD", "ORIG_HEAD", "CHERRY_PICK_HEAD") : Set.of("reftable");
		Map<String, String> all = DirSnapshot.of(root, Set.of());
		all.keySet().removeIf((path) -> !entries.contains(path.split("/")[0]));
		return all;
	}

	private static List<String> leftovers(Path gitDir) throws IOException {
		List<String> found = new ArrayList<>();
		try (Stream<Path> paths = Files.walk(gitDir)) {
			paths.map((path) -> gitDir.relativize(path).toString())
				.filter((name) -> name.endsWith(".lock") || name.contains(".refstore-tmp")
						|| name.startsWith(FormatMigrator.WORK_DIR) || name.contains(".restored-"))
				.forEach(found::add);
		}
		return found;
	}

}
