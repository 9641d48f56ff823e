package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.refstore.core.migrate.MigrationRepos.Maker;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.TempRepo;

/**
 * The new store a {@link StagedMigration} builds while it copies
 * ({@link StreamedAssembly}): the same store, by digest, as the one assembled from the
 * segments after a restart and as {@link FormatMigrator}'s; a store that fails its
 * verification assembled again from the segments; a reflog grown during the copy leaving
 * the store to the assemble phase. And the estimate of the refs to copy, against stores
 * git wrote.
 */
class StreamedAssemblyIT {

	@ParameterizedTest
	@EnumSource(names = { "NEWEST_FILES", "NEWEST_REFTABLE" })
	void aCopyInOneGoBuildsTheStoreTheSegmentsWouldHave(Maker maker, @TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(maker, dir.resolve("repo"), false, false);
		RefFormat target = (maker.format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		MigrationOptions options = MigrationOptions.to(target);
		Path work = repo.gitDir().resolve(FormatMigrator.WORK_DIR);
		String direct;
		try (Repository repository = Repository.open(repo.dir())) {
			direct = new FormatMigrator(repository).migrate(new MigrationOptions(target, true, true)).sourceDigest();
		}

		String streamed;
		long reflogEntries;
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, options, "job-a")) {
			CopyProgress next = CopyProgress.START;
			while (!next.done()) {
				next = migration.copyRefs(next, 3);
			}
			assertThat(work.resolve("assembled")).as("built by the copy").exists();
			reflogEntries = migration.copyReflogs();
			assertThat(reflogEntries).isPositive();
			streamed = migration.assemble();
			assertThat(migration.verify()).isEqualTo(streamed);
		}

		GitView before = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
		String fromSegments;
		MigrationReport report;
		try (Repository repository = Repository.open(repo.dir())) {
			CopyProgress first;
			try (StagedMigration migration = StagedMigration.open(repository, options, "job-b")) {
				first = migration.copyRefs(CopyProgress.START, 3);
			}
			try (StagedMigration migration = StagedMigration.open(repository, options, "job-b")) {
				CopyProgress next = migration.copyRefs(first, 3);
				while (!next.done()) {
					next = migration.copyRefs(next, 3);
				}
				assertThat(work.resolve("assembled")).as("a resumed copy leaves the store to assemble").doesNotExist();
				assertThat(migration.copyReflogs()).isEqualTo(reflogEntries);
				fromSegments = migration.assemble();
				assertThat(migration.verify()).isEqualTo(fromSegments);
				report = migration.swap();
			}
		}
		assertThat(streamed).isEqualTo(fromSegments).isEqualTo(direct).isEqualTo(report.targetDigest());
		assertThat(before.difference(GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir()))).isNull();
	}

	@Test
	void aStoreFailingItsVerificationIsAssembledAgainFromTheSegments(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_REFTABLE, dir.resolve("repo"), false, false);
		GitView before = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
		Path packed = repo.gitDir().resolve(FormatMigrator.WORK_DIR).resolve("new/packed-refs");
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, MigrationOptions.to(RefFormat.FILES),
						"job-c")) {
			CopyProgress next = CopyProgress.START;
			while (!next.done()) {
				next = migration.copyRefs(next, 1000);
			}
			migration.copyReflogs();
			String assembled = migration.assemble();
			// one hex digit of the first ref's id changed: still a well-formed
			// packed-refs, another value
			String text = Files.readString(packed, StandardCharsets.ISO_8859_1);
			int at = text.indexOf('\n') + 1;
			char digit = (text.charAt(at) == '0') ? '1' : '0';
			Files.writeString(packed, text.substring(0, at) + digit + text.substring(at + 1),
					StandardCharsets.ISO_8859_1);
			assertThatThrownBy(migration::verify).isInstanceOf(MigrationException.class)
				.hasMessageContaining("verification failed");

			assertThat(migration.assemble()).isEqualTo(assembled);
			assertThat(Files.readString(packed, StandardCharsets.ISO_8859_1)).isEqualTo(text);
			assertThat(migration.verify()).isEqualTo(assembled);
			migration.swap();
		}
		assertThat(before.difference(GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir()))).isNull();
	}

	@Test
	void aReflogGrownDuringTheCopyLeavesTheStoreToTheAssemblePhase(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		Path work = repo.gitDir().resolve(FormatMigrator.WORK_DIR);
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, MigrationOptions.to(RefFormat.REFTABLE),
						"job-d")) {
			CopyProgress next = migration.copyRefs(CopyProgress.START, 3);
			// HEAD's log grows past the longest the reftable writer was prepared for when
			// the copy began
			int longest = longestReflog(repository);
			for (int i = 0; i <= longest; i++) {
				repo.git("update-ref", "-m", "grow " + i, "HEAD", (i % 2 == 0) ? "HEAD~1" : "main@{1}");
			}
			while (!next.done()) {
				next = migration.copyRefs(next, 3);
			}
			assertThat(work.resolve("assembled")).doesNotExist();
			assertThat(work.resolve("new")).doesNotExist();
			assertThat(migration.copyReflogs()).isPositive();
			String assembled = migration.assemble();
			assertThat(migration.verify()).isEqualTo(assembled);
			GitView before = GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir());
			MigrationReport report = migration.swap();
			assertThat(report.logEntries()).isGreaterThan(2L * longest);
			assertThat(before.difference(GitView.captureQuickly(MigrationRepos.NEWEST, repo.dir()))).isNull();
		}
	}

	@Test
	void theEstimateOfAFilesStoreCountsItsLooseAndPackedRefs(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.createLarge(dir.resolve("repo"), 1200);
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, MigrationOptions.to(RefFormat.REFTABLE),
						"job-e")) {
			long count = migration.countRefs();
			assertThat(count).isGreaterThan(1200);
			assertThat(migration.estimateRefs()).isBetween(count * 9 / 10, count * 11 / 10);
		}
	}

	@Test
	void theEstimateOfAReftableStoreIsWithinTwiceItsRefs(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_REFTABLE, dir.resolve("repo"), false, false);
		String head = repo.git("rev-parse", "HEAD").strip();
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 3000; i++) {
			updates.append(String.format("create refs/heads/topic/%05d %s\n", i, head));
		}
		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("pack-refs", "--all");
		try (Repository repository = Repository.open(repo.dir());
				StagedMigration migration = StagedMigration.open(repository, MigrationOptions.to(RefFormat.FILES),
						"job-f")) {
			long count = migration.countRefs();
			assertThat(count).isGreaterThan(3000);
			assertThat(migration.estimateRefs()).isBetween(count / 2, count * 2);
		}
	}

	private static int longestReflog(Repository repository) throws IOException {
		int longest = 0;
		try (RefStore store = RefStores.open(repository)) {
			for (String name : store.reflogNames()) {
				longest = Math.max(longest, store.reflog(name).size());
			}
		}
		return longest;
	}

}
