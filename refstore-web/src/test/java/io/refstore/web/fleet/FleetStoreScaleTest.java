package io.refstore.web.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.Supplier;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import io.refstore.web.PostgresDatabase;

/**
 * The dashboard's queries ({@link FleetStore#page}) over 100,000 inventory rows on
 * PostgreSQL, migrated by the application's Flyway migrations (V59's indexes included):
 * the first page worst first, a search, a filter, a late page by name and worst first,
 * each timed after a warm-up and printed (the bound for the whole page is 300 ms;
 * {@code DashboardScaleTest} times the whole page on H2), on the test PostgreSQL server
 * ({@link PostgresDatabase}: it fails, never skips, where that server cannot be reached).
 */
class FleetStoreScaleTest {

	static final int REPOSITORIES = 100_000;

	@Test
	void theDashboardsPagesOfAHundredThousandRepositoriesOnPostgresql() throws Exception {
		try (PostgresDatabase database = PostgresDatabase.create("dashboard_scale")) {
			Flyway.configure()
				.dataSource(database.url(), PostgresDatabase.USER, PostgresDatabase.PASSWORD)
				.locations("classpath:db/migration", "classpath:db/postgresql")
				.outOfOrder(true)
				.load()
				.migrate();
			// one connection, as a pool would lend: a new one per query would be timed
			SingleConnectionDataSource source = new SingleConnectionDataSource(database.url(), PostgresDatabase.USER,
					PostgresDatabase.PASSWORD, true);
			JdbcTemplate template = new JdbcTemplate(source);
			FleetStore store = new FleetStore(JdbcClient.create(source), template,
					new TransactionTemplate(new DataSourceTransactionManager(source)));
			long started = System.nanoTime();
			template.update("INSERT INTO refstore_fleet_repository (storage, path, node, format, refs, loose_refs,"
					+ " bytes, maintenance_due, error, seen_at) SELECT 'scale', 'group-' || LPAD(CAST(MOD(X, 1000) AS"
					+ " VARCHAR), 3, '0') || '/project-' || LPAD(CAST(X AS VARCHAR), 6, '0') || '.git', 'scale-node',"
					+ " CASE WHEN MOD(X, 10) = 0 THEN 'reftable' ELSE 'files' END, 100 + MOD(X * 104729, 1000000),"
					+ " CASE WHEN MOD(X, 10) = 0 THEN 0 ELSE MOD(X * 7919, 500) END, 4096 + MOD(X * 15485863,"
					+ " 50000000), MOD(X, 10) <> 0 AND MOD(X * 7919, 500) >= 300, NULL, CURRENT_TIMESTAMP FROM"
					+ " generate_series(CAST(0 AS BIGINT), ?) AS g(X)", REPOSITORIES - 1);
			template.execute("ANALYZE refstore_fleet_repository");
			double fixture = (System.nanoTime() - started) / 1e9;
			Duration down = Duration.ofSeconds(20);
			FleetQuery all = new FleetQuery(null, null, null, null, FleetQuery.Order.WORST, 0, 50);

			Timed first = timed(() -> store.page(all, down));
			Timed search = timed(() -> store
				.page(new FleetQuery("PROJECT-04242", null, null, null, FleetQuery.Order.WORST, 0, 50), down));
			Timed filter = timed(
					() -> store.page(new FleetQuery(null, null, "files", true, FleetQuery.Order.WORST, 0, 50), down));
			Timed lateByName = timed(() -> store.page(all.page(FleetQuery.Order.NAME, 99_950, 50), down));
			Timed lateWorst = timed(() -> store.page(all.page(FleetQuery.Order.WORST, 99_950, 50), down));
			System.out.printf(
					"Dashboard queries over %,d repositories (PostgreSQL; rows written in %.1f s): first page %d ms,"
							+ " search %d ms, filter %d ms, late page by name %d ms, late page worst first %d ms"
							+ " (median of 5 after a warm-up)%n",
					REPOSITORIES, fixture, first.millis, search.millis, filter.millis, lateByName.millis,
					lateWorst.millis);

			assertThat(first.page.total()).isEqualTo(REPOSITORIES);
			assertThat(first.page.repositories()).hasSize(50)
				.allSatisfy((row) -> assertThat(row.maintenanceDue()).isTrue());
			assertThat(search.page.total()).isEqualTo(10);
			assertThat(filter.page.repositories()).allSatisfy((row) -> assertThat(row.maintenanceDue()).isTrue());
			assertThat(lateByName.page.repositories()).hasSize(50);
			assertThat(lateByName.page.repositories().get(49).path()).isEqualTo("group-999/project-099999.git");
			assertThat(lateWorst.page.repositories()).hasSize(50)
				.allSatisfy((row) -> assertThat(row.maintenanceDue()).isFalse());
			source.destroy();
		}
	}

	private static Timed timed(Supplier<FleetPage> query) {
		query.get();
		long[] millis = new long[5];
		FleetPage page = null;
		for (int i = 0; i < millis.length; i++) {
			long started = System.nanoTime();
			page = query.get();
			millis[i] = (System.nanoTime() - started) / 1_000_000;
		}
		Arrays.sort(millis);
		return new Timed(millis[2], page);
	}

	private record Timed(long millis, FleetPage page) {
	}

}
