package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.refstore.core.migrate.MigrationRepos.Maker;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The phases of a {@link StagedMigration} run as a batch job runs them: chunk by chunk,
 * with the process "restarting" (a new object on a reopened repository) mid-copy, a
 * segment written after the last recorded checkpoint dropped, segments lost before it (a
 * resume starts after the last whole one), a writer getting in between copy and swap, and
 * a foreign migration refused while the owner lives. Judged by the reftable git exactly
 * as {@link MigrationIT} judges {@link FormatMigrator}.
 */
class StagedMigrationIT {

	@ParameterizedTest
	@EnumSource(names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void migratesInChunksAcrossARestartAsGitSeesIt(Maker maker, @TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, false);
		GitView before = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
		RefFormat target = (maker.format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		MigrationOptions options = MigrationOptions.to(target);
		long total = before.forEachRef().lines().count();

		CopyProgress checkpoint;
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-1")) {
			assertThat(migration.resumed()).isFalse();
			assertThat(migration.countRefs()).isEqualTo(total);
			checkpoint = migration.copyRefs(CopyProgress.START, 3);
			checkpoint = migration.copyRefs(checkpoint, 3);
			// a third chunk reaches the disk, but its checkpoint is never recorded (the
			// process dies)
			migration.copyRefs(checkpoint, 3);
		}
		Path work = repo.gitDir().resolve(FormatMigrator.WORK_DIR);
		assertThat(RefSegments.exists(work, 3)).isTrue();
		GitCli.Result cli = MigrationRunner.refs(repo.dir(), "migrate", "--ref-format=" + target.configName());
		assertThat(cli.exitCode()).as("the command while the job's owner (this process) lives").isNotZero();
		assertThat(cli.stderr()).contains("another refstore migration (pid " + ProcessHandle.current().pid() + " on "
				+ io.refstore.core.io.ProcessOwner.THIS_HOST + ", job job-1) is running");
		assertThat(RefSegments.exists(work, 3)).isTrue();

		MigrationReport report;
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-1")) {
			assertThat(migration.resumed()).isTrue();
			CopyProgress next = migration.copyRefs(checkpoint, 3);
			assertThat(next.segments()).isEqualTo(3);
			assertThat(next.refs()).isEqualTo(9);
			while (!next.done()) {
				next = migration.copyRefs(next, 3);
			}
			assertThat(next.refs()).isEqualTo(total);
			assertThat(migration.copyReflogs()).isPositive();
			String assembled = migration.assemble();
			assertThat(migration.verify()).isEqualTo(assembled);
			report = migration.swap();
		}
		assertThat(report.refs()).isEqualTo(total);
		assertThat(report.swapped()).isTrue();
		assertThat(report.backup()).isDirectory();
		assertThat(work).doesNotExist();
		GitView after = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
		assertThat(after.format()).isEqualTo(target.configName());
		assertThat(before.difference(after)).isNull();
		assertThat(GitView.unsoundness(MigrationRepos.NEWEST, repo.dir())).isNull();
	}

	@ParameterizedTest
	@EnumSource(names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void aResumeStartsAfterTheLastWholeSegmentAndDropsEveryLaterOne(Maker maker, @TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, false);
		GitView before = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
		RefFormat target = (maker.format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		MigrationOptions options = MigrationOptions.to(target);
		long total = before.forEachRef().lines().count();
		assertThat(total).isGreaterThan(8);

		CopyProgress first;
		CopyProgress checkpoint;
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-8")) {
			first = migration.copyRefs(CopyProgress.START, 1);
			checkpoint = first;
			for (int chunk = 2; chunk <= 6; chunk++) {
				checkpoint = migration.copyRefs(checkpoint, 1);
			}
		}
		Path work = repo.gitDir().resolve(FormatMigrator.WORK_DIR);
		assertThat(checkpoint.segments()).isEqualTo(6);
		assertThat(RefSegments.exists(work, 6)).isTrue();
		// a power loss: segment 2 reached the disk in part, segment 3 not at all, later
		// ones whole
		Path second = RefSegments.file(work, 2);
		byte[] bytes = Files.readAllBytes(second);
		Files.write(second, java.util.Arrays.copyOf(bytes, bytes.length - 3));
		Files.delete(RefSegments.file(work, 3));

		MigrationReport report;
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-8")) {
			assertThat(migration.resumed()).isTrue();
			CopyProgress resumed = migration.resumeFrom(checkpoint);
			assertThat(resumed).isEqualTo(first);
			// the total - 1 refs left in two segments: the stale segments 4 to 6 must not
			// follow them into the store
			int limit = (int) (total / 2);
			CopyProgress next = migration.copyRefs(resumed, limit);
			while (!next.done()) {
				next = migration.copyRefs(next, limit);
			}
			assertThat(next.refs()).isEqualTo(total);
			assertThat(next.segments()).isEqualTo(3);
			assertThat(RefSegments.exists(work, 4)).isFalse();
			assertThat(migration.resumeFrom(next)).isEqualTo(next);
			migration.copyReflogs();
			String assembled = migration.assemble();
			assertThat(migration.verify()).isEqualTo(assembled);
			report = migration.swap();
		}
		assertThat(report.refs()).isEqualTo(total);
		GitView after = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
		assertThat(before.difference(after)).isNull();
		assertThat(GitView.unsoundness(MigrationRepos.NEWEST, repo.dir())).isNull();
	}

	@Test
	void aRefWrittenAfterTheCopyIsInTheSwappedStore(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		MigrationOptions options = MigrationOptions.to(RefFormat.REFTABLE);
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-2")) {
			CopyProgress next = CopyProgress.START;
			while (!next.done()) {
				next = migration.copyRefs(next, 1000);
			}
			migration.copyReflogs();
			migration.assemble();
			migration.verify();
			repo.git("update-ref", "refs/heads/late", "HEAD");
			GitView before = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
			MigrationReport report = migration.swap();
			assertThat(report.refs()).isEqualTo(before.forEachRef().lines().count());
			GitView after = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
			assertThat(before.difference(after)).isNull();
			assertThat(after.forEachRef()).contains("refs/heads/late ");
		}
	}

	@Test
	void anotherJobStartsAfreshAndADamagedCheckpointIsRefused(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_REFTABLE, dir.resolve("repo"), false, false);
		MigrationOptions options = MigrationOptions.to(RefFormat.FILES);
		CopyProgress checkpoint;
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-3")) {
			checkpoint = migration.copyRefs(CopyProgress.START, 4);
		}
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration other = StagedMigration.open(repository, options, "job-4")) {
			assertThat(other.resumed()).isFalse();
			assertThatThrownBy(() -> other.copyRefs(checkpoint, 4)).isInstanceOf(MigrationException.class)
				.hasMessageContaining("lacks segment 1 of the 1 its checkpoint counts");
			assertThatThrownBy(other::assemble).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("copyReflogs has not completed");
		}
		assertThat(Files.exists(repo.gitDir().resolve(FormatMigrator.WORK_DIR).resolve("segments"))).isFalse();
	}

	@Test
	void aRewriteOfAnOldRefBetweenCopyAndSwapIsSeenThroughTheFingerprint(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		repo.git("update-ref", "refs/heads/moving", "HEAD");
		// an old store: its fingerprint is trusted (not "racy"), so only the rewrite
		// below can change it
		age(repo.gitDir());
		MigrationOptions options = MigrationOptions.to(RefFormat.REFTABLE);
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-5")) {
			copyAll(migration);
			// a value of the same length, and the file's time moved back as if written
			// long ago: only the
			// file's identity tells the rewrite
			repo.git("update-ref", "refs/heads/moving", "HEAD~1");
			age(repo.gitDir());
			GitView before = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
			migration.swap();
			GitView after = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
			assertThat(before.difference(after)).isNull();
		}
	}

	@Test
	void aJobRestartedAfterItsSwapFindsItsMigrationDone(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_REFTABLE, dir.resolve("repo"), false, false);
		MigrationOptions options = MigrationOptions.to(RefFormat.FILES);
		MigrationReport first;
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-6")) {
			copyAll(migration);
			first = migration.swap();
		}
		// the process died before the job recorded the swap: the job runs the step again
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration again = StagedMigration.open(repository, options, "job-6")) {
			assertThat(again.finished()).isPresent();
			MigrationReport report = again.swap();
			assertThat(report.backup()).isEqualTo(first.backup());
			assertThat(report.targetDigest()).isEqualTo(first.targetDigest());
			assertThat(report.refs()).isEqualTo(first.refs());
		}
		try (Repository repository = Repository.open(repo.dir())) {
			assertThatThrownBy(() -> StagedMigration.open(repository, options, "job-7"))
				.isInstanceOf(MigrationException.class)
				.hasMessageContaining("already uses 'files' format");
		}
	}

	private static void copyAll(StagedMigration migration) throws IOException {
		CopyProgress next = CopyProgress.START;
		while (!next.done()) {
			next = migration.copyRefs(next, 1000);
		}
		migration.copyReflogs();
		migration.assemble();
		migration.verify();
	}

	/**
	 * An hour ago, the same instant for every call, so that aging alone never changes a
	 * file's time.
	 */
	private static final java.nio.file.attribute.FileTime HOUR_AGO = java.nio.file.attribute.FileTime
		.from(java.time.Instant.now().minusSeconds(3600));

	/**
	 * Moves every file's time to {@link #HOUR_AGO}, as in a repository nobody wrote to
	 * lately.
	 */
	static void age(Path gitDir) throws IOException {
		java.nio.file.attribute.FileTime hourAgo = HOUR_AGO;
		try (java.util.stream.Stream<Path> files = Files.walk(gitDir)) {
			for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
				Files.setLastModifiedTime(file, hourAgo);
			}
		}
	}

}
