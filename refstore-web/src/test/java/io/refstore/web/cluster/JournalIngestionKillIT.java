package io.refstore.web.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.PostgresDatabase;

/**
 * The journal's ingestion killed with {@code SIGKILL} part way through a large file (on
 * PostgreSQL): the runs it committed are kept with their offset, the one under way is
 * rolled back, and the application started again reads on from there, so every line of
 * the file is in the database exactly once, lines appended since included.
 */
class JournalIngestionKillIT {

	/** Lines in the journal: several of the ingester's runs of 20,000. */
	private static final int LINES = 120_000;

	@Test
	void aKilledIngestionIsReadOnFromItsLastRunAndStoresEveryLineOnce() throws Exception {
		Path dir = Files.createTempDirectory("refstore-journal-kill").toRealPath();
		Path root = Files.createDirectories(dir.resolve("repos"));
		TempRepo repo = TempRepo.init(GitCli.reftable(), root.resolve("journaled.git"), "--bare");
		String commit = repo.commit("one", null);
		Path journal = JournalHook.journalFile(repo.gitDir());
		Files.createDirectories(journal.getParent());
		write(journal, 0, LINES, commit);
		try (PostgresDatabase db = PostgresDatabase.create("refstore_journal_kill")) {
			long atKill;
			try (AppProcess app = start("ingest-a", db, dir, root)) {
				app.awaitUp();
				await("a run of entries committed", () -> count(db, "SELECT COUNT(*) FROM refstore_journal_entry") > 0);
				app.kill();
				atKill = count(db, "SELECT COUNT(*) FROM refstore_journal_entry");
			}
			assertThat(atKill).as("entries committed before the kill").isBetween(1L, LINES - 1L);
			assertThat(atKill % 20_000).as("whole runs").isZero();
			write(journal, LINES, 10, commit);

			try (AppProcess app = start("ingest-b", db, dir, root)) {
				app.awaitUp();
				await("every line ingested",
						() -> count(db, "SELECT COUNT(*) FROM refstore_journal_entry") >= LINES + 10);
			}
			assertThat(count(db, "SELECT COUNT(*) FROM refstore_journal_entry")).isEqualTo(LINES + 10);
			assertThat(count(db, "SELECT COUNT(DISTINCT transaction_id) FROM refstore_journal_entry"))
				.isEqualTo(LINES + 10);
			assertThat(count(db, "SELECT MIN(entries) FROM refstore_journal_source")).isEqualTo(LINES + 10);
			assertThat(count(db, "SELECT MIN(file_offset) FROM refstore_journal_source"))
				.isEqualTo(Files.size(journal));
		}
		// kept when a check failed above, for its logs
		FileSystemUtils.deleteRecursively(dir);
	}

	/** Appends {@code count} lines as the hook writes them, one transaction each. */
	private static void write(Path journal, int from, int count, String commit) throws Exception {
		try (BufferedWriter out = Files.newBufferedWriter(journal, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
				StandardOpenOption.APPEND)) {
			for (int i = from; i < from + count; i++) {
				String time = (1_796_000_000L + i) + ".000000000";
				out.write(time + "-" + i + "\t" + time + "\t" + "0".repeat(40) + "\t" + commit + "\trefs/heads/b/" + i
						+ "\tgit\tGL_USERNAME=alice\n");
			}
		}
	}

	private static AppProcess start(String id, PostgresDatabase db, Path dir, Path root) throws Exception {
		Path home = Files.createDirectories(dir.resolve(id));
		return AppProcess.start(id, db.url(), home, root, dir.resolve(id + ".log"),
				"--refstore.journal.ingest-interval=1s");
	}

	private static long count(PostgresDatabase db, String sql) throws SQLException {
		try (Connection connection = db.connect();
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(sql)) {
			rows.next();
			return rows.getLong(1);
		}
	}

	private static void await(String what, java.util.concurrent.Callable<Boolean> condition) {
		Awaitility.await(what)
			.atMost(Duration.ofSeconds(180))
			.pollInterval(Duration.ofMillis(20))
			.ignoreExceptions()
			.until(condition);
	}

}
