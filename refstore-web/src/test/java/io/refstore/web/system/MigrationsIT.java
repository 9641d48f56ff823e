package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;

import io.refstore.web.PostgresDatabase;

/**
 * The one set of Flyway migrations (batch V1..V19, web V20..V39, schedules and campaigns V40..V59) applied to
 * an empty H2 database and an empty PostgreSQL database, configured as {@code application.yml} and the
 * {@code postgres} profile configure them: both end with the same tables at the same version, and a second run
 * finds nothing to do.
 */
class MigrationsIT {

	private static final List<String> TABLES = List.of("batch_job_execution", "batch_step_execution_context",
			"refstore_job_lease", "refstore_api_token", "refstore_audit_event", "qrtz_triggers", "qrtz_cron_triggers",
			"qrtz_locks", "qrtz_scheduler_state");

	@Test
	void migrationsBuildTheSameTablesOnH2AndPostgres() throws Exception {
		Path dir = Files.createTempDirectory("refstore-migrations");
		String h2 = "jdbc:h2:file:" + dir.resolve("db") + ";WRITE_DELAY=0";
		try (PostgresDatabase postgres = PostgresDatabase.create("refstore_migrations")) {
			MigrateResult onH2 = flyway(h2, "sa", "", "classpath:db/migration").migrate();
			MigrateResult onPostgres = flyway(postgres.url(), PostgresDatabase.USER, PostgresDatabase.PASSWORD,
					"classpath:db/migration", "classpath:db/postgresql").migrate();

			assertThat(onH2.success).isTrue();
			assertThat(onPostgres.success).isTrue();
			assertThat(onPostgres.targetSchemaVersion).isEqualTo(onH2.targetSchemaVersion);
			assertThat(versions(onPostgres)).isEqualTo(versions(onH2)).contains("1", "2", "20", "21", "40");
			try (Connection connection = java.sql.DriverManager.getConnection(h2, "sa", "")) {
				assertThat(tables(connection)).containsAll(TABLES);
			}
			try (Connection connection = postgres.connect()) {
				assertThat(tables(connection)).containsAll(TABLES);
			}

			assertThat(flyway(h2, "sa", "", "classpath:db/migration").migrate().migrationsExecuted).isZero();
			assertThat(flyway(postgres.url(), PostgresDatabase.USER, PostgresDatabase.PASSWORD,
					"classpath:db/migration", "classpath:db/postgresql").migrate().migrationsExecuted).isZero();
		}
	}

	private static Flyway flyway(String url, String user, String password, String... locations) {
		return Flyway.configure().dataSource(url, user, password).locations(locations).outOfOrder(true).load();
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
