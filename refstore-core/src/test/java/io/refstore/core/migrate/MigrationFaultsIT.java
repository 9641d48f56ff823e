package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * A migration or rollback whose configuration switch cannot happen, because another
 * process (a {@code git config}) holds {@code config.lock}: the command fails with an
 * error naming the lock, the repository is exactly as it was (git reads the same refs in
 * the same format; no staged store, journal or work directory left), the other process's
 * lock is left alone, and once it is gone the same command succeeds.
 */
class MigrationFaultsIT {

	private static final GitCli GIT = MigrationRepos.NEWEST;

	private static final String HELD = "[core]\n\tbare = false\n";

	@TempDir
	Path dir;

	@ParameterizedTest
	@EnumSource(value = MigrationRepos.Maker.class, names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void aConfigLockHeldByAnotherProcessFailsTheMigrationAndChangesNothing(MigrationRepos.Maker maker)
			throws IOException {
		TempRepo repo = MigrationRepos.create(maker, this.dir.resolve("repo"), false, false);
		RefFormat target = (maker.format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		GitView before = GitView.captureQuickly(GIT, repo.dir());
		Path lock = holdConfigLock(repo);
		Map<String, String> files = DirSnapshot.of(repo.gitDir(), Set.of());

		GitCli.Result refused = MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=" + target.configName());

		assertRefusedAndUnchanged(repo, refused, before, files, lock);
		Files.delete(lock);
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=" + target.configName()).requireOk();
		GitView after = GitView.captureQuickly(GIT, repo.dir());
		assertThat(after.format()).isEqualTo(target.configName());
		assertThat(before.difference(after)).isNull();
	}

	@ParameterizedTest
	@EnumSource(value = MigrationRepos.Maker.class, names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void aConfigLockHeldByAnotherProcessFailsTheRollbackAndKeepsTheBackup(MigrationRepos.Maker maker)
			throws IOException {
		TempRepo repo = MigrationRepos.create(maker, this.dir.resolve("repo"), false, false);
		RefFormat other = (maker.format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		MigrationReport migration = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(other));
		GIT.ok(repo.dir(), "update-ref", "refs/heads/after-migration", "HEAD");
		GitView before = GitView.captureQuickly(GIT, repo.dir());
		Path lock = holdConfigLock(repo);
		Map<String, String> files = DirSnapshot.of(repo.gitDir(), Set.of());

		GitCli.Result refused = MigrationRunner.refs(repo.dir(), "rollback", migration.backup().toString());

		assertRefusedAndUnchanged(repo, refused, before, files, lock);
		Files.delete(lock);
		MigrationRunner.refs(repo.dir(), "rollback", migration.backup().toString()).requireOk();
		GitView after = GitView.captureQuickly(GIT, repo.dir());
		assertThat(after.format()).isEqualTo(maker.format.configName());
		// the ref written since the migration is kept
		assertThat(before.difference(after)).isNull();
		assertThat(migration.backup()).doesNotExist();
	}

	/** A {@code config.lock} as a {@code git config} writing the file would hold it. */
	private static Path holdConfigLock(TempRepo repo) throws IOException {
		Path lock = repo.gitDir().resolve("config.lock");
		Files.writeString(lock, HELD, StandardCharsets.UTF_8);
		return lock;
	}

	private static void assertRefusedAndUnchanged(TempRepo repo, GitCli.Result refused, GitView before,
			Map<String, String> files, Path lock) throws IOException {
		assertThat(refused.exitCode()).as("exit code").isNotZero();
		assertThat(refused.stderr()).contains("config.lock").doesNotContain("\tat ").doesNotContain("Exception");
		assertThat(GitView.captureQuickly(GIT, repo.dir())).isEqualTo(before);
		assertThat(DirSnapshot.of(repo.gitDir(), Set.of())).as("every file of the git directory").isEqualTo(files);
		assertThat(Files.readString(lock, StandardCharsets.UTF_8)).as("the other process's lock").isEqualTo(HELD);
	}

}
