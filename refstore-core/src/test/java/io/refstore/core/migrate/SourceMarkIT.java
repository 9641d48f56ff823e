package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.migrate.MigrationRepos.Maker;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.TempRepo;

/**
 * A write git makes while {@link FormatMigrator} builds the new store from a files store,
 * before the swap's locks: the swap sees it in the identities of the store's files
 * ({@link Swap.Mark}, {@link StoreFiles}) and builds again, so the write is in the new
 * store. The store is old (no file is "racy"), and the rewrite keeps the ref's length and
 * time: only the file's identity tells it.
 */
class SourceMarkIT {

	@Test
	void aRewriteOfAnOldRefWhileTheNewStoreIsBuiltIsInTheNewStore(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		repo.git("update-ref", "refs/heads/moving", "HEAD");
		String older = repo.git("rev-parse", "HEAD~1").strip();
		StagedMigrationIT.age(repo.gitDir());
		boolean[] written = { false };
		String[] phase = { "" };
		// when the refs have been copied into the new store: a write the copy missed
		MigrationProgress rewriting = new MigrationProgress() {

			@Override
			public void start(String title, long total) {
				phase[0] = title;
			}

			@Override
			public void update(long done) {
			}

			@Override
			public void stop() {
				if (phase[0].equals("Copying refs") && !written[0]) {
					written[0] = true;
					repo.git("update-ref", "refs/heads/moving", older);
					try {
						StagedMigrationIT.age(repo.gitDir());
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
				}
			}

		};
		try (Repository repository = Repository.open(repo.dir())) {
			new FormatMigrator(repository, rewriting).migrate(MigrationOptions.to(RefFormat.REFTABLE));
		}

		assertThat(written[0]).isTrue();
		assertThat(repo.with(io.refstore.core.testing.GitCli.reftable()).git("rev-parse", "refs/heads/moving").strip())
			.isEqualTo(older);
	}

	@Test
	void aLogMadeAfterTheMarkListedItsLogsIsInTheNewStore(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		repo.git("config", "core.logAllRefUpdates", "always");
		StagedMigrationIT.age(repo.gitDir());
		boolean[] written = { false };
		// once the mark has listed the logs, before they are read: a ref and its log
		MigrationProgress logging = new MigrationProgress() {

			@Override
			public void start(String title, long total) {
				if (title.equals("Reading reflogs") && !written[0]) {
					written[0] = true;
					repo.git("update-ref", "-m", "made meanwhile", "refs/heads/meanwhile", "HEAD");
				}
			}

			@Override
			public void update(long done) {
			}

			@Override
			public void stop() {
			}

		};
		try (Repository repository = Repository.open(repo.dir())) {
			new FormatMigrator(repository, logging).migrate(MigrationOptions.to(RefFormat.REFTABLE));
		}

		assertThat(written[0]).isTrue();
		assertThat(repo.with(io.refstore.core.testing.GitCli.reftable())
			.git("reflog", "show", "--format=%gs", "refs/heads/meanwhile")).isEqualTo("made meanwhile\n");
	}

	@Test
	void theMarkListsTheLogsTheStoreLists(@TempDir Path dir) throws IOException {
		TempRepo repo = MigrationRepos.create(Maker.NEWEST_FILES, dir.resolve("repo"), false, false);
		repo.git("update-ref", "--create-reflog", "-m", "deep", "refs/pull/1/head", "HEAD");
		repo.git("update-ref", "--create-reflog", "-m", "pseudo", "ORIG_HEAD", "HEAD");
		Path logs = repo.gitDir().resolve("logs");
		// a log through a link, below refs/ and at the top; a name git refuses; a
		// directory at the top; an empty directory below refs/
		Files.createSymbolicLink(logs.resolve("refs/heads/linked"), logs.resolve("HEAD"));
		Files.createSymbolicLink(logs.resolve("FETCH_HEAD"), logs.resolve("HEAD"));
		Files.writeString(logs.resolve("refs/heads/bad.lock"), "");
		Files.createDirectories(logs.resolve("other/dir"));
		Files.writeString(logs.resolve("other/dir/file"), "");
		Files.createDirectories(logs.resolve("refs/empty"));
		try (Repository repository = Repository.open(repo.dir());
				io.refstore.core.ref.RefStore store = io.refstore.core.store.RefStores.open(repository)) {
			Swap.Mark mark = Swap.Mark.withReflogNames(repository, store);

			assertThat(mark.reflogNames()).isEqualTo(store.reflogNames())
				.contains("HEAD", "ORIG_HEAD", "FETCH_HEAD", "refs/heads/linked", "refs/pull/1/head")
				.doesNotContain("refs/heads/bad.lock", "other/dir/file");
			assertThat(Swap.Mark.of(repository, store).reflogNames()).isNull();
		}
	}

}
