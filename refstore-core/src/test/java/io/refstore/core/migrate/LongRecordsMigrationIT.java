package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Records at the limits of what git accepts migrate both ways as git's own
 * {@code refs migrate} migrates them: a reflog message of 900 KB (a reftable keeps half a
 * block of it, cut as bytes, and a cut that ends in a space loses it on the way back to
 * files), and ref names of 4,000 bytes (in components the file system takes) or with a
 * 300-byte component (a packed ref only); a log record no block can hold is refused as
 * git refuses it, the repository unchanged. Each step is judged against a twin migrated
 * by the reftable git: the same listings and reflogs, and {@code fsck} and
 * {@code refs verify} clean. Through {@link FormatMigrator} and through the phases of a
 * {@link StagedMigration}, for both object formats.
 */
class LongRecordsMigrationIT {

	private static final GitCli NEWEST = MigrationRepos.NEWEST;

	/**
	 * A short identity: a log record of a 4,000-byte name has about 20 bytes to spare in
	 * a 4 KiB block.
	 */
	private static final GitCli TERSE = NEWEST.withEnv("GIT_COMMITTER_NAME", "A").withEnv("GIT_COMMITTER_EMAIL", "a@b");

	/** How the migration under test is run. */
	enum Runner {

		API, STAGED;

		void migrate(Path dir, RefFormat target) throws IOException {
			if (this == API) {
				MigrationRunner.migrate(dir, MigrationOptions.to(target));
				return;
			}
			MigrationOptions options = MigrationOptions.to(target);
			try (Repository repository = Repository.open(dir, MigrationRunner.ENV);
					StagedMigration migration = StagedMigration.open(repository, options, "job-long")) {
				CopyProgress next = migration.copyRefs(CopyProgress.START, 2);
				while (!next.done()) {
					next = migration.copyRefs(next, 2);
				}
				migration.copyReflogs();
				assertThat(migration.verify()).isEqualTo(migration.assemble());
				migration.swap();
			}
		}

	}

	static Stream<Arguments> runs() {
		List<Arguments> all = new ArrayList<>();
		for (RefFormat format : RefFormat.values()) {
			for (boolean sha256 : new boolean[] { false, true }) {
				for (Runner runner : Runner.values()) {
					all.add(Arguments.of(format, sha256, runner));
				}
			}
		}
		return all.stream();
	}

	@ParameterizedTest(name = "from {0} sha256={1} {2}")
	@MethodSource("runs")
	void aReflogMessageOf900KbMigratesBothWaysAsGitMigratesIt(RefFormat format, boolean sha256, Runner runner,
			@TempDir Path dir) throws IOException {
		TempRepo repo = init(dir.resolve("repo"), format, sha256);
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		Path message = dir.resolve("message");
		// a commit's subject is its reflog message: the way to a message longer than an
		// argument may be
		Files.writeString(message, "m".repeat(900_000) + "\n\nbody\n", StandardCharsets.US_ASCII);
		repo.git("commit", "-q", "--allow-empty", "-F", message.toString());
		// half a block (2048 bytes) of this ends in the space before "x"
		repo.git("update-ref", "-m", "c".repeat(2047) + " x", "refs/heads/cut", "HEAD");
		repo.git("update-ref", "-m", "w".repeat(100_000), "refs/heads/wide", "HEAD~1");
		repo.git("update-ref", "-m", "w".repeat(100_001), "refs/heads/wide", "HEAD");

		List<GitView> views = assertMigratesBothWaysAsGit(repo, dir, runner);
		if (format == RefFormat.FILES) {
			// in the files format git keeps the whole message
			assertThat(views.get(0).reflogs()).contains("commit: " + "m".repeat(900_000) + "\n");
		}
		int reftable = (format == RefFormat.FILES) ? 1 : 0;
		// git's reftable keeps the first 2048 bytes, the space included; its files format
		// drops the space
		assertThat(views.get(reftable).reflogs()).contains(" commit: " + "m".repeat(2048 - 8) + "\n")
			.contains(" " + "c".repeat(2047) + " \n");
		assertThat(views.get(reftable + 1).reflogs()).contains(" " + "c".repeat(2047) + "\n");
	}

