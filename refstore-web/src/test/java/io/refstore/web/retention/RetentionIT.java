package io.refstore.web.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.jayway.jsonpath.JsonPath;

import io.refstore.web.ApiTestSupport;

/**
 * Retention of the application's records on its real database: records older than each
 * kind's age (the defaults of application.yml) are deleted by a sweep, with an old
 * finished job's instance and its inventory, while newer ones stay; only an ADMIN sees
 * the figures or sweeps, in the API and on the console's Retention page.
 */
class RetentionIT extends ApiTestSupport {

	@Autowired
	JdbcClient jdbc;

	@Test
	void aSweepDeletesWhatIsOlderThanEachKindKeepsAndOnlyThat() throws Exception {
		String repo = uniqueName("retention");
		bareRepo(repo).commit("one", null);
		long old = inventoryJob(repo);
		long recent = inventoryJob(repo);
		OffsetDateTime longAgo = OffsetDateTime.now(ZoneOffset.UTC).minusDays(500);
		// the older job and its inventory ended 500 days ago; audit entries and schedule
		// runs as old, and new ones
		this.jdbc
			.sql("UPDATE BATCH_JOB_EXECUTION SET CREATE_TIME = ?, START_TIME = ?, END_TIME = ? WHERE"
					+ " JOB_EXECUTION_ID = ?")
			.params(LocalDateTime.now().minusDays(500), LocalDateTime.now().minusDays(500),
					LocalDateTime.now().minusDays(500), old)
			.update();
		this.jdbc.sql("UPDATE refstore_inventory SET recorded_at = ? WHERE job_execution_id = ?")
			.params(longAgo, old)
			.update();
		String hook = uniqueName("retention");
		this.jdbc
			.sql("INSERT INTO refstore_webhook (name, url, secret, events, repositories, active, created_at,"
					+ " created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
			.params(hook, "https://hooks.example.com/x", "a-secret-of-some-length", "ping", "*", false,
					OffsetDateTime.now(ZoneOffset.UTC), "test")
			.update();
		long webhook = this.jdbc.sql("SELECT id FROM refstore_webhook WHERE name = ?")
			.params(hook)
			.query(Long.class)
			.single();
		for (OffsetDateTime at : new OffsetDateTime[] { longAgo, OffsetDateTime.now(ZoneOffset.UTC) }) {
			this.jdbc.sql("INSERT INTO refstore_audit_event (at, actor, action, outcome) VALUES (?, ?, ?, ?)")
				.params(at, "retention-test", "retention.test", "SUCCESS")
				.update();
			this.jdbc
				.sql("INSERT INTO refstore_schedule_run (schedule_name, scheduled_at, fired_at, instance_id,"
						+ " outcome) VALUES (?, ?, ?, ?, ?)")
				.params("retention-test", at, at, "test", "LAUNCHED")
				.update();
			this.jdbc
				.sql("INSERT INTO refstore_webhook_delivery (webhook_id, guid, event, payload, created_at, state,"
						+ " attempts) VALUES (?, ?, ?, ?, ?, ?, ?)")
				.params(webhook, "retention-test", "ping", "{}", at, "DELIVERED", 1)
				.update();
		}

		this.mvc.perform(get("/api/retention").with(as("operator"))).andExpect(status().isForbidden());
		this.mvc.perform(post("/api/retention:sweep").with(as("operator"))).andExpect(status().isForbidden());
		this.mvc.perform(post("/api/retention:sweep").with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.audit").value(1))
			.andExpect(jsonPath("$.inventory").value(1))
			.andExpect(jsonPath("$.jobs").value(1))
			.andExpect(jsonPath("$.scheduleRuns").value(1))
			.andExpect(jsonPath("$.webhookDeliveries").value(1));

		this.mvc.perform(get("/api/jobs/" + old).with(as("operator"))).andExpect(status().isNotFound());
		this.mvc.perform(get("/api/jobs/" + recent).with(as("operator"))).andExpect(status().isOk());
		assertThat(count("SELECT COUNT(*) FROM refstore_inventory WHERE job_execution_id = " + old)).isZero();
		assertThat(count("SELECT COUNT(*) FROM refstore_inventory_namespace WHERE job_execution_id = " + old)).isZero();
		assertThat(count("SELECT COUNT(*) FROM refstore_inventory WHERE job_execution_id = " + recent)).isOne();
		assertThat(count("SELECT COUNT(*) FROM refstore_audit_event WHERE actor = 'retention-test'")).isOne();
		assertThat(count("SELECT COUNT(*) FROM refstore_schedule_run WHERE schedule_name = 'retention-test'")).isOne();
		assertThat(count("SELECT COUNT(*) FROM refstore_webhook_delivery WHERE guid = 'retention-test'")).isOne();
		String figures = this.mvc.perform(get("/api/retention").with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.kinds[0].kind").value("audit"))
			.andExpect(jsonPath("$.kinds[0].maxAge").value("PT9600H"))
			.andExpect(jsonPath("$.lastSweep.jobs").value(1))
			.andReturn()
			.getResponse()
			.getContentAsString();
		Instant oldestAudit = Instant.parse(JsonPath.read(figures, "$.kinds[0].oldest"));
		assertThat(oldestAudit).isAfter(Instant.now().minus(400, ChronoUnit.DAYS));
		// nothing more to delete
		this.mvc.perform(post("/api/retention:sweep").with(as("admin"))).andExpect(jsonPath("$.jobs").value(0));
	}

	/**
	 * Launches an inventory of {@code repo} and waits until it completed and recorded.
	 */
	private long inventoryJob(String repo) throws Exception {
		long id = completedInventory(repo);
		Awaitility.await("inventory " + id + " recorded")
			.atMost(Duration.ofSeconds(60))
			.until(() -> count("SELECT COUNT(*) FROM refstore_inventory WHERE job_execution_id = " + id) == 1);
		return id;
	}

	private long count(String sql) {
		return this.jdbc.sql(sql).query(Long.class).single();
	}

}
