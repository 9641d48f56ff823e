package io.refstore.web.console.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.OffsetDateTime;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.fleet.FleetMembership;

/**
 * One name per repository when the fleet has more than one storage: the dashboard names
 * this node's repositories {@code default/<path>}, as the Fleet page does; a launch by
 * the plain path records the qualified name; the job history shows it, and its filter
 * finds the job by either name. The second storage is another node's, registered in the
 * shared database for the test's length (that node is down), as a second node would.
 */
class OneNamePerRepositoryTest extends ConsoleTestSupport {

	private static final String NODE = "one-name-test-node";

	private static final String STORAGE = "one-name-elsewhere";

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	FleetMembership membership;

	@Autowired
	FleetJobs fleetJobs;

	@BeforeEach
	void secondStorage() {
		OffsetDateTime long_ago = OffsetDateTime.now().minusDays(1);
		this.jdbc.update("INSERT INTO refstore_node (name, url, version, started_at, heartbeat_at) VALUES (?, NULL,"
				+ " NULL, ?, ?)", NODE, long_ago, long_ago);
		this.jdbc.update(
				"INSERT INTO refstore_storage (name, node, storage_id, root) VALUES (?, ?, 'test', '/nowhere')",
				STORAGE, NODE);
	}

	@AfterEach
	void removeIt() {
		this.jdbc.update("DELETE FROM refstore_fleet_repository WHERE storage = ?", STORAGE);
		this.jdbc.update("DELETE FROM refstore_storage WHERE node = ?", NODE);
		this.jdbc.update("DELETE FROM refstore_node WHERE name = ?", NODE);
	}

	@Test
	void theDashboardAndTheJobHistoryUseTheQualifiedName() throws Exception {
		String name = uniqueName("one-name") + ".git";
		TempRepo repo = bareRepo(name);
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		this.membership.refreshInventory();
		assertThat(this.fleetJobs.onlyStorage()).isNull();
		assertThat(this.fleetJobs.canonical(name)).isEqualTo("default/" + name);
		assertThat(this.fleetJobs.canonical("default/" + name)).isEqualTo("default/" + name);

		this.mvc.perform(get("/").param("q", name).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("data-repo=\"default/" + name + "\"")))
			.andExpect(
					content().string(containsString("href=\"/repo?name=default/" + name + "\">default/" + name + "<")))
			.andExpect(content().string(containsString("<label for=\"storage\">Storage")));
		this.mvc.perform(get("/").param("q", name).param("storage", STORAGE).with(viewer()))
			.andExpect(content().string(containsString("No repository matches these filters.")));

		String location = this.mvc.perform(
				post("/jobs/new/maintenance").param("repo", name).param("force", "true").with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		long id = Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
		String job = await("maintenance " + id).atMost(Duration.ofSeconds(30))
			.until(() -> this.mvc.perform(get("/api/jobs/" + id).with(as("viewer")))
				.andReturn()
				.getResponse()
				.getContentAsString(), (now) -> !JsonPath.<Boolean>read(now, "$.running"));
		assertThat(JsonPath.<String>read(job, "$.repository")).isEqualTo("default/" + name);

		for (String either : new String[] { name, "default/" + name }) {
			this.mvc.perform(get("/jobs").param("repo", either).with(viewer()))
				.andExpect(status().isOk())
				.andExpect(content().string(containsString("id=\"page-position\">1–1 of 1<")))
				.andExpect(content().string(containsString(">default/" + name + "</td>")))
				.andExpect(content().string(not(containsString(">" + name + "</td>"))));
		}
		this.mvc.perform(get("/").param("q", name).with(viewer()))
			.andExpect(content().string(not(containsString("none recorded"))));
	}

}