	@ParameterizedTest(name = "from {0} sha256={1} {2}")
	@MethodSource("runs")
	void refNamesOf4000BytesMigrateBothWaysAsGitMigratesThem(RefFormat format, boolean sha256, Runner runner,
			@TempDir(factory = ShortTempDir.class) Path dir) throws IOException {
		TempRepo repo = init(dir.resolve("repo"), format, sha256);
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		String branch = longName("refs/heads", 4000);
		if (sha256) {
			// 32-byte ids leave no room in a 4 KiB block for the log record of such a
			// name: git has none either
			repo.git("-c", "core.logAllRefUpdates=false", "update-ref", branch, "HEAD");
		}
		else {
			TERSE.ok(repo.dir(), "update-ref", "-m", "long one", branch, "HEAD");
		}
		String tag = longName("refs/tags", 4000);
		if (sha256) {
			// with 32-byte ids, value and peeled value of such a name do not fit the
			// first block of a table
			repo.git("update-ref", tag, "HEAD");
		}
		else {
			repo.git("tag", "-a", "-m", "tag of a long name", tag.substring("refs/tags/".length()));
		}
		repo.git("symbolic-ref", "refs/alias/long", branch);
		if (format == RefFormat.REFTABLE) {
			// a packed ref needs no file of its own: git migrates it to files although no
			// loose file could hold it
			repo.git("update-ref", "refs/tags/" + "t".repeat(300), "HEAD");
		}

		List<GitView> views = assertMigratesBothWaysAsGit(repo, dir, runner);
		assertThat(views.get(0).forEachRef()).contains(branch + " ");
		assertThat(views.get(0).difference(views.get(2))).as("round trip").isNull();
	}

