package io.refstore.web.console.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.Arrays;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.jobs.JobPage;

/**
 * The dashboard over a large fleet ({@link #REPOSITORIES}: 5,000 in the build, 100,000
 * when measured): the inventory rows are written with SQL statements into the test's H2
 * database (as the repositories' nodes would record them, in a storage of their own that
 * this node does not hold), then the first page, a search, a filter, a late page and the
 * worst-first order's late page are each timed in the server (MockMvc, no network) after
 * a warm-up, and printed: the bound is 300 ms. Each answer is checked too: the
 * right page of the right total. The rows are removed afterwards, so that the other tests
 * of the shared context never see them.
 */
class DashboardScaleTest extends ConsoleTestSupport {

	/**
	 * How many repositories: 5,000 in the build (the file database takes about a minute
	 * to index 100,000 rows and another to delete them), 100,000 for the measurement:
	 * {@code -Drefstore.dashboard.repositories=100000}.
	 */
	static final int REPOSITORIES = Integer.getInteger("refstore.dashboard.repositories", 5_000);

	static final String STORAGE = "scale-test";

	@Autowired
	JdbcTemplate jdbc;

	private static JdbcTemplate rows;

	@BeforeAll
	static void none() {
		// the rows are written by the first test's instance (the template is a bean)
	}

	private void write() {
		if (rows != null) {
			return;
		}
		rows = this.jdbc;
		// every tenth repository reftable, loose refs, refs and bytes spread by
		// multiplying with primes, due when a files store has 300 loose refs or more;
		// 10,000 a statement, as H2 slows down on one transaction of 100,000 rows
		for (int from = 0; from < REPOSITORIES; from += 10_000) {
			int to = Math.min(from + 10_000, REPOSITORIES) - 1;
			this.jdbc.update("INSERT INTO refstore_fleet_repository (storage, path, node, format, refs, loose_refs,"
					+ " bytes, maintenance_due, error, seen_at) SELECT ?, 'group-' || LPAD(CAST(MOD(X, 1000) AS"
					+ " VARCHAR), 3, '0') || '/project-' || LPAD(CAST(X AS VARCHAR), 6, '0') || '.git', 'scale-node',"
					+ " CASE WHEN MOD(X, 10) = 0 THEN 'reftable' ELSE 'files' END, 100 + MOD(X * 104729, 1000000),"
					+ " CASE WHEN MOD(X, 10) = 0 THEN 0 ELSE MOD(X * 7919, 500) END, 4096 + MOD(X * 15485863,"
					+ " 50000000), MOD(X, 10) <> 0 AND MOD(X * 7919, 500) >= 300, NULL, CURRENT_TIMESTAMP FROM"
					+ " SYSTEM_RANGE(?, ?)", STORAGE, from, to);
		}
	}

	@AfterAll
	static void removeThem() {
		if (rows != null) {
			rows.update("DELETE FROM refstore_fleet_repository WHERE storage = ?", STORAGE);
			rows = null;
		}
	}

	@Test
	void everyPageOfAHundredThousandRepositoriesAnswersFromTheInventory() throws Exception {
		long started = System.nanoTime();
		write();
		double fixture = (System.nanoTime() - started) / 1e9;
		long due = this.jdbc.queryForObject(
				"SELECT COUNT(*) FROM refstore_fleet_repository WHERE storage = ? AND maintenance_due = TRUE",
				Long.class, STORAGE);

		Timed first = timed(get("/"));
		Timed search = timed(get("/").param("q", "Project-00424"));
		Timed filter = timed(get("/").param("due", "true").param("format", "files"));
		String lateOffset = Integer.toString(REPOSITORIES - 50);
		Timed late = timed(get("/").param("sort", "name").param("offset", lateOffset));
		Timed worstLate = timed(get("/").param("offset", lateOffset));
		Timed refs = timed(get("/").param("sort", "refs").param("offset", Integer.toString(REPOSITORIES / 2)));
		System.out.printf(
				"Dashboard over %,d repositories (H2; rows written in %.1f s): first page %d ms, search %d ms,"
						+ " filter %d ms, late page by name %d ms, late page worst first %d ms, middle page by refs"
						+ " %d ms (median of 5 after a warm-up)%n",
				REPOSITORIES, fixture, first.millis, search.millis, filter.millis, late.millis, worstLate.millis,
				refs.millis);

		assertThat(first.page.total()).isGreaterThanOrEqualTo(REPOSITORIES);
		assertThat(first.page.text()).startsWith("1–50 of ");
		// worst first: the due ones lead, the most loose refs first
		assertThat(DashboardControllerTest.rows(first.result)).first()
			.satisfies((row) -> assertThat(row.stored().maintenanceDue()).isTrue());
		assertThat(search.page.total()).isEqualTo(10);
		assertThat(DashboardControllerTest.rows(search.result)).extracting(DashboardRow::name)
			.allMatch((name) -> name.contains("project-00424"));
		assertThat(filter.page.total()).isGreaterThanOrEqualTo(due);
		assertThat(DashboardControllerTest.rows(filter.result))
			.allSatisfy((row) -> assertThat(row.stored().maintenanceDue()).isTrue());
		String lateFirst = String.format(java.util.Locale.ROOT, "%,d–", REPOSITORIES - 49);
		assertThat(late.page.text()).startsWith(lateFirst);
		assertThat(DashboardControllerTest.rows(late.result)).isNotEmpty();
		assertThat(worstLate.page.text()).startsWith(lateFirst);
	}

	/** The median of five answers to {@code request} after one warm-up. */
	private Timed timed(MockHttpServletRequestBuilder request) throws Exception {
		this.mvc.perform(request.with(viewer())).andExpect(status().isOk());
		long[] millis = new long[5];
		MvcResult result = null;
		for (int i = 0; i < millis.length; i++) {
			long started = System.nanoTime();
			result = this.mvc.perform(request.with(viewer())).andExpect(status().isOk()).andReturn();
			millis[i] = (System.nanoTime() - started) / 1_000_000;
		}
		Arrays.sort(millis);
		return new Timed(millis[2], result, (JobPage) result.getModelAndView().getModel().get("page"));
	}

	private record Timed(long millis, MvcResult result, JobPage page) {
	}

}
