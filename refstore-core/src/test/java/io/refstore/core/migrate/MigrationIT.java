package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.migrate.MigrationRepos.Maker;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Migrations of repositories made by real gits, in both directions, through the API and
 * the command, judged by the reftable git (every listing identical before and after,
 * {@code fsck} and {@code refs verify} clean), by git 2.39 (a files repository it reads
 * as the newest git read the source) and by {@code git refs migrate} (its result lists
 * the same). Also dry runs, {@code --no-reflog}, refusals and rollback.
 *
 * <p>
 * Git's views are captured with all reflogs in one {@code log -g --stdin} run
 * ({@link GitView#captureQuickly}); one repository per maker and direction is also read
 * with one {@code reflog show} per log, which must show each log's entries as that run
 * does.
 */
class MigrationIT {

	private static final GitCli NEWEST = MigrationRepos.NEWEST;

	private static final GitCli GIT_2_39 = GitCli.system();

	private static final Pattern MIGRATED = Pattern
		.compile("migrated (\\d+) refs and (\\d+) reflog entries from (\\w+) to (\\w+) in [0-9.]+ s\n"
				+ "(?s).*old store kept at '([^']+)'\n");

	/** git's only line, with the git directory as git shows it from the working tree. */
	private static final Pattern DRY_RUN = Pattern
		.compile("Finished dry-run migration of refs, the result can be found at '\\.git/(ref_migration\\.\\w{6})'\n");

	static Stream<Arguments> repositories() {
		Stream.Builder<Arguments> all = Stream.builder();
		for (Maker maker : Maker.values()) {
			for (String objectFormat : new String[] { "sha1", "sha256" }) {
				for (boolean bare : new boolean[] { false, true }) {
					all.add(Arguments.of(maker, objectFormat, bare));
				}
			}
		}
		return all.build();
	}

	@ParameterizedTest(name = "{0} {1} bare={2}")
	@MethodSource("repositories")
	void migratesToTheOtherFormatAndBackAsGitSeesIt(Maker maker, String objectFormat, boolean bare, @TempDir Path dir)
			throws IOException {
		boolean sha256 = objectFormat.equals("sha256");
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), sha256, bare);
		Path twin = dir.resolve("twin");
		DirSnapshot.copy(repo.dir(), twin);
		Path twinGitDir = bare ? twin : twin.resolve(".git");
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		byte[] fetchHead = Files.readAllBytes(repo.gitDir().resolve("FETCH_HEAD"));
		RefFormat other = opposite(maker.format);
		NEWEST.ok(twin, "refs", "migrate", "--ref-format=" + other.configName());
		// git's own reflog files: the source's, or those of git's migration to files
		Path gitsLogs = ((maker.format == RefFormat.FILES) ? repo.gitDir() : twinGitDir).resolve("logs");
		Map<String, String> logsByGit = DirSnapshot.of(gitsLogs, Set.of());
		long refs = before.forEachRef().lines().count();
		long entries = DirSnapshot.lines(gitsLogs);
		boolean apiFirst = sha256 ^ bare;

		migrate(repo, other, apiFirst, refs, entries);
		GitView migrated = assertReadsAsBefore(repo, other, before, fetchHead);
		assertEachReflogShowsTheSame(repo, migrated, !sha256 && !bare);
		GitView twinView = GitView.captureQuickly(NEWEST, twin);
		assertThat(twinView.format()).isEqualTo(other.configName());
		assertThat(twinView.difference(migrated)).as("git refs migrate of a twin").isNull();
		if (other == RefFormat.FILES) {
			assertThat(DirSnapshot.of(repo.gitDir().resolve("logs"), Set.of())).as("reflog files").isEqualTo(logsByGit);
		}

		migrate(repo, maker.format, !apiFirst, refs, entries);
		GitView back = assertReadsAsBefore(repo, maker.format, before, fetchHead);
		assertEachReflogShowsTheSame(repo, back, !sha256 && !bare);
		if (maker.format == RefFormat.FILES) {
			assertThat(DirSnapshot.of(repo.gitDir().resolve("logs"), Set.of())).as("reflog files").isEqualTo(logsByGit);
		}
		assertGitWritesAndReadsBack(repo, maker);
	}

	@ParameterizedTest
	@EnumSource(names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void dryRunLeavesTheRepositoryUntouchedAndSaysWhereTheResultIs(Maker maker, @TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, false);
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		Map<String, String> untouched = DirSnapshot.of(repo.gitDir(), Set.of());
		RefFormat target = opposite(maker.format);

		GitCli.Result cli = MigrationRunner
			.refs(repo.dir(), "migrate", "--dry-run", "--ref-format=" + target.configName())
			.requireOk();
		Matcher said = DRY_RUN.matcher(cli.stdout());
		assertThat(said.matches()).as(cli.stdout()).isTrue();
		// where git 2.55 leaves a dry run's result: $GIT_DIR/ref_migration.XXXXXX
		Path result = repo.gitDir().resolve(said.group(1));
		assertThat(result).isDirectory();
		assertThat(repo.gitDir().resolve(FormatMigrator.WORK_DIR)).doesNotExist();
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of(result.getFileName().toString()))).isEqualTo(untouched);
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
		Path twin = dir.resolve("twin");
		DirSnapshot.copy(repo.dir(), twin);
		DryRunResults.swapIn(twin.resolve(".git"), result.getFileName().toString(), target, before);
		GitView swapped = GitView.captureQuickly(NEWEST, twin);
		assertThat(swapped.format()).isEqualTo(target.configName());
		assertThat(before.difference(swapped)).as("the dry run's result swapped in by hand").isNull();
		assertThat(GitView.unsoundness(NEWEST, twin)).isNull();

		MigrationReport report = MigrationRunner.migrate(repo.dir(), new MigrationOptions(target, true, true));
		assertThat(report.swapped()).isFalse();
		assertThat(report.backup()).isNull();
		assertThat(report.staged()).isDirectory().isNotEqualTo(result);
		assertThat(report.staged().getParent()).isEqualTo(repo.gitDir());
		assertThat(DirSnapshot.of(repo.gitDir(),
				Set.of(result.getFileName().toString(), report.staged().getFileName().toString())))
			.isEqualTo(untouched);
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
	}

	@ParameterizedTest
	@EnumSource(names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void noReflogDropsEveryReflogAndKeepsEveryRef(Maker maker, @TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, false);
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		assertThat(before.reflogs()).isNotEmpty();
		RefFormat target = opposite(maker.format);

		if (maker.format == RefFormat.FILES) {
			String out = MigrationRunner
				.refs(repo.dir(), "migrate", "-v", "--no-reflog", "--ref-format=" + target.configName())
				.requireOk()
				.stdout();
			assertThat(out).contains(" refs and 0 reflog entries from files to reftable");
		}
		else {
			MigrationReport report = MigrationRunner.migrate(repo.dir(), new MigrationOptions(target, false, false));
			assertThat(report.logEntries()).isZero();
		}

		GitView after = GitView.captureQuickly(NEWEST, repo.dir());
		assertThat(after.format()).isEqualTo(target.configName());
		assertThat(after.forEachRef()).isEqualTo(before.forEachRef());
		assertThat(after.showRef()).isEqualTo(before.showRef());
		assertThat(after.lsRemote()).isEqualTo(before.lsRemote());
		assertThat(after.reflogList()).isEmpty();
		assertThat(after.reflogs()).isEmpty();
		assertThat(GitView.unsoundness(NEWEST, repo.dir())).isNull();
	}

	@Test
	void refusesTheFormatInUseAndChangesNothing(@TempDir Path dir) throws IOException {
		TempRepo files = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("files"), false, false);
		assertCliRefusal(files, "error: repository already uses 'files' format", "migrate", "--ref-format=files");
		TempRepo reftable = MigrationRepos.create(Maker.NEWEST_REFTABLE, dir.resolve("reftable"), false, true);
		assertApiRefusal(reftable, MigrationOptions.to(RefFormat.REFTABLE),
				"repository already uses 'reftable' format");
	}

	@Test
	void refusesAnUnknownFormatAndChangesNothing(@TempDir Path dir) {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		assertCliRefusal(repo, "error: unknown ref storage format 'fancy'", "migrate", "--ref-format=fancy");
		assertCliRefusal(repo, "error: unknown ref storage format 'REFTABLE'", "migrate", "--ref-format=REFTABLE");
	}

	@Test
	void refusesARepositoryWithWorktreesAndChangesNothing(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		repo.git("worktree", "add", "-q", dir.resolve("linked").toString(), "feature");
		String message = "migrating repositories with worktrees is not supported yet";

		assertCliRefusal(repo, "error: " + message, "migrate", "--ref-format=reftable");
		assertApiRefusal(repo, MigrationOptions.to(RefFormat.REFTABLE), message);
		Map<String, String> state = DirSnapshot.of(repo.gitDir(), Set.of());
		GitCli.Result fromLinked = MigrationRunner.refs(dir.resolve("linked"), "migrate", "--ref-format=reftable");
		assertThat(fromLinked.exitCode()).isEqualTo(255);
		assertThat(fromLinked.stderr()).isEqualTo("error: " + message + "\n");
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of())).isEqualTo(state);
	}

	@Test
	void refusesALockedStoreNamingTheLockAndChangesNothing(@TempDir Path dir) throws IOException {
		TempRepo files = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("files"), false, false);
		Path packedLock = Files.createFile(files.gitDir().resolve("packed-refs.lock"));
		assertCliRefusal(files,
				"error: the ref store is locked by another process: '" + packedLock + "' exists; if no"
						+ " git or refstore process is working in this repository, remove it (rm '" + packedLock
						+ "') and run again",
				"migrate", "--ref-format=reftable");

		TempRepo reftable = MigrationRepos.create(Maker.NEWEST_REFTABLE, dir.resolve("reftable"), false, false);
		Path stackLock = Files.createFile(reftable.gitDir().resolve("reftable/tables.list.lock"));
		assertApiRefusal(reftable, MigrationOptions.to(RefFormat.FILES),
				"the ref store is locked by another process: '" + stackLock + "' exists; if no git or refstore process"
						+ " is working in this repository, remove it (rm '" + stackLock + "') and run again");
	}

	@Test
	void aLooseRefLockedByAWriterStopsTheSwapNamingTheLockAndChangesNothing(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		Path lock = Files.createFile(repo.gitDir().resolve("refs/heads/loose-after.lock"));
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		Map<String, String> state = DirSnapshot.of(repo.gitDir(), Set.of());

		GitCli.Result result = MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=reftable");

		assertThat(result.exitCode()).isNotZero();
		assertThat(result.stderr()).contains(lock.toString());
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of())).isEqualTo(state);
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
	}

	@ParameterizedTest
	@EnumSource(names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void rollbackRestoresTheOldStoreExactly(Maker maker, @TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, false);
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		Map<String, String> store = DirSnapshot.of(repo.gitDir(), Set.of("config"));
		List<String> config = localConfig(repo);
		MigrationReport migration = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(opposite(maker.format)));

		if (maker.format == RefFormat.FILES) {
			MigrationRunner.refs(repo.dir(), "rollback", migration.backup().toString()).requireOk();
		}
		else {
			MigrationReport rollback = MigrationRunner.rollback(repo.dir(), migration.backup());
			assertThat(rollback.to()).isEqualTo(maker.format);
			assertThat(rollback.backup()).isDirectory();
		}

		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
		// the backup recorded the repository's identity, which stays
		assertThat(repo.gitDir().resolve(RepositoryId.FILE)).isRegularFile();
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of("config", FormatMigrator.BACKUP_DIR, RepositoryId.FILE)))
			.isEqualTo(store);
		assertThat(localConfig(repo)).isEqualTo(config);
		assertThat(migration.backup()).doesNotExist();
		assertThat(GitView.unsoundness(NEWEST, repo.dir())).isNull();
	}

	@ParameterizedTest
	@EnumSource(names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void rollbackKeepsWhatWasWrittenSinceTheMigration(Maker maker, @TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, false);
		MigrationReport migration = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(opposite(maker.format)));
		repo.git("update-ref", "-m", "made after the migration", "refs/heads/after-migration", "main");
		repo.git("update-ref", "-m", "moved after the migration", "refs/remotes/origin/main", "main");
		repo.git("update-ref", "-d", "refs/heads/feature");
		GitView written = GitView.captureQuickly(NEWEST, repo.dir());

		MigrationReport rollback = MigrationRunner.rollback(repo.dir(), migration.backup());

		assertThat(rollback.to()).isEqualTo(maker.format);
		assertThat(rollback.carried()).as("the refs kept from after the migration")
			.containsExactly("refs/heads/after-migration", "refs/heads/feature", "refs/remotes/origin/main");
		GitView restored = GitView.captureQuickly(NEWEST, repo.dir());
		assertThat(restored.format()).isEqualTo(maker.format.configName());
		assertThat(restored).isEqualTo(new GitView(restored.format(), written.forEachRef(), written.showRef(),
				written.lsRemote(), written.reflogList(), written.reflogs()));
		assertThat(GitView.unsoundness(NEWEST, repo.dir())).isNull();
	}

	/**
	 * A rollback keeps the store it retires as a backup whose record it took from its own
	 * read of that store, not from a second read under the swap's locks: the record must
	 * be exactly what the backup reads as (its refs, root refs and logs), or a rollback
	 * to it is refused.
	 */
	@ParameterizedTest
	@EnumSource(names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void aRollbacksBackupRecordsTheStoreItRetired(Maker maker, @TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, true);
		RefFormat other = opposite(maker.format);
		MigrationReport migration = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(other));
		repo.git("update-ref", "-m", "made after the migration", "refs/heads/after-migration", "main");
		repo.git("update-ref", "-d", "refs/heads/feature");
		GitView migrated = GitView.captureQuickly(NEWEST, repo.dir());

		MigrationReport rollback = MigrationRunner.rollback(repo.dir(), migration.backup());

		BackupRecord recorded = BackupRecord.readRecorded(rollback.backup());
		try (Repository repository = Repository.open(repo.dir())) {
			assertThat(recorded).isEqualTo(BackupRecord.read(repository, other, rollback.backup()));
		}
		assertThat(recorded.logEntries()).isPositive();
		MigrationReport back = MigrationRunner.rollback(repo.dir(), rollback.backup());
		assertThat(back.to()).isEqualTo(other);
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(migrated);
		assertThat(GitView.unsoundness(NEWEST, repo.dir())).isNull();
	}

	/**
	 * The views compared here read all reflogs in one {@code log -g --stdin}, which shows
	 * the entries of all logs merged newest first: in {@code checked} repositories (one
	 * per maker, in both directions) every log is also shown with its own
	 * {@code reflog show <ref>}, as a user looks at it, and must list the same entries in
	 * the same order as the merged view lists that log's.
	 */
	private static void assertEachReflogShowsTheSame(TempRepo repo, GitView quick, boolean checked) {
		if (!checked) {
			return;
		}
		List<String> logs = new ArrayList<>(List.of("HEAD"));
		quick.reflogList().lines().filter((name) -> !name.equals("HEAD")).forEach(logs::add);
		List<String> entries = quick.reflogs().lines().toList();
		StringBuilder byLog = new StringBuilder();
		for (String log : logs) {
			entries.stream()
				.filter((entry) -> entry.startsWith(log + "@{"))
				.forEach((entry) -> byLog.append(entry).append('\n'));
		}
		assertThat(byLog.length()).as("every entry belongs to a listed log").isEqualTo(quick.reflogs().length());
		assertThat(GitView.capture(NEWEST, repo.dir())).as("one reflog show per log")
			.isEqualTo(new GitView(quick.format(), quick.forEachRef(), quick.showRef(), quick.lsRemote(),
					quick.reflogList(), byLog.toString()));
	}

	/**
	 * The repository's own settings, sorted: a rewritten file may order its sections
	 * differently.
	 */
	private static List<String> localConfig(TempRepo repo) {
		return NEWEST.ok(repo.dir(), "config", "--local", "--list").lines().sorted().toList();
	}

	private static RefFormat opposite(RefFormat format) {
		return (format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
	}

	/**
	 * Migrates through the API or the command and checks the counts it reports against
	 * git's: the refs for-each-ref lists with root refs, and the lines of git's reflog
	 * files.
	 */
	private static void migrate(TempRepo repo, RefFormat target, boolean api, long refs, long entries)
			throws IOException {
		if (api) {
			MigrationReport report = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(target));
			assertThat(report.swapped()).isTrue();
			assertThat(report.to()).isEqualTo(target);
			assertThat(report.refs()).as("refs migrated").isEqualTo(refs);
			assertThat(report.logEntries()).as("reflog entries migrated").isEqualTo(entries);
			assertThat(report.targetDigest()).isEqualTo(report.sourceDigest());
			assertThat(report.backup()).isDirectory();
		}
		else {
			// git's command prints nothing; -v reports
			String out = MigrationRunner.refs(repo.dir(), "migrate", "--verbose", "--ref-format=" + target.configName())
				.requireOk()
				.stdout();
			Matcher said = MIGRATED.matcher(out);
			assertThat(said.matches()).as(out).isTrue();
			assertThat(Long.parseLong(said.group(1))).as("refs migrated").isEqualTo(refs);
			assertThat(Long.parseLong(said.group(2))).as("reflog entries migrated").isEqualTo(entries);
			assertThat(said.group(4)).isEqualTo(target.configName());
			assertThat(Path.of(said.group(5))).isDirectory();
		}
	}

	/**
	 * The reftable git lists everything as before and finds the repository sound,
	 * {@code FETCH_HEAD} is the same file, and a files repository reads the same to git
	 * 2.39.
	 */
	private static GitView assertReadsAsBefore(TempRepo repo, RefFormat format, GitView before, byte[] fetchHead)
			throws IOException {
		GitView now = GitView.captureQuickly(NEWEST, repo.dir());
		assertThat(now.format()).isEqualTo(format.configName());
		assertThat(before.difference(now)).isNull();
		assertThat(GitView.unsoundness(NEWEST, repo.dir())).isNull();
		Path fetchHeadFile = repo.gitDir().resolve("FETCH_HEAD");
		assertThat(Files.isRegularFile(fetchHeadFile, LinkOption.NOFOLLOW_LINKS)).isTrue();
		assertThat(Files.readAllBytes(fetchHeadFile)).isEqualTo(fetchHead);
		if (format == RefFormat.FILES) {
			assertThat(GitView.showRefs(GIT_2_39, repo.dir())).isEqualTo(before.showRef());
			assertThat(GitView.lsRemote(GIT_2_39, repo.dir())).isEqualTo(before.lsRemote());
			GIT_2_39.ok(repo.dir(), "fsck", "--no-progress");
		}
		return now;
	}

	/**
	 * The git that made the repository goes on using it: a new ref with a log, read back
	 * by every git.
	 */
	private static void assertGitWritesAndReadsBack(TempRepo repo, Maker maker) {
		maker.git.ok(repo.dir(), "update-ref", "-m", "written after the migrations", "refs/heads/written-after",
				"main");
		String main = NEWEST.ok(repo.dir(), "rev-parse", "main");
		assertThat(NEWEST.ok(repo.dir(), "rev-parse", "refs/heads/written-after")).isEqualTo(main);
		assertThat(NEWEST.ok(repo.dir(), "reflog", "show", "--format=%gs", "refs/heads/written-after"))
			.isEqualTo("written after the migrations\n");
		if (maker.format == RefFormat.FILES) {
			assertThat(GIT_2_39.ok(repo.dir(), "rev-parse", "refs/heads/written-after")).isEqualTo(main);
		}
		assertThat(GitView.unsoundness(NEWEST, repo.dir())).isNull();
	}

	private static void assertCliRefusal(TempRepo repo, String stderr, String... args) {
		Map<String, String> state = DirSnapshot.of(repo.gitDir(), Set.of());
		GitCli.Result result = MigrationRunner.refs(repo.dir(), args);
		assertThat(result.exitCode()).isEqualTo(255);
		assertThat(result.stderr()).isEqualTo(stderr + "\n");
		assertThat(result.stdout()).isEmpty();
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of())).isEqualTo(state);
	}

	private static void assertApiRefusal(TempRepo repo, MigrationOptions options, String message) {
		Map<String, String> state = DirSnapshot.of(repo.gitDir(), Set.of());
		assertThatThrownBy(() -> MigrationRunner.migrate(repo.dir(), options)).isInstanceOf(MigrationException.class)
			.hasMessage(message);
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of())).isEqualTo(state);
	}

}
