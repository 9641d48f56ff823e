package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.h2.api.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.FileSystemUtils;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.PostgresDatabase;
import io.refstore.web.RefstoreApplication;

/**
 * Ingestion stays exactly-once with its bulk writes (on PostgreSQL each run's rows go in
 * with one {@code COPY}, on H2 as one JDBC batch): a run that the database fails after
 * its rows were sent, or whose connection is closed while it copies, leaves neither its
 * rows nor its new offset, and ingesting again stores every line of the file exactly
 * once. The failures are the databases' own: a trigger that refuses one run's update of
 * the source row (after that run's rows were written, in the same transaction), and
 * PostgreSQL's {@code pg_terminate_backend} of the connection in the middle of its
 * {@code COPY}. Each test starts the application on a database of its own.
 */
class JournalBulkIngestionIT {

	/**
	 * The ingester's run ({@code refstore.journal.ingest-run}) where the size is not the
	 * point.
	 */
	private static final int RUN = 2_000;

	/** The default run, where a COPY must last long enough to be interrupted. */
	private static final int DEFAULT_RUN = 20_000;

	/** Whole runs of the ingester, and some. */
	private static final int LINES = 5 * RUN + 1_234;

	/** The source's entries above which the trigger refuses the run: after two runs. */
	private static final int REFUSE_ABOVE = 2 * RUN;

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "h2", "postgresql" })
	void aRunTheDatabaseRefusesAfterItsRowsLeavesNoneOfThemAndIngestingAgainStoresEachLineOnce(String vendor)
			throws Exception {
		try (Bench bench = Bench.start(vendor, LINES, RUN)) {
			if (vendor.equals("h2")) {
				bench.sql.execute("CREATE TRIGGER refstore_test_refuse BEFORE UPDATE ON refstore_journal_source"
						+ " FOR EACH ROW CALL '" + Refuse.class.getName() + "'");
			}
			else {
				bench.sql.execute("CREATE FUNCTION refstore_test_refuse() RETURNS trigger AS $$ BEGIN"
						+ " IF NEW.entries > " + REFUSE_ABOVE + " THEN RAISE EXCEPTION 'refused by the test'; END IF;"
						+ " RETURN NEW; END $$ LANGUAGE plpgsql");
				bench.sql.execute("CREATE TRIGGER refstore_test_refuse BEFORE UPDATE ON refstore_journal_source"
						+ " FOR EACH ROW EXECUTE FUNCTION refstore_test_refuse()");
			}

			assertThatThrownBy(() -> bench.ingester.ingest(Bench.REPO)).hasStackTraceContaining("refused by the test");
			assertThat(bench.stored()).as("the two runs before the refused one, not its rows").isEqualTo(REFUSE_ABOVE);
			assertThat(bench.sourceEntries()).isEqualTo(REFUSE_ABOVE);

			bench.sql.execute(
					"DROP TRIGGER refstore_test_refuse" + (vendor.equals("h2") ? "" : " ON refstore_journal_source"));
			assertThat(bench.ingester.ingest(Bench.REPO)).isEqualTo(LINES - REFUSE_ABOVE);
			bench.assertEveryLineOnce(LINES);
		}
	}

	@Test
	void aConnectionClosedWhileItCopiesLosesOnlyItsRunAndIngestingAgainStoresEachLineOnce() throws Exception {
		int lines = 10 * DEFAULT_RUN + 17;
		try (Bench bench = Bench.start("postgresql", lines, DEFAULT_RUN)) {
			CompletableFuture<Long> ingestion = CompletableFuture.supplyAsync(() -> {
				try {
					return bench.ingester.ingest(Bench.REPO);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			// a COPY after the first run committed: a failure between runs, in the middle
			// of
			// one
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
			List<Integer> terminated = new ArrayList<>();
			while (terminated.isEmpty() && !ingestion.isDone() && System.nanoTime() < deadline) {
				if (bench.stored() > 0) {
					terminated.addAll(bench.sql.queryForList("WITH copying AS MATERIALIZED (SELECT pid FROM"
							+ " pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
							+ " AND state = 'active' AND query LIKE 'COPY refstore_journal_entry%')"
							+ " SELECT pid FROM copying WHERE pg_terminate_backend(pid)", Integer.class));
				}
			}
			assertThat(terminated).as("a connection terminated while it copied").hasSize(1);
			assertThatThrownBy(() -> ingestion.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
			long atFailure = bench.stored();
			assertThat(atFailure).as("whole runs committed before the failure").isPositive().isLessThan(lines);
			assertThat(atFailure % DEFAULT_RUN).isZero();
			assertThat(bench.sourceEntries()).isEqualTo(atFailure);

			assertThat(bench.ingester.ingest(Bench.REPO)).isEqualTo(lines - atFailure);
			bench.assertEveryLineOnce(lines);
		}
	}

	@Test
	void onPostgresqlWhichRefsPointedAtAnObjectIsAnsweredFromTheHashIndexesOfObjectIds() throws Exception {
		try (Bench bench = Bench.start("postgresql", LINES, RUN)) {
			assertThat(bench.ingester.ingest(Bench.REPO)).isEqualTo(LINES);
			bench.sql.execute("ANALYZE refstore_journal_entry");
			String object = String.format(Locale.ROOT, "%040x", 4_321);

			List<JournalEntryView> found = bench.context.getBean(JournalStore.class)
				.fleet(object, "", null, false, 0, 100);
			assertThat(found).extracting(JournalEntryView::transaction).containsExactly("t4320");

			// the store's query for an object, as the planner takes it
			String plan = String.join("\n",
					bench.sql.queryForList("EXPLAIN SELECT e.*, s.repository"
							+ " FROM refstore_journal_entry e JOIN refstore_journal_source s ON s.id = e.source_id"
							+ " WHERE 1 = 1 AND (e.old_object = '" + object + "' OR e.new_object = '" + object + "')"
							+ " ORDER BY e.id DESC FETCH FIRST 100 ROWS ONLY", String.class));
			assertThat(plan).contains("refstore_journal_entry_old_object_hash",
					"refstore_journal_entry_new_object_hash");
			assertThat(
					bench.sql.queryForList("SELECT indexdef FROM pg_indexes WHERE tablename = 'refstore_journal_entry'"
							+ " AND indexdef LIKE '%object%'", String.class))
				.hasSize(2)
				.allMatch((index) -> index.contains("USING hash"));
		}
	}

	/**
	 * An H2 trigger on the source row refusing an update that would record more than
	 * {@link #REFUSE_ABOVE} entries.
	 */
	public static final class Refuse implements Trigger {

		@Override
		public void fire(Connection connection, Object[] before, Object[] after) throws SQLException {
			// the columns in the order of the migrations: entries is the fifth
			if (((Number) after[4]).longValue() > REFUSE_ABOVE) {
				throw new SQLException("refused by the test");
			}
		}

	}

	/**
	 * The application on a fresh database (a file database of H2, or a database of its
	 * own on the test PostgreSQL server) and a repository whose journal holds
	 * {@code lines} lines, each its own transaction {@code t<n>}, none ingested yet; the
	 * ingester stores at most {@code run} entries a transaction.
	 */
	private static final class Bench implements AutoCloseable {

		static final String REPO = "bulk.git";

		final Path home;

		final PostgresDatabase db;

		final ConfigurableApplicationContext context;

		final JournalIngester ingester;

		final JdbcTemplate sql;

		final Path journal;

		private Bench(Path home, PostgresDatabase db, ConfigurableApplicationContext context, Path journal) {
			this.home = home;
			this.db = db;
			this.context = context;
			this.ingester = context.getBean(JournalIngester.class);
			this.sql = context.getBean(JdbcTemplate.class);
			this.journal = journal;
		}

		static Bench start(String vendor, int lines, int run) throws Exception {
			Path home = Files.createTempDirectory("refstore-journal-bulk").toRealPath();
			Path roots = Files.createDirectories(home.resolve("repos"));
			TempRepo repo = TempRepo.init(GitCli.system(), roots.resolve(REPO), "--bare");
			Path journal = JournalHook.journalFile(repo.gitDir());
			Files.createDirectories(journal.getParent());
			try (BufferedWriter out = Files.newBufferedWriter(journal, StandardCharsets.UTF_8)) {
				for (int i = 0; i < lines; i++) {
					String time = (1_796_000_000L + i) + ".000000000";
					// an identity with a tab and a backslash, which COPY's format escapes
					out.write("t" + i + "\t" + time + "\t" + "0".repeat(40) + "\t"
							+ String.format(Locale.ROOT, "%040x", i + 1) + "\trefs/heads/b/" + (i % 1_000)
							+ "\tgit\tGL_USERNAME=a\\tb\\\\" + i + "\n");
				}
			}
			PostgresDatabase db = vendor.equals("postgresql") ? PostgresDatabase.create("refstore_journal_bulk") : null;
			List<String> args = new ArrayList<>(List.of("--server.port=0", "--refstore.home=" + home,
					"--refstore.repositories.roots[0]=" + roots, "--refstore.demo.enabled=false",
					"--refstore.journal.ingest-interval=0", "--refstore.journal.ingest-run=" + run,
					"--refstore.journal.retention.interval=0", "--spring.main.banner-mode=off",
					// Quartz keys its data source by the scheduler's name,
					// JVM-wide: the
					// same name as the tests' shared context would hand that
					// context's
					// scheduler this one's pool, closed with it
					"--spring.quartz.scheduler-name=journal-bulk-test"));
			if (db != null) {
				args.addAll(List.of("--spring.profiles.active=postgres", "--spring.datasource.url=" + db.url(),
						"--spring.datasource.username=" + PostgresDatabase.USER,
						"--spring.datasource.password=" + PostgresDatabase.PASSWORD));
			}
			try {
				ConfigurableApplicationContext context = new SpringApplicationBuilder(RefstoreApplication.class)
					.run(args.toArray(String[]::new));
				return new Bench(home, db, context, journal);
			}
			catch (RuntimeException ex) {
				if (db != null) {
					db.close();
				}
				throw ex;
			}
		}

		long stored() {
			return this.sql.queryForObject("SELECT COUNT(*) FROM refstore_journal_entry", Long.class);
		}

		long sourceEntries() {
			return this.sql.queryForObject("SELECT entries FROM refstore_journal_source", Long.class);
		}

		/**
		 * Each line of the file in the database once, as written, and the whole file
		 * read.
		 */
		void assertEveryLineOnce(int lines) throws Exception {
			assertThat(stored()).isEqualTo(lines);
			assertThat(this.sql.queryForObject("SELECT COUNT(DISTINCT transaction_id) FROM refstore_journal_entry",
					Long.class))
				.isEqualTo(lines);
			// in the file's order: line n has the n-th smallest id
			List<String> outOfOrder = this.sql.queryForList(
					"SELECT transaction_id FROM (SELECT transaction_id,"
							+ " ROW_NUMBER() OVER (ORDER BY id) - 1 AS n FROM refstore_journal_entry) r"
							+ " WHERE transaction_id <> CONCAT('t', CAST(n AS VARCHAR(20))) FETCH FIRST 5 ROWS ONLY",
					String.class);
			assertThat(outOfOrder).isEmpty();
			int last = lines - 1;
			assertThat(this.sql.queryForObject("SELECT identity FROM refstore_journal_entry WHERE transaction_id = ?",
					String.class, "t" + last))
				.isEqualTo("GL_USERNAME=a\tb\\" + last);
			assertThat(this.sql.queryForObject("SELECT file_offset FROM refstore_journal_source", Long.class))
				.isEqualTo(Files.size(this.journal));
			assertThat(sourceEntries()).isEqualTo(lines);
		}

		@Override
		public void close() {
			try {
				this.context.close();
			}
			finally {
				if (this.db != null) {
					this.db.close();
				}
				FileSystemUtils.deleteRecursively(this.home.toFile());
			}
		}

	}

}
