package io.refstore.web.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

import com.jayway.jsonpath.JsonPath;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * docs/grafana-dashboard.json is valid JSON, and every metric its panels query is in a
 * scrape of {@code /actuator/prometheus} once the application has done the work the
 * dashboard shows: an inventory, a verification, and a migration scraped while it runs
 * (the running jobs' gauges) and after it ended.
 */
class GrafanaDashboardIT extends ApiTestSupport {

	private static final Pattern METRIC = Pattern.compile("\\b(refstore_[a-z_]+|http_server_requests_[a-z_]+)\\b");

	@Autowired
	RefStoreMetrics metrics;

	@Test
	void everyMetricTheDashboardQueriesIsInAScrape() throws Exception {
		JsonNode dashboard = JsonMapper.builder()
			.build()
			.readTree(Files.readString(Path.of("").toAbsolutePath().resolveSibling("docs/grafana-dashboard.json")));
		Set<String> queried = new TreeSet<>();
		for (JsonNode panel : dashboard.path("panels")) {
			assertThat(panel.path("targets")).as("targets of %s", panel.path("title")).isNotEmpty();
			for (JsonNode target : panel.path("targets")) {
				Matcher metric = METRIC.matcher(target.path("expr").asString());
				while (metric.find()) {
					queried.add(metric.group(1));
				}
			}
		}
		assertThat(queried).hasSizeGreaterThan(15);

		String name = uniqueName("dashboard");
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder("create refs/heads/main " + commit + "\n");
		for (int i = 0; i < 2000; i++) {
			updates.append("create refs/heads/b/").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		awaitEnd(launch("/api/jobs/inventories", "{\"repository\": \"%s\"}".formatted(name)));
		awaitEnd(launch("/api/jobs/verifications", "{\"repository\": \"%s\"}".formatted(name)));
		this.metrics.refresh();
		// 41 chunks 400 ms apart: the job runs longer than the gauges' refresh interval
		// (10 s), so a refresh sees it running even if the one its launch triggers came
		// before it started (at 200 ms it ran 9 s and was missed twice in eight CI runs)
		long migration = launch("/api/jobs/migrations", """
				{"repository": "%s", "targetFormat": "reftable", "chunkSize": 50, "throttleMillis": 400}"""
			.formatted(name));
		// every scrape while the migration runs is kept: a running job's gauges are there
		// only while it runs, and a scrape during their refresh may see some of them
		List<String> scrapes = new ArrayList<>();
		Awaitility.await("the running migration's gauges")
			.atMost(Duration.ofSeconds(60))
			.until(() -> scrapes.add(prometheusScrape())
					&& scrapes.get(scrapes.size() - 1).contains("refstore_jobs_running_rate_items_per_second{"));
		Awaitility.await("job " + migration + " to complete")
			.atMost(Duration.ofSeconds(120))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> scrapes.add(prometheusScrape()) && "COMPLETED"
				.equals(JsonPath.read(this.mvc.perform(get("/api/jobs/" + migration).with(as("viewer")))
					.andReturn()
					.getResponse()
					.getContentAsString(), "$.status")));
		Awaitility.await("every metric the dashboard queries")
			.atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofSeconds(1))
			.untilAsserted(() -> {
				List<String> now = new ArrayList<>(scrapes);
				now.add(prometheusScrape());
				assertThat(queried).allSatisfy((metric) -> assertThat(now)
					.anySatisfy((scrape) -> assertThat(scrape).containsPattern("(?m)^" + metric + "[{ ]")));
			});
	}

	private long launch(String path, String json) throws Exception {
		String body = this.mvc
			.perform(post(path).with(as("admin")).contentType(MediaType.APPLICATION_JSON).content(json))
			.andReturn()
			.getResponse()
			.getContentAsString();
		return JsonPath.parse(body).read("$.id", Long.class);
	}

	private void awaitEnd(long id) {
		Awaitility.await("job " + id + " to complete")
			.atMost(Duration.ofSeconds(120))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> JsonPath.read(this.mvc.perform(get("/api/jobs/" + id).with(as("viewer")))
				.andReturn()
				.getResponse()
				.getContentAsString(), "$.status"), "COMPLETED"::equals);
	}

}
