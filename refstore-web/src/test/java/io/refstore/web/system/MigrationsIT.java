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
import java.util.Locale;
import java.util.TreeSet;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

import io.refstore.batch.support.ReplacedJavaMigrations;
import io.refstore.web.PostgresDatabase;

/**
 * The one set of Flyway migrations (batch V1..V19, web V20..V39, schedules and campaigns
 * V40..V59) applied to an empty H2 database and an empty PostgreSQL database, configured
 * as {@code application.yml} configures them ({@code db/migration} and
 * {@code db/<vendor>}): both end with the same tables at the same version, and a second
 * run finds nothing to do. A database that the Java migrations of Spring Batch and Quartz
 * made (dumps in {@code db/upgrade/from-java-migrations}) is upgraded to the SQL files in
 * place: same history and columns as a new one, where Flyway alone refuses it.
 */
class MigrationsIT {

	private static final String BEFORE = "db/upgrade/from-java-migrations/";

	private static final List<String> TABLES = List.of("batch_job_execution", "batch_step_execution_context",
			"refstore_job_lease", "refstore_api_token", "refstore_audit_event", "qrtz_triggers", "qrtz_cron_triggers",
			"qrtz_locks", "qrtz_scheduler_state", "refstore_campaign", "refstore_campaign_target", "refstore_node",
			"refstore_storage", "refstore_fleet_repository", "refstore_job_handoff", "int_channel_message",
			"refstore_fleet_trust", "refstore_journal_source", "refstore_journal_entry");

	@Test
	void twoNodesRunningTheCallbackAtOnceOnANewPostgresDatabaseBothSucceed() throws Exception {
		String callback = new ClassPathResource("db/postgresql/beforeMigrate.sql")
			.getContentAsString(java.nio.charset.StandardCharsets.UTF_8);
		try (PostgresDatabase postgres = PostgresDatabase.create("refstore_callback");
				Connection first = postgres.connect();
				Connection second = postgres.connect()) {
			first.setAutoCommit(false);
			second.setAutoCommit(false);
			try (Statement statement = first.createStatement()) {
				statement.execute(callback);
			}
			// the second waits on the first's uncommitted domain, which commits meanwhile
			java.util.concurrent.CompletableFuture<Void> waiting = java.util.concurrent.CompletableFuture
				.runAsync(() -> {
					try (Statement statement = second.createStatement()) {
						statement.execute(callback);
						second.commit();
					}
					catch (SQLException ex) {
						throw new java.util.concurrent.CompletionException(ex);
					}
				});
			Thread.sleep(500);
			first.commit();

			waiting.get(30, java.util.concurrent.TimeUnit.SECONDS);
			try (Statement statement = first.createStatement();
					ResultSet domains = statement
						.executeQuery("SELECT count(*) FROM pg_type WHERE typname = 'clob' AND typtype = 'd'")) {
				assertThat(domains.next()).isTrue();
				assertThat(domains.getInt(1)).isEqualTo(1);
			}
		}
	}

	@Test
	void migrationsBuildTheSameTablesOnH2AndPostgres() throws Exception {
		Path dir = Files.createTempDirectory("refstore-migrations");
		String h2 = "jdbc:h2:file:" + dir.resolve("db") + ";WRITE_DELAY=0";
		try (PostgresDatabase postgres = PostgresDatabase.create("refstore_migrations")) {
			MigrateResult onH2 = flyway(h2, "sa", "").migrate();
			MigrateResult onPostgres = flyway(postgres.url(), PostgresDatabase.USER, PostgresDatabase.PASSWORD)
				.migrate();

			assertThat(onH2.success).isTrue();
			assertThat(onPostgres.success).isTrue();
			assertThat(onPostgres.targetSchemaVersion).isEqualTo(onH2.targetSchemaVersion);
			assertThat(versions(onPostgres)).isEqualTo(versions(onH2)).contains("1", "2", "20", "21", "40", "42");
			try (Connection connection = DriverManager.getConnection(h2, "sa", "")) {
				assertThat(tables(connection)).containsAll(TABLES).doesNotContain("int_lock");
			}
			try (Connection connection = postgres.connect()) {
				assertThat(tables(connection)).containsAll(TABLES).doesNotContain("int_lock");
			}

			assertThat(flyway(h2, "sa", "").migrate().migrationsExecuted).isZero();
			assertThat(flyway(postgres.url(), PostgresDatabase.USER, PostgresDatabase.PASSWORD)
				.migrate().migrationsExecuted).isZero();
		}
	}