	/**
	 * A loose ref and its reflog whose paths fit, in a repository so deep that they would
	 * not fit in the backup directory (42 bytes deeper): refused before anything changes,
	 * naming the file. Retired into the backup they could be neither walked for stale
	 * locks nor checked for a write to carry, and the swap could never finish (it stopped
	 * after the switch, and every rerun stopped there again).
	 */
	@ParameterizedTest
	@EnumSource(Runner.class)
	void aFilesStoreWithAFileTooDeepForItsBackupIsRefusedUnchanged(Runner runner,
			@TempDir(factory = ShortTempDir.class) Path dir) throws IOException {
		String branch = longName("refs/heads", 3900);
		// the repository's path such that its reflog's path is 4,080 of the 4,095 bytes
		// a path may have
		int room = 4080 - "/repo/.git/logs/".length() - branch.length() - dir.toString().length();
		Path deep = dir;
		while (room > 1) {
			int name = Math.min(200, room - 1);
			deep = deep.resolve("d".repeat(name));
			room -= name + 1;
		}
		TempRepo repo = init(deep.resolve("repo"), RefFormat.FILES, false);
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		TERSE.ok(repo.dir(), "update-ref", "-m", "long one", branch, "HEAD");
		assertThat(repo.gitDir().resolve("logs").resolve(branch).toString()).hasSizeBetween(4075, 4085);
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		Map<String, String> state = DirSnapshot.of(repo.gitDir(), Set.of(FormatMigrator.WORK_DIR));

		assertThatThrownBy(() -> runner.migrate(repo.dir(), RefFormat.REFTABLE))
			.hasMessageStartingWith("the files store cannot be kept as a backup: the path of its file 'logs/" + branch
					+ "' in refstore-backup/")
			.hasMessageEndingWith(
					"and a path may have 4095; nothing was changed: migrate the repository at a shorter path");
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of(FormatMigrator.WORK_DIR))).isEqualTo(state);
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
		assertThat(repo.gitDir().resolve(FormatMigrator.BACKUP_DIR)).doesNotExist();
	}

	@ParameterizedTest
	@EnumSource(Runner.class)
	void aLogRecordNoBlockHoldsIsRefusedAsGitRefusesItNamingItsRef(Runner runner, @TempDir Path dir)
			throws IOException {
		TempRepo repo = init(dir.resolve("repo"), RefFormat.FILES, true);
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		String branch = longName("refs/heads", 4000);
		// with 32-byte ids the log record of a 4,000-byte name does not fit in a 4 KiB
		// block
		TERSE.ok(repo.dir(), "update-ref", "-m", "long one", branch, "HEAD");
		Path twin = dir.resolve("twin");
		DirSnapshot.copy(repo.dir(), twin);
		GitCli.Result gits = NEWEST.run(twin, "refs", "migrate", "--ref-format=reftable");
		assertThat(gits.exitCode()).isNotZero();
		assertThat(gits.stderr()).contains("entry too large");
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		Map<String, String> state = DirSnapshot.of(repo.gitDir(), Set.of(FormatMigrator.WORK_DIR));

		assertThatThrownBy(() -> runner.migrate(repo.dir(), RefFormat.REFTABLE))
			.hasMessageStartingWith("log of " + branch + " at update index 1 does not fit in a block of 4096 bytes");
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of(FormatMigrator.WORK_DIR))).isEqualTo(state);
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
	}

	private static TempRepo init(Path dir, RefFormat format, boolean sha256) {
		List<String> options = new ArrayList<>(List.of("--ref-format=" + format.configName()));
		if (sha256) {
			options.add("--object-format=sha256");
		}
		TempRepo repo = TempRepo.init(NEWEST, dir, options.toArray(String[]::new));
		repo.git("config", "maintenance.auto", "false");
		repo.git("config", "gc.auto", "0");
		return repo;
	}

	/**
	 * Temporary directories under {@code /tmp}, whatever {@code java.io.tmpdir} is: a
	 * loose ref of 4,000 bytes leaves about 50 of the 4,096 bytes a path may have for the
	 * repository's own path and the migration's backup directory in it (the backup of a
	 * files store holds the same file 41 bytes deeper), so the test must not depend on
	 * how deep the build puts its temporary files.
	 */
	static final class ShortTempDir implements TempDirFactory {

		@Override
		public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext extension)
				throws IOException {
			return Files.createTempDirectory(Path.of("/tmp"), "long");
		}

	}

	/**
	 * A name of exactly {@code length} bytes: {@code prefix} and components of 250 bytes
	 * at most.
	 */
	private static String longName(String prefix, int length) {
		StringBuilder name = new StringBuilder(prefix);
		for (int i = 0; name.length() < length; i++) {
			name.append('/').append(String.format("%02d", i));
			name.append("x".repeat(Math.min(248, length - name.length())));
		}
		assertThat(name).hasSize(length);
		return name.toString();
	}

	/**
	 * Migrates the repository to the other format and back with {@code runner}, and a
	 * copy of it with git, and compares after each step.
	 * @return what git showed of the repository before, after the first and after the
	 * second migration
	 */
	private static List<GitView> assertMigratesBothWaysAsGit(TempRepo repo, Path dir, Runner runner)
			throws IOException {
		Path twin = dir.resolve("twin");
		DirSnapshot.copy(repo.dir(), twin);
		RefFormat from = MigrationRunner.format(repo.dir());
		RefFormat to = (from == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		List<GitView> views = new ArrayList<>(List.of(GitView.captureQuickly(NEWEST, repo.dir())));
		for (RefFormat target : List.of(to, from)) {
			NEWEST.ok(twin, "refs", "migrate", "--ref-format=" + target.configName());
			runner.migrate(repo.dir(), target);
			GitView mine = GitView.captureQuickly(NEWEST, repo.dir());
			assertThat(mine.format()).isEqualTo(target.configName());
			assertThat(GitView.captureQuickly(NEWEST, twin).difference(mine))
				.as("to %s, against git's migration", target)
				.isNull();
			assertThat(GitView.unsoundness(NEWEST, repo.dir())).as("to %s", target).isNull();
			views.add(mine);
		}
		return views;
	}

}
