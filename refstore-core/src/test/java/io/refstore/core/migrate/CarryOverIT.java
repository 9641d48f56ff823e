package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@link CarryOver} of what a git process that read the configuration before the switch
 * wrote after the retire: it finds no log where it looks (the retired store took
 * {@code logs/} along) and begins one in the git directory, holding only its own entry.
 * That entry follows the retired log's in the new store, whether the ref itself arrived
 * after the retire or just before its refs/ went to the backup: SwapWritersIT found
 * carried refs whose reflog had lost git's entry for the update, in both ways.
 */
class CarryOverIT {

	private static final GitCli GIT = MigrationRepos.NEWEST;

	@Test
	void aRefWrittenIntoTheOldStoreAfterTheLockedSnapshotIsCarriedFromItsRecord(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir.resolve("repo"));
		repo.git("config", "core.logAllRefUpdates", "always");
		List<String> commits = repo.commits(2, "c");
		repo.git("update-ref", "-m", "created", "refs/heads/packed/1", commits.get(0));
		repo.git("pack-refs", "--all");
		MigrationReport report = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.REFTABLE));
		StoreFilesIT.age(report.backup());
		Path work = dir.resolve("work");
		Files.createDirectories(work);
		CarryOver.of(StoreFiles.of(report.backup())).write(work);
		// what git wrote into the old store after the snapshot: a ref only packed until
		// then, now loose, and its log's entry
		Files.createDirectories(report.backup().resolve("refs/heads/packed"));
		Files.writeString(report.backup().resolve("refs/heads/packed/1"), commits.get(1) + "\n");
		Files.writeString(report.backup().resolve("logs/refs/heads/packed/1"),
				commits.get(0) + " " + commits.get(1) + " Late Writer <late@example.com> 1700000100 +0000\tlate\n",
				java.nio.file.StandardOpenOption.APPEND);

		List<String> carried;
		try (Repository repository = Repository.open(repo.dir(), MigrationRunner.ENV)) {
			carried = CarryOver.read(work).carry(repository, repo.gitDir(), report.backup(), work);
		}

		assertThat(carried).containsExactly("refs/heads/packed/1");
		assertThat(GIT.ok(repo.dir(), "rev-parse", "refs/heads/packed/1").trim()).isEqualTo(commits.get(1));
		assertThat(GIT.ok(repo.dir(), "reflog", "show", "--format=%gs", "refs/heads/packed/1").lines().toList())
			.containsExactly("late", "created");
	}

	@Test
	void aStaleGitsLogBegunInTheGitDirectoryFollowsTheRetiredLog(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir.resolve("repo"));
		List<String> commits = repo.commits(2, "c");
		repo.git("update-ref", "-m", "created", "refs/heads/packed/1", commits.get(0));
		repo.git("pack-refs", "--all");
		MigrationReport report = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.REFTABLE));
		CarryOver unchanged = CarryOver.of(StoreFiles.of(report.backup()));
		// what the stale git left: the ref in a refs/heads the stubs moved aside, its new
		// log in the git directory
		Path work = dir.resolve("work");
		Path strayRef = work.resolve("strays-0/refs/heads/packed/1");
		Files.createDirectories(strayRef.getParent());
		Files.writeString(strayRef, commits.get(1) + "\n");
		Path strayLog = repo.gitDir().resolve("logs/refs/heads/packed/1");
		Files.createDirectories(strayLog.getParent());
		Files.writeString(strayLog, commits.get(0) + " " + commits.get(1)
				+ " Stale Writer <stale@example.com> 1700000100 +0000\tstale writer\n");

		List<String> carried;
		try (Repository repository = Repository.open(repo.dir(), MigrationRunner.ENV)) {
			carried = unchanged.carry(repository, repo.gitDir(), report.backup(), work);
		}

		assertThat(carried).containsExactly("refs/heads/packed/1");
		assertThat(GIT.ok(repo.dir(), "rev-parse", "refs/heads/packed/1").trim()).isEqualTo(commits.get(1));
		assertThat(GIT.ok(repo.dir(), "reflog", "show", "--format=%gs", "refs/heads/packed/1").lines().toList())
			.containsExactly("stale writer", "created");
	}

	@Test
	void aRefThatReachedTheBackupKeepsTheEntryItsGitWroteAfterLogsWereRetired(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), dir.resolve("repo"));
		List<String> commits = repo.commits(2, "c");
		repo.git("update-ref", "-m", "created", "refs/heads/loose/1", commits.get(0));
		MigrationReport report = MigrationRunner.migrate(repo.dir(), MigrationOptions.to(RefFormat.REFTABLE));
		CarryOver before = CarryOver.of(StoreFiles.of(report.backup()));
		// the retire moves logs/ first, then refs/: between the two a stale git began a
		// log
		// in the git directory and then renamed its ref into refs/, which went to the
		// backup
		Files.writeString(report.backup().resolve("refs/heads/loose/1"), commits.get(1) + "\n");
		Path strayLog = repo.gitDir().resolve("logs/refs/heads/loose/1");
		Files.createDirectories(strayLog.getParent());
		Files.writeString(strayLog, commits.get(0) + " " + commits.get(1)
				+ " Stale Writer <stale@example.com> 1700000100 +0000\tstale writer\n");

		List<String> carried;
		try (Repository repository = Repository.open(repo.dir(), MigrationRunner.ENV)) {
			carried = before.carry(repository, repo.gitDir(), report.backup(), dir.resolve("work"));
		}

		assertThat(carried).containsExactly("refs/heads/loose/1");
		assertThat(GIT.ok(repo.dir(), "rev-parse", "refs/heads/loose/1").trim()).isEqualTo(commits.get(1));
		assertThat(GIT.ok(repo.dir(), "reflog", "show", "--format=%gs", "refs/heads/loose/1").lines().toList())
			.containsExactly("stale writer", "created");
	}

}