	@Test
	void databasesOfTheJavaMigrationsUpgradeToTheSqlFiles() throws Exception {
		Path dir = Files.createTempDirectory("refstore-upgrade");
		String oldH2 = "jdbc:h2:file:" + dir.resolve("old") + ";WRITE_DELAY=0";
		String newH2 = "jdbc:h2:file:" + dir.resolve("new") + ";WRITE_DELAY=0";
		try (Connection connection = DriverManager.getConnection(oldH2, "sa", "");
				Statement statement = connection.createStatement()) {
			statement.execute("RUNSCRIPT FROM 'classpath:/" + BEFORE + "h2.sql'");
		}
		try (PostgresDatabase oldPostgres = PostgresDatabase.create("refstore_upgrade_old");
				PostgresDatabase newPostgres = PostgresDatabase.create("refstore_upgrade_new")) {
			try (Connection connection = oldPostgres.connect()) {
				ScriptUtils.executeSqlScript(connection, new ClassPathResource(BEFORE + "postgresql.sql"));
			}
			String user = PostgresDatabase.USER;
			String password = PostgresDatabase.PASSWORD;
			assertThat(history(oldH2, "sa", "")).contains("1 JDBC db.migration.V1__spring_batch_schema null",
					"40 JDBC db.migration.V40__quartz_schema null");
			assertThat(history(oldPostgres.url(), user, password)).isEqualTo(history(oldH2, "sa", ""));
			assertThat(plain(oldH2, "sa", "").validateWithResult().validationSuccessful).isFalse();
			assertThat(plain(oldPostgres.url(), user, password).validateWithResult().validationSuccessful).isFalse();

			// the replaced Java migrations do not run again: only migrations newer than
			// the dump (V42) do
			assertThat(flyway(oldH2, "sa", "").migrate().migrations).extracting((migration) -> migration.version)
				.allMatch((version) -> Integer.parseInt(version) > 42);
			assertThat(flyway(oldPostgres.url(), user, password).migrate().migrations)
				.extracting((migration) -> migration.version)
				.allMatch((version) -> Integer.parseInt(version) > 42);
			flyway(newH2, "sa", "").migrate();
			flyway(newPostgres.url(), user, password).migrate();

			assertThat(history(oldH2, "sa", "")).isEqualTo(history(newH2, "sa", ""))
				.contains("1 SQL V1__spring_batch_schema.sql " + checksum("db/h2/V1__spring_batch_schema.sql"));
			assertThat(history(oldPostgres.url(), user, password)).isEqualTo(history(newPostgres.url(), user, password))
				.contains("40 SQL V40__quartz_schema.sql " + checksum("db/postgresql/V40__quartz_schema.sql"));
			assertThat(columns(oldH2, "sa", "")).isEqualTo(columns(newH2, "sa", "")).isNotEmpty();
			assertThat(columns(oldPostgres.url(), user, password)).isEqualTo(columns(newPostgres.url(), user, password))
				.isNotEmpty();
			assertThat(plain(oldH2, "sa", "").validateWithResult().validationSuccessful).isTrue();
			assertThat(plain(oldPostgres.url(), user, password).validateWithResult().validationSuccessful).isTrue();
		}
	}

	/**
	 * Flyway as the application configures it, with its callback for the replaced Java
	 * migrations.
	 */
	private static Flyway flyway(String url, String user, String password) {
		return configure(url, user, password).callbacks(new ReplacedJavaMigrations()).load();
	}

	/** Without the callback. */
	private static Flyway plain(String url, String user, String password) {
		return configure(url, user, password).load();
	}

	private static FluentConfiguration configure(String url, String user, String password) {
		String vendor = url.startsWith("jdbc:postgresql:") ? "postgresql" : "h2";
		return Flyway.configure()
			.dataSource(url, user, password)
			.locations("classpath:db/migration", "classpath:db/" + vendor)
			.outOfOrder(true);
	}

	/**
	 * Flyway's history, one "version type script checksum" line per migration, in order.
	 */
	private static List<String> history(String url, String user, String password) throws SQLException {
		List<String> rows = new ArrayList<>();
		try (Connection connection = DriverManager.getConnection(url, user, password);
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT \"version\", \"type\", \"script\", \"checksum\""
						+ " FROM \"flyway_schema_history\" WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"")) {
			while (rs.next()) {
				rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getObject(4));
			}
		}
		return rows;
	}

	/**
	 * Every column of every table but Flyway's history: "table.column type size
	 * nullable".
	 */
	private static TreeSet<String> columns(String url, String user, String password) throws SQLException {
		TreeSet<String> columns = new TreeSet<>();
		try (Connection connection = DriverManager.getConnection(url, user, password);
				ResultSet rs = connection.getMetaData().getColumns(null, connection.getSchema(), "%", "%")) {
			while (rs.next()) {
				String table = rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT);
				if (!table.equals("flyway_schema_history")) {
					columns.add(table + "." + rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT) + " "
							+ rs.getString("TYPE_NAME") + " " + rs.getInt("COLUMN_SIZE") + " "
							+ rs.getString("IS_NULLABLE"));
				}
			}
		}
		return columns;
	}

	private static int checksum(String resource) {
		return ReplacedJavaMigrations.checksum(MigrationsIT.class.getClassLoader().getResource(resource));
	}

	private static List<String> versions(MigrateResult result) {
		List<String> versions = new ArrayList<>();
		result.migrations.forEach((migration) -> versions.add(migration.version));
		return versions;
	}

	private static TreeSet<String> tables(Connection connection) throws SQLException {
		TreeSet<String> names = new TreeSet<>();
		try (ResultSet rs = connection.getMetaData().getTables(null, null, "%", new String[] { "TABLE" })) {
			while (rs.next()) {
				names.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
			}
		}
		return names;
	}

}
