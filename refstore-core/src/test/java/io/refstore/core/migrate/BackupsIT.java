package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.migrate.MigrationRepos.Maker;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Listing and dropping the backups of a repository migrated to reftable and back, through
 * {@link Backups} and through {@code refstore refs backups} / {@code drop-backup} run
 * from the command jar; judged by the reftable git, whose view of the repository no drop
 * may change.
 */
class BackupsIT {

	private static final GitCli NEWEST = MigrationRepos.NEWEST;

	@Test
	void listsBothBackupsOfAMigrationThereAndBackAndDropsOneLeavingTheRepositoryAsGitSeesIt(@TempDir Path dir)
			throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		MigrationReport there = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.REFTABLE));
		MigrationReport back = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.FILES));
		Backups backups = new Backups(repo.gitDir());

		List<Backups.Backup> listed = backups.list();

		assertThat(listed).extracting(Backups.Backup::name)
			.containsExactly(there.backup().getFileName().toString(), back.backup().getFileName().toString());
		Backups.Backup files = listed.get(0);
		assertThat(files.format()).isEqualTo(RefFormat.FILES);
		assertThat(files.refs()).isEqualTo(there.refs());
		assertThat(files.logEntries()).isEqualTo(there.logEntries());
		assertThat(files.digest()).isEqualTo(there.sourceDigest());
		assertThat(files.recorded()).isTrue();
		assertThat(files.bytes()).isEqualTo(du(there.backup()));
		assertThat(listed.get(1).format()).isEqualTo(RefFormat.REFTABLE);
		assertThat(listed.get(1).refs()).isEqualTo(back.refs());
		assertThat(listed.get(1).bytes()).isEqualTo(du(back.backup()));
		assertThat(files.madeAt()).isBeforeOrEqualTo(listed.get(1).madeAt());

		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		assertThat(backups.drop(files.name())).isEqualTo(files);

		assertThat(there.backup()).doesNotExist();
		assertThat(backups.list()).extracting(Backups.Backup::name).containsExactly(listed.get(1).name());
		try (var left = Files.list(repo.gitDir().resolve(FormatMigrator.BACKUP_DIR))) {
			assertThat(left.map((path) -> path.getFileName().toString())).containsExactly(listed.get(1).name());
		}
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
		assertThat(GitView.unsoundness(NEWEST, repo.dir())).isNull();
		assertThat(backups.drop(files.name())).as("dropped already").isNull();
		assertThat(backups.find(listed.get(1).name())).isEqualTo(listed.get(1));
	}

	@Test
	void refusesNamesThatAreNotDirectChildrenOfTheBackupDirectoryAndDeletesNothing(@TempDir Path dir)
			throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.REFTABLE));
		Path outside = Files.createDirectories(dir.resolve("precious/20260101-000000-000-files"));
		Files.writeString(outside.resolve("packed-refs"), "keep me\n");
		Path backupDir = repo.gitDir().resolve(FormatMigrator.BACKUP_DIR);
		Files.createSymbolicLink(backupDir.resolve("20260101-000000-000-files"), outside);
		Files.createDirectories(backupDir.resolve(".restored-20250101-000000-000-files"));
		Backups backups = new Backups(repo.gitDir());
		List<Backups.Backup> listed = backups.list();
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());

		assertThat(listed).hasSize(1);
		for (String name : List.of("../x", "..", ".", "../refstore-backup/" + listed.get(0).name(), outside.toString(),
				"20260101-000000-000-files", ".restored-20250101-000000-000-files", "")) {
			assertThatThrownBy(() -> backups.drop(name)).as(name)
				.isInstanceOf(InvalidBackupNameException.class)
				.hasMessageContaining("'" + name + "' is not a backup");
		}

		assertThat(outside.resolve("packed-refs")).hasContent("keep me");
		assertThat(backups.list()).isEqualTo(listed);
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
	}

	@Test
	void refusesABackupAnUnfinishedMigrationNamesAndFinishesADropThatWasStopped(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		MigrationReport there = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.REFTABLE));
		String name = there.backup().getFileName().toString();
		Path work = Files.createDirectories(repo.gitDir().resolve(FormatMigrator.WORK_DIR));
		new Journal(RefFormat.FILES, RefFormat.REFTABLE, there.backup(), null).write(work);
		Backups backups = new Backups(repo.gitDir());

		assertThatThrownBy(() -> backups.drop(name)).isInstanceOf(MigrationException.class)
			.isNotInstanceOf(InvalidBackupNameException.class)
			.hasMessageContaining("has not finished");
		assertThat(there.backup()).isDirectory();

		Journal.delete(work);
		Path stopped = repo.gitDir().resolve(FormatMigrator.BACKUP_DIR).resolve(".dropping-20200101-000000-000-files");
		Files.createDirectories(stopped.resolve("refs/heads"));
		Files.writeString(stopped.resolve("packed-refs"), "half deleted\n");
		assertThat(backups.list()).extracting(Backups.Backup::name).containsExactly(name);
		assertThat(backups.drop(name)).isNotNull();
		assertThat(stopped).doesNotExist();
		assertThat(there.backup()).doesNotExist();
	}

	@Test
	void theCommandListsInColumnsDropsByNameAndDiesOnAnUnknownName(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		MigrationReport there = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.REFTABLE));
		String name = there.backup().getFileName().toString();
		long bytes = du(there.backup());
		String line = name + " files " + there.refs() + " " + there.logEntries() + " " + bytes;

		assertThat(MigrationRunner.refs(repo.dir(), "backups").requireOk().stdout()).isEqualTo(line + "\n");
		assertThat(MigrationRunner.refs(repo.dir(), "backups", "-v").requireOk().stdout())
			.isEqualTo(line + " " + there.sourceDigest() + "\n");

		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		GitCli.Result dropped = MigrationRunner.refs(repo.dir(), "drop-backup", name).requireOk();
		assertThat(dropped.stdout()).isEqualTo("dropped backup " + name + " (files store, " + there.refs() + " refs, "
				+ there.logEntries() + " reflog entries, " + bytes + " bytes)\n");
		assertThat(there.backup()).doesNotExist();
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
		assertThat(MigrationRunner.refs(repo.dir(), "backups").requireOk().stdout()).isEmpty();

		GitCli.Result unknown = MigrationRunner.refs(repo.dir(), "drop-backup", name);
		assertThat(unknown.exitCode()).isEqualTo(128);
		assertThat(unknown.stderr()).isEqualTo("fatal: no backup named '" + name + "'\n");
		GitCli.Result escape = MigrationRunner.refs(repo.dir(), "drop-backup", "../objects");
		assertThat(escape.exitCode()).isEqualTo(128);
		assertThat(escape.stderr()).startsWith("fatal: '../objects' is not a backup name");
		assertThat(repo.gitDir().resolve("objects")).isDirectory();
		assertThat(GitView.unsoundness(NEWEST, repo.dir())).isNull();
	}

	@Test
	void rollbackTakesTheNameTheListPrintsAndEverySubcommandAnswersDashH(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		GitView before = GitView.captureQuickly(NEWEST, repo.dir());
		MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=reftable").requireOk();
		String name = MigrationRunner.refs(repo.dir(), "backups").requireOk().stdout().split(" ")[0];

		GitCli.Result unknown = MigrationRunner.refs(repo.dir(), "rollback", "20990101-000000-000-files");
		assertThat(unknown.exitCode()).isEqualTo(128);
		assertThat(unknown.stderr()).isEqualTo("fatal: no backup named '20990101-000000-000-files'\n");
		assertThat(MigrationRunner.format(repo.dir())).isEqualTo(RefFormat.REFTABLE);

		MigrationRunner.refs(repo.dir(), "rollback", name).requireOk();
		assertThat(MigrationRunner.format(repo.dir())).isEqualTo(RefFormat.FILES);
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);

		for (String[] help : new String[][] { { "-h" }, { "rollback", "-h" }, { "drop-backup", "-h" },
				{ "backups", "-h" }, { "migrate", "-h" }, { "verify", "-h" }, { "exists", "-h" } }) {
			GitCli.Result usage = MigrationRunner.refs(repo.dir(), help);
			assertThat(usage.exitCode()).as("refs %s", String.join(" ", help)).isEqualTo(129);
			assertThat(usage.stdout()).as("refs %s", String.join(" ", help)).startsWith("usage: refstore refs ");
			assertThat(usage.stderr()).isEmpty();
		}
		assertThat(GitView.captureQuickly(NEWEST, repo.dir())).isEqualTo(before);
	}

	/**
	 * The bytes of the files below {@code dir}, as {@code du -b} of its files counts
	 * them.
	 */
	private static long du(Path dir) {
		String out = new String(run("find", dir.toString(), "-type", "f", "-printf", "%s\\n"), StandardCharsets.UTF_8);
		return out.lines().mapToLong(Long::parseLong).sum();
	}

	private static byte[] run(String... command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			byte[] out = process.getInputStream().readAllBytes();
			assertThat(process.waitFor()).isZero();
			return out;
		}
		catch (IOException | InterruptedException ex) {
			throw new AssertionError(ex);
		}
	}

}
