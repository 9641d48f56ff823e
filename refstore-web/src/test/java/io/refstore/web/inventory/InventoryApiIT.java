package io.refstore.web.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * The inventory history end to end, on repositories made by git, in the application on
 * H2: launched through the job API (OPERATOR, not VIEWER), a schedule and a campaign;
 * recorded in the database and read back as JSON, its counts as git's
 * {@code for-each-ref} gives them; refused parameters as problems; fast growth flagged in
 * the JSON and in the Prometheus gauges beside a repository that grows slowly.
 */
class InventoryApiIT extends ApiTestSupport {

	private static final AtomicLong earlierIds = new AtomicLong(-1000);

	@Autowired
	JdbcClient jdbc;

	@Autowired
	InventoryMetrics metrics;

	/**
	 * A bare repository: {@code main} on the third commit of a line, ten branches on the
	 * second (merged), a side branch and a pull request ref off the line (not merged),
	 * five tags on the first; all dated 2023 by the test git, so all stale.
	 */
	static TempRepo repository(String name) {
		TempRepo repo = bareRepo(name);
		String c0 = repo.commit("zero", null);
		String c1 = repo.commit("one", c0);
		String c2 = repo.commit("two", c1);
		String side = repo.commit("side", c0);
		StringBuilder updates = new StringBuilder("create refs/heads/main " + c2 + "\n");
		for (int i = 0; i < 10; i++) {
			updates.append("create refs/heads/b/" + i + " " + c1 + "\n");
		}
		updates.append("create refs/heads/side " + side + "\n");
		updates.append("create refs/pull/1/head " + side + "\n");
		for (int i = 0; i < 5; i++) {
			updates.append("create refs/tags/v" + i + " " + c0 + "\n");
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		return repo;
	}

	private long launch(String user, String repo) throws Exception {
		String body = this.mvc
			.perform(post("/api/jobs/inventories").with(as(user))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"repository\":\"" + repo + "\"}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		return JsonPath.parse(body).read("$.id", Long.class);
	}

	private DocumentContext awaitCompleted(long id) {
		DocumentContext job = await("execution " + id + " to end").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> job(id), (now) -> !now.read("$.running", Boolean.class));
		assertThat(job.read("$.status", String.class)).as(job.jsonString()).isEqualTo("COMPLETED");
		return job;
	}

	private DocumentContext inventory(String repo) throws Exception {
		return JsonPath.parse(this.mvc.perform(get("/api/repos/" + seg(repo) + "/inventory").with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString());
	}

	/** Waits until a run of {@code repo} is recorded (by a schedule or a campaign). */
	private DocumentContext awaitRun(String repo) {
		return await("an inventory of " + repo + " recorded").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> inventory(repo), (now) -> now.read("$.runs.length()", Integer.class) > 0);
	}

	/** Per namespace: refs, stale (all: git dates them 2023) and merged into main. */
	private static Map<String, List<Integer>> fromGit(TempRepo repo) {
		Map<String, int[]> counts = new TreeMap<>();
		for (String ref : repo.git("for-each-ref", "--format=%(refname)").lines().toList()) {
			counts.computeIfAbsent(namespace(ref), (ns) -> new int[2])[0]++;
		}
		for (String ref : repo.git("for-each-ref", "--merged", "refs/heads/main", "--format=%(refname)")
			.lines()
			.toList()) {
			counts.get(namespace(ref))[1]++;
		}
		Map<String, List<Integer>> out = new LinkedHashMap<>();
		counts.forEach((ns, c) -> out.put(ns, List.of(c[0], c[0], c[1])));
		return out;
	}

	private static String namespace(String ref) {
		String[] parts = ref.split("/");
		return parts[0] + "/" + parts[1];
	}

	@Test
	void aRunIsRecordedAndReadBackAsGitCountsTheRefs() throws Exception {
		String name = uniqueName("inventory-api");
		TempRepo repo = repository(name);
		this.mvc
			.perform(post("/api/jobs/inventories").with(as("viewer"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"repository\":\"" + name + "\"}"))
			.andExpect(status().isForbidden());
		long id = launch("operator", name);
		awaitCompleted(id);

		DocumentContext inventory = inventory(name);
		assertThat(inventory.read("$.repository", String.class)).isEqualTo(name);
		assertThat(inventory.read("$.runs.length()", Integer.class)).isEqualTo(1);
		assertThat(inventory.read("$.runs[0].jobExecutionId", Long.class)).isEqualTo(id);
		Map<String, List<Integer>> expected = fromGit(repo);
		Map<String, List<Integer>> recorded = new LinkedHashMap<>();
		List<Map<String, Object>> namespaces = inventory.read("$.runs[0].namespaces");
		for (Map<String, Object> ns : namespaces) {
			recorded.put((String) ns.get("namespace"), List.of(((Number) ns.get("refs")).intValue(),
					((Number) ns.get("stale")).intValue(), ((Number) ns.get("merged")).intValue()));
		}
		assertThat(recorded).isEqualTo(expected).containsKeys("refs/heads", "refs/pull", "refs/tags");
		int refs = expected.values().stream().mapToInt((c) -> c.get(0)).sum();
		assertThat(inventory.read("$.runs[0].refs", Integer.class)).isEqualTo(refs);
		assertThat(inventory.read("$.runs[0].stale", Integer.class)).isEqualTo(refs);
		assertThat(inventory.read("$.runs[0].merged", Integer.class))
			.isEqualTo(expected.values().stream().mapToInt((c) -> c.get(2)).sum())
			.isLessThan(refs);
		assertThat(inventory.read("$.runs[0].base", String.class)).isEqualTo("refs/heads/main");
		assertThat(inventory.read("$.runs[0].format", String.class)).isEqualTo("files");
		assertThat(inventory.read("$.runs[0].looseRefs", Long.class)).isEqualTo(looseFiles(repo)).isEqualTo(refs);
		assertThat(inventory.read("$.runs[0].packedRefs", Long.class)).isZero();
		assertThat(inventory.read("$.runs[0].tables", Integer.class)).isNull();
		Instant recorded0 = Instant.parse(inventory.read("$.runs[0].recordedAt", String.class));
		assertThat(recorded0).isBetween(Instant.now().minusSeconds(120), Instant.now());
		assertThat(inventory.read("$.growth.perWeek", Long.class)).isNull();
		assertThat(inventory.read("$.growth.fast", Boolean.class)).isFalse();

		this.mvc.perform(get("/api/inventory").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.repository == '" + name + "')].newest.refs").value(refs));
		this.mvc.perform(get("/api/inventory").with(as("nobody"))).andExpect(status().isForbidden());
		// a period before the run holds none of it
		this.mvc
			.perform(get("/api/repos/" + seg(name) + "/inventory").param("to", recorded0.minusSeconds(60).toString())
				.with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.runs.length()").value(0));
	}

	@Test
	void badParametersAreProblems() throws Exception {
		String name = uniqueName("inventory-bad");
		repository(name);
		this.mvc.perform(get("/api/repos/" + seg(name) + "/inventory").param("from", "yesterday").with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		this.mvc
			.perform(get("/api/repos/" + seg(name) + "/inventory").param("from", "2026-02-01T00:00:00Z")
				.param("to", "2026-01-01T00:00:00Z")
				.with(as("viewer")))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.parameter").value("from"));
		this.mvc.perform(get("/api/repos/" + seg(uniqueName("no-such")) + "/inventory").with(as("viewer")))
			.andExpect(status().isNotFound())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		this.mvc.perform(get("/api/repos/" + seg(name) + "/inventory").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.runs.length()").value(0));
	}

	@Test
	void fastGrowthIsFlaggedInTheJsonAndThePrometheusGauges() throws Exception {
		String fast = uniqueName("inventory-fast");
		String slow = uniqueName("inventory-slow");
		repository(fast);
		repository(slow);
		awaitCompleted(launch("operator", fast));
		awaitCompleted(launch("operator", slow));
		// earlier runs, three days before: the fast one had 20,000 refs fewer, the slow
		// one 10
		earlierRun(fast, -20_000, Duration.ofDays(3));
		earlierRun(slow, -10, Duration.ofDays(3));

		DocumentContext grown = inventory(fast);
		assertThat(grown.read("$.runs.length()", Integer.class)).isEqualTo(2);
		assertThat(grown.read("$.growth.perWeek", Long.class)).isEqualTo(46_667L);
		assertThat(grown.read("$.growth.fast", Boolean.class)).isTrue();
		assertThat(grown.read("$.alertPerWeek", Long.class)).isEqualTo(10_000L);
		DocumentContext steady = inventory(slow);
		assertThat(steady.read("$.growth.perWeek", Long.class)).isEqualTo(23L);
		assertThat(steady.read("$.growth.fast", Boolean.class)).isFalse();

		this.metrics.refresh();
		String scrape = this.mvc.perform(get("/actuator/prometheus").with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String f = "repository=\"" + fast + "\"";
		assertThat(prometheusValue(scrape, "refstore_inventory_growth_per_week", f)).isEqualTo(46_667);
		assertThat(prometheusValue(scrape, "refstore_inventory_growing_fast", f)).isEqualTo(1);
		assertThat(prometheusValue(scrape, "refstore_inventory_growing_fast", "repository=\"" + slow + "\"")).isZero();
		int heads = grown.read("$.runs[1].namespaces[?(@.namespace == 'refs/heads')].refs", List.class).size() == 1
				? ((Number) grown.<List<?>>read("$.runs[1].namespaces[?(@.namespace == 'refs/heads')].refs").get(0))
					.intValue()
				: -1;
		assertThat(heads).isEqualTo(12);
		assertThat(prometheusValue(scrape, "refstore_inventory_refs", f, "namespace=\"refs/heads\"")).isEqualTo(heads);
		assertThat(prometheusValue(scrape, "refstore_inventory_stale", f, "namespace=\"refs/heads\"")).isEqualTo(heads);
		assertThat(prometheusValue(scrape, "refstore_inventory_merged", f, "namespace=\"refs/heads\"")).isEqualTo(11);
	}

	@Test
	void aScheduleAndACampaignRecordInventories() throws Exception {
		String scheduled = uniqueName("inventory-scheduled");
		String campaigned = uniqueName("inventory-campaign");
		repository(scheduled);
		repository(campaigned);
		String schedule = uniqueName("inventory-every-2s");
		this.mvc.perform(post("/api/schedules").with(as("operator")).contentType(MediaType.APPLICATION_JSON).content("""
				{"name":"%s","jobType":"inventory","targetKind":"REPOSITORY","target":"%s",\
				"cron":"*/2 * * * * ?","timeZone":"UTC"}""".formatted(schedule, scheduled)))
			.andExpect(status().isCreated());
		DocumentContext run;
		try {
			run = awaitRun(scheduled);
		}
		finally {
			this.mvc.perform(delete("/api/schedules/" + schedule).with(as("operator")));
		}
		assertThat(job(run.read("$.runs[0].jobExecutionId", Long.class)).read("$.user", String.class))
			.isEqualTo("schedule:" + schedule);

		String created = this.mvc
			.perform(post("/api/campaigns").with(as("operator")).contentType(MediaType.APPLICATION_JSON).content("""
					{"jobType":"inventory","targetKind":"REPOSITORY","target":"%s"}""".formatted(campaigned)))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getHeader("Location");
		run = awaitRun(campaigned);
		assertThat(job(run.read("$.runs[0].jobExecutionId", Long.class)).read("$.user", String.class))
			.isEqualTo("campaign:" + created.substring(created.lastIndexOf('/') + 1));
		assertThat(run.read("$.runs[0].refs", Integer.class)).isEqualTo(18);
	}

	private DocumentContext job(long id) throws Exception {
		return JsonPath.parse(this.mvc.perform(get("/api/jobs/" + id).with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString());
	}

	/**
	 * Records a run {@code before} the repository's newest with {@code delta} refs
	 * (refs/heads only), as an inventory job would have.
	 */
	private void earlierRun(String repo, long delta, Duration before) throws Exception {
		DocumentContext newest = inventory(repo);
		Instant at = Instant.parse(newest.read("$.runs[0].recordedAt", String.class)).minus(before);
		long refs = newest.read("$.runs[0].refs", Long.class) + delta;
		long id = earlierIds.decrementAndGet();
		this.jdbc
			.sql("INSERT INTO refstore_inventory (job_execution_id, repository, recorded_at, format, refs, stale,"
					+ " merged, base_ref, loose_refs, packed_refs, table_count, bytes)"
					+ " VALUES (?, ?, ?, 'files', ?, ?, 0, 'refs/heads/main', ?, 0, NULL, 0)")
			.params(id, repo, OffsetDateTime.ofInstant(at, ZoneOffset.UTC), refs, refs, refs)
			.update();
		this.jdbc
			.sql("INSERT INTO refstore_inventory_namespace (job_execution_id, namespace, refs, stale, merged)"
					+ " VALUES (?, 'refs/heads', ?, ?, 0)")
			.params(id, refs, refs)
			.update();
	}

	private static long looseFiles(TempRepo repo) throws IOException {
		try (Stream<Path> walk = Files.walk(repo.gitDir().resolve("refs"))) {
			return walk.filter(Files::isRegularFile).count();
		}
	}

}
