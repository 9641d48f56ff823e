package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import io.refstore.batch.support.ReplacedJavaMigrations;
import io.refstore.web.PostgresDatabase;

/**
 * Migration V60 on H2 and on PostgreSQL: a database whose ref journal kept repositories
 * under the names requests used (a repository's path and its qualified name, each a
 * source row with the same entries) is upgraded to one row per repository, named by its
 * storage and path, with its entries once. The database is made by the migrations up to
 * V59 and filled as the application before the change filled it.
 */
class JournalSourceMigrationIT {

	@Test
	void anUpgradedH2DatabaseKeepsEachRepositorysEntriesOnceUnderItsStorageAndPath() throws Exception {
		Path dir = Files.createTempDirectory("refstore-journal-names");
		String url = "jdbc:h2:file:" + dir.resolve("db") + ";WRITE_DELAY=0";
		upgradeKeepsEachRepositoryOnce(url, "sa", "");
	}

	@Test
	void anUpgradedPostgresDatabaseKeepsEachRepositorysEntriesOnceUnderItsStorageAndPath() throws Exception {
		try (PostgresDatabase postgres = PostgresDatabase.create("refstore_journal_names")) {
			upgradeKeepsEachRepositoryOnce(postgres.url(), PostgresDatabase.USER, PostgresDatabase.PASSWORD);
		}
	}

	private void upgradeKeepsEachRepositoryOnce(String url, String user, String password) throws Exception {
		assertThat(flyway(url, user, password, "59").migrate().targetSchemaVersion).isEqualTo("59");
		try (Connection connection = DriverManager.getConnection(url, user, password);
				Statement sql = connection.createStatement()) {
			sql.execute("INSERT INTO refstore_node (name, started_at, heartbeat_at) VALUES"
					+ " ('alpha', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP), ('beta', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)");
			sql.execute("INSERT INTO refstore_storage (name, node, storage_id, root) VALUES"
					+ " ('s-alpha', 'alpha', 'a1', '/srv/a'), ('s-beta', 'beta', 'b1', '/srv/b')");
			sql.execute("INSERT INTO refstore_fleet_repository (storage, path, node, seen_at) VALUES"
					+ " ('s-beta', 'team/journaled.git', 'beta', CURRENT_TIMESTAMP),"
					+ " ('s-alpha', 'solo.git', 'alpha', CURRENT_TIMESTAMP),"
					+ " ('s-alpha', 'twice.git', 'alpha', CURRENT_TIMESTAMP),"
					+ " ('s-beta', 'twice.git', 'beta', CURRENT_TIMESTAMP)");
			// the sweep's name and the console's, each with the file's 3 entries; the
			// console's read less far and has a retention of its own
			long sweep = source(sql, "team/journaled.git", 300, null);
			long console = source(sql, "s-beta/team/journaled.git", 200, 7);
			entries(sql, sweep, "refs/heads/a", "refs/heads/b", "refs/heads/c");
			entries(sql, console, "refs/heads/a", "refs/heads/b");
			entries(sql, source(sql, "solo.git", 100, null), "refs/heads/solo");
			// two storages hold it: which one the row was is unknown, so it stays
			entries(sql, source(sql, "twice.git", 100, null), "refs/heads/twice");
			// no inventory knows it
			entries(sql, source(sql, "gone.git", 100, null), "refs/heads/gone");
			entries(sql, source(sql, "s-alpha/qualified.git", 100, 3), "refs/heads/q");
		}

		// to the newest version: the migrations after V60 keep what it left
		assertThat(flyway(url, user, password, null).migrate().migrationsExecuted).isPositive();

		try (Connection connection = DriverManager.getConnection(url, user, password);
				Statement sql = connection.createStatement()) {
			assertThat(rows(sql,
					"SELECT s.repository, s.file_offset, s.max_age_days, COUNT(e.id)"
							+ " FROM refstore_journal_source s LEFT JOIN refstore_journal_entry e ON e.source_id = s.id"
							+ " GROUP BY s.repository, s.file_offset, s.max_age_days ORDER BY s.repository"))
				.containsExactly("gone.git 100 null 1", "s-alpha/qualified.git 100 3 1", "s-alpha/solo.git 100 null 1",
						"s-beta/team/journaled.git 300 7 3", "twice.git 100 null 1");
			assertThat(rows(sql,
					"SELECT e.ref_name FROM refstore_journal_entry e JOIN refstore_journal_source s"
							+ " ON s.id = e.source_id WHERE s.repository = 's-beta/team/journaled.git' ORDER BY e.id"))
				.containsExactly("refs/heads/a", "refs/heads/b", "refs/heads/c");
			assertThat(rows(sql, "SELECT COUNT(*) FROM refstore_journal_entry")).containsExactly("7");
			assertThat(rows(sql, "SELECT COUNT(*) FROM refstore_journal_source")).containsExactly("5");
		}
	}

	private static Flyway flyway(String url, String user, String password, String target) {
		String vendor = url.startsWith("jdbc:postgresql:") ? "postgresql" : "h2";
		var configuration = Flyway.configure()
			.dataSource(url, user, password)
			.locations("classpath:db/migration", "classpath:db/" + vendor)
			.outOfOrder(true)
			.callbacks(new ReplacedJavaMigrations());
		if (target != null) {
			configuration.target(target);
		}
		return configuration.load();
	}

	private static long source(Statement sql, String repository, long offset, Integer maxAgeDays) throws SQLException {
		sql.execute("INSERT INTO refstore_journal_source (repository, file_offset, entries, skipped, max_age_days)"
				+ " VALUES ('" + repository + "', " + offset + ", 0, 0, " + maxAgeDays + ")");
		try (ResultSet rs = sql
			.executeQuery("SELECT id FROM refstore_journal_source WHERE repository = '" + repository + "'")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	private static void entries(Statement sql, long source, String... refs) throws SQLException {
		for (String ref : refs) {
			sql.execute("INSERT INTO refstore_journal_entry (source_id, transaction_id, recorded_at, old_value,"
					+ " new_value, deletion, ref_name, ref_key, writer, identity) VALUES (" + source
					+ ", 't', CURRENT_TIMESTAMP, '" + "0".repeat(40) + "', '" + "1".repeat(40) + "', FALSE, '" + ref
					+ "', '" + ref + "', 'git', '')");
		}
	}

	private static List<String> rows(Statement sql, String query) throws SQLException {
		List<String> rows = new ArrayList<>();
		try (ResultSet rs = sql.executeQuery(query)) {
			int columns = rs.getMetaData().getColumnCount();
			while (rs.next()) {
				List<String> row = new ArrayList<>();
				for (int i = 1; i <= columns; i++) {
					row.add(String.valueOf(rs.getObject(i)));
				}
				rows.add(String.join(" ", row));
			}
		}
		return rows;
	}

}
