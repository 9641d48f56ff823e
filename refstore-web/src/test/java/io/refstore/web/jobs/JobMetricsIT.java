package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.jayway.jsonpath.JsonPath;

/**
 * The job metrics Prometheus scrapes agree with the job API: executions per type and
 * status count what {@code GET /api/jobs} lists, launches are counted, and a running
 * migration shows its current step's progress, rate and ETA under its repository's name
 * until it ends. The executions are the fleet's: only the node holding the lease
 * {@code work:fleet-metrics} exports them.
 */
class JobMetricsIT extends JobApiTestSupport {

	@Autowired
	JobMetrics metrics;

	@Autowired
	JdbcClient jdbc;

	/** Verifies {@code name}, once the verification completed. */
	private void verified(String name) throws Exception {
		long id = id(this.mvc
			.perform(postJson("/api/jobs/verifications", "{\"repository\": \"" + name + "\"}").with(as("operator")))
			.andReturn()
			.getResponse()
			.getContentAsString());
		assertThat(awaitEnd(id).read("$.status", String.class)).isEqualTo("COMPLETED");
	}

	@Test
	void executionCountsMatchTheHistoryAndLaunchesAreCounted() throws Exception {
		String name = uniqueName("jobs-metrics");
		repoWithBranches(name, 3);
		double launchesBefore = prometheusValue(prometheusScrape(), "refstore_jobs_events_total", "action=\"launch\"",
				"outcome=\"accepted\"");
		verified(name);
		// schedules of earlier tests in this context may still launch verifications: the
		// gauge and the history are compared until a moment between two of them
		AtomicReference<String> scrape = new AtomicReference<>();
		AtomicInteger completed = new AtomicInteger(-1);
		Awaitility.await("the gauge to match the history")
			.atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(200))
			.untilAsserted(() -> {
				this.metrics.refresh();
				scrape.set(prometheusScrape());
				String listed = this.mvc
					.perform(get("/api/jobs").param("type", "verify")
						.param("status", "COMPLETED")
						.param("size", "500")
						.with(as("viewer")))
					.andReturn()
					.getResponse()
					.getContentAsString();
				completed.set(JsonPath.<List<?>>read(listed, "$.jobs").size());
				assertThat(prometheusValue(scrape.get(), "refstore_jobs_executions", "type=\"verify\"",
						"status=\"COMPLETED\""))
					.isEqualTo(completed.get());
			});
		assertThat(completed.get()).isGreaterThanOrEqualTo(1);
		assertThat(prometheusValue(scrape.get(), "refstore_jobs_events_total", "action=\"launch\"",
				"outcome=\"accepted\""))
			.isEqualTo(Double.isNaN(launchesBefore) ? 1 : launchesBefore + 1);
	}

	@Test
	void onlyTheNodeHoldingTheFleetMetricsLeaseExportsTheExecutions() throws Exception {
		String name = uniqueName("jobs-metrics-fleet");
		repoWithBranches(name, 3);
		verified(name);
		this.metrics.refresh();
		String alone = prometheusScrape();
		assertThat(prometheusValue(alone, "refstore_jobs_executions", "type=\"verify\"", "status=\"COMPLETED\""))
			.isPositive();
		assertThat(alone).contains("refstore_fleet_reporter 1.0");
		// another node of the fleet took the role over (this one's lease ran out)
		this.jdbc.sql("DELETE FROM REFSTORE_JOB_LEASE WHERE REPOSITORY = 'work:fleet-metrics'").update();
		Timestamp now = Timestamp.from(Instant.now());
		this.jdbc
			.sql("INSERT INTO REFSTORE_JOB_LEASE (REPOSITORY, JOB_NAME, EXECUTION_ID, OWNER_INSTANCE, ACQUIRED,"
					+ " HEARTBEAT, EXPIRES_AT) VALUES ('work:fleet-metrics', 'held work', NULL, 'other-node', ?, ?, ?)")
			.params(now, now, Timestamp.from(Instant.now().plusSeconds(3600)))
			.update();
		try {
			this.metrics.refresh();
			String other = prometheusScrape();
			assertThat(other).doesNotContain("refstore_jobs_executions{").contains("refstore_fleet_reporter 0.0");
		}
		finally {
			this.jdbc.sql("DELETE FROM REFSTORE_JOB_LEASE WHERE REPOSITORY = 'work:fleet-metrics'").update();
		}
		this.metrics.refresh();
		assertThat(prometheusValue(prometheusScrape(), "refstore_jobs_executions", "type=\"verify\"",
				"status=\"COMPLETED\""))
			.as("once the other node's lease is gone")
			.isPositive();
	}

	@Test
	void jobsAreTimedTheirRefsCountedAndTheirLockWaitsMeasured() throws Exception {
		String name = uniqueName("jobs-metrics-work");
		repoWithBranches(name, 40);
		String before = prometheusScrape();
		String migrate = "type=\"migrate\"";
		String completed = "outcome=\"completed\"";
		long migration = id(this.mvc
			.perform(postJson("/api/jobs/migrations",
					"{\"repository\": \"%s\", \"targetFormat\": \"reftable\"}".formatted(name))
				.with(as("admin")))
			.andReturn()
			.getResponse()
			.getContentAsString());
		assertThat(awaitEnd(migration).read("$.status", String.class)).isEqualTo("COMPLETED");
		long plan = id(this.mvc
			.perform(postJson("/api/jobs/deletion-plans",
					"{\"repository\": \"%s\", \"namespaces\": [\"refs/heads/\"]}".formatted(name))
				.with(as("operator")))
			.andReturn()
			.getResponse()
			.getContentAsString());
		long planned = Long.parseLong(awaitResult(plan, "plan.count").read("$.results['plan.count']", String.class));
		assertThat(planned).isPositive();
		long deletion = id(
				this.mvc
					.perform(postJson("/api/jobs/deletions",
							"""
									{"plan": %d, "confirmRepository": "%s", "confirmCount": "%d"}""".formatted(plan,
									name, planned))
						.with(as("admin")))
					.andReturn()
					.getResponse()
					.getContentAsString());
		assertThat(awaitEnd(deletion).read("$.status", String.class)).isEqualTo("COMPLETED");

		String after = prometheusScrape();
		assertThat(delta(before, after, "refstore_jobs_duration_seconds_count", migrate, completed)).isEqualTo(1);
		assertThat(delta(before, after, "refstore_jobs_duration_seconds_bucket", migrate, completed, "le=\"3600.0\""))
			.as("a histogram bucket of an hour")
			.isEqualTo(1);
		// the plan is an execution of the deletion job too, which deletes nothing
		assertThat(delta(before, after, "refstore_jobs_duration_seconds_count", "type=\"delete\"", completed))
			.isEqualTo(2);
		assertThat(delta(before, after, "refstore_refs_processed_total", migrate)).as("HEAD, main and 40 branches")
			.isEqualTo(42);
		assertThat(delta(before, after, "refstore_refs_processed_total", "type=\"delete\"")).isEqualTo(planned);
		assertThat(
				delta(before, after, "refstore_locks_wait_seconds_count", "lock=\"gate_swap\"", "outcome=\"acquired\""))
			.as("the migration's swap closed the gate")
			.isGreaterThanOrEqualTo(1);
		assertThat(delta(before, after, "refstore_locks_wait_seconds_count", "lock=\"gate_chunk\"",
				"outcome=\"acquired\""))
			.as("each chunk of the deletion closed it")
			.isGreaterThanOrEqualTo(1);
		assertThat(prometheusValue(after, "refstore_locks_wait_seconds_count", "lock=\"lock_file\"",
				"outcome=\"acquired\""))
			.isPositive();
		Awaitility.await("this node, up, in the fleet's gauge")
			.atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(prometheusValue(prometheusScrape(), "refstore_fleet_node_up", "node="))
				.isEqualTo(1));
	}

	/** How much a sample grew between two scrapes (absent before: from 0). */
	private static double delta(String before, String after, String metric, String... labels) {
		double was = prometheusValue(before, metric, labels);
		return prometheusValue(after, metric, labels) - (Double.isNaN(was) ? 0 : was);
	}

	@Test
	void aRunningMigrationShowsItsProgressUntilItEnds() throws Exception {
		String name = uniqueName("jobs-metrics-run");
		repoWithBranches(name, 1000);
		long id = id(this.mvc
			.perform(postJson("/api/jobs/migrations",
					"""
							{"repository": "%s", "targetFormat": "reftable", "chunkSize": 50, "throttleMillis": 100}"""
						.formatted(name))
				.with(as("admin")))
			.andReturn()
			.getResponse()
			.getContentAsString());
		await(id, Duration.ofSeconds(60), (job) -> ((Number) job.read("$.progress.done")).longValue() >= 100
				&& "copyRefsStep".equals(job.read("$.progress.step")));
		this.metrics.refresh();
		String scrape = prometheusScrape();
		String repository = "repository=\"" + name + "\"";
		Matcher line = Pattern
			.compile("refstore_jobs_running_progress_percent\\{[^}]*" + Pattern.quote(repository) + "[^}]*} (\\S+)")
			.matcher(scrape);
		assertThat(line.find()).as("progress of %s in %n%s", name, scrape).isTrue();
		assertThat(Double.parseDouble(line.group(1))).isBetween(5.0, 100.0);
		assertThat(prometheusValue(scrape, "refstore_jobs_running_rate_items_per_second", repository,
				"step=\"copyRefsStep\""))
			.isPositive();
		assertThat(prometheusValue(scrape, "refstore_jobs_running_eta_seconds", repository)).isGreaterThanOrEqualTo(0);
		assertThat(awaitEnd(id).read("$.status", String.class)).isEqualTo("COMPLETED");
		this.metrics.refresh();
		assertThat(prometheusValue(prometheusScrape(), "refstore_jobs_running_progress_percent", repository)).isNaN();
	}

}
