package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * A journal file read again from its first byte stores no entry twice, judged on the rows
 * the database holds for git 2.55's writes: a file restored from a backup (longer than
 * one ingestion run, so the reading spans runs), a file a compaction set aside and that
 * is put back, and a backup holding entries retention pruned since. What git wrote after
 * the file came back is stored once.
 */
class JournalReplayIT extends ApiTestSupport {

	@Autowired
	JournalIngester ingester;

	@Autowired
	JournalProperties settings;

	@Autowired
	JournalRetention retention;

	@Autowired
	JdbcClient jdbc;

	@Test
	void aJournalRestoredFromABackupStoresNoEntryTwice() throws Exception {
		String name = uniqueName("journal-backup");
		TempRepo repo = journaled(name);
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		// more than one ingestion run, so the reading spans runs
		int many = this.settings.ingestRun() + 5_000;
		create(repo, "refs/heads/many/", many, c1);
		Path journal = JournalHook.journalFile(repo.gitDir());
		Path backup = journal.resolveSibling("journal.backup");
		Files.copy(journal, backup);
		repo.git("update-ref", "refs/heads/after-backup", c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(many + 1);

		// the backup put back (another inode, shorter): git appends to it
		Files.copy(backup, journal, StandardCopyOption.REPLACE_EXISTING);
		repo.git("update-ref", "refs/heads/after-restore", c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(1);
		assertThat(stored(name)).isEqualTo(many + 2).isEqualTo(distinct(name));
		// read to its end: what git appends now is new, and stored once
		repo.git("update-ref", "refs/heads/after-restore", c2, c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(1);
		assertThat(this.ingester.ingest(name)).isZero();
		assertThat(stored(name)).isEqualTo(many + 3).isEqualTo(distinct(name));
	}

	@Test
	void aFileSetAsideByACompactionAndPutBackStoresNoEntryTwice() throws Exception {
		String name = uniqueName("journal-put-back");
		TempRepo repo = journaled(name);
		String c1 = repo.commit("one", null);
		create(repo, "refs/heads/before/", 10, c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(10);
		assertThat(this.ingester.compact(name, 1, Duration.ZERO)).isTrue();
		// the new file's entries are new
		repo.git("update-ref", "refs/heads/new-file", c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(1);

		Path journal = JournalHook.journalFile(repo.gitDir());
		Files.move(journal.resolveSibling("journal.ingested"), journal, StandardCopyOption.REPLACE_EXISTING);
		assertThat(this.ingester.ingest(name)).isZero();
		repo.git("update-ref", "refs/heads/put-back", c1);
		assertThat(this.ingester.ingest(name)).isEqualTo(1);
		assertThat(stored(name)).isEqualTo(12).isEqualTo(distinct(name));
	}

	@Test
	void entriesRetentionPrunedDoNotComeBackWithABackup() throws Exception {
		String name = uniqueName("journal-pruned");
		TempRepo repo = journaled(name);
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		for (int i = 0; i < 4; i++) {
			repo.git("update-ref", "refs/heads/main", (i % 2 == 0) ? c1 : c2);
		}
		Path journal = JournalHook.journalFile(repo.gitDir());
		Path backup = journal.resolveSibling("journal.backup");
		Files.copy(journal, backup);
		repo.git("update-ref", "refs/heads/newer", c1);
		repo.git("update-ref", "refs/heads/newest", c1);
		this.ingester.ingest(name);
		this.jdbc.sql("UPDATE refstore_journal_source SET max_entries = 2 WHERE repository LIKE ?")
			.params("%/" + name)
			.update();
		// main's three older changes go, its newest stays
		assertThat(this.retention.apply(name).deleted()).isEqualTo(3);

		Files.copy(backup, journal, StandardCopyOption.REPLACE_EXISTING);
		assertThat(this.ingester.ingest(name)).isZero();
		assertThat(stored(name)).isEqualTo(3);
	}

	private static TempRepo journaled(String name) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=files");
		try (Repository repository = Repository.open(repo.gitDir(), GitCli.system().environment())) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
		}
		return repo;
	}

	/** Creates {@code count} refs under {@code prefix} in one git transaction. */
	private static void create(TempRepo repo, String prefix, int count, String value) {
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < count; i++) {
			stdin.append("create ").append(prefix).append(i).append(' ').append(value).append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
	}

	private long stored(String name) {
		return this.jdbc
			.sql("SELECT COUNT(*) FROM refstore_journal_entry e JOIN refstore_journal_source s ON s.id = e.source_id"
					+ " WHERE s.repository LIKE ?")
			.params("%/" + name)
			.query(Long.class)
			.single();
	}

	/** The entries a transaction, a ref and a new value tell apart. */
	private long distinct(String name) {
		return this.jdbc
			.sql("SELECT COUNT(*) FROM (SELECT DISTINCT e.transaction_id, e.ref_name, e.new_value"
					+ " FROM refstore_journal_entry e JOIN refstore_journal_source s ON s.id = e.source_id"
					+ " WHERE s.repository LIKE ?) d")
			.params("%/" + name)
			.query(Long.class)
			.single();
	}

}
