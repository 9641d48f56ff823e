package io.refstore.web.console.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrlPattern;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MvcResult;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.fleet.FleetMembership;

/**
 * The dashboard's "Maintain all due" over repositories made by git: the confirmation says
 * how many and names them, the action starts one maintenance campaign over those due
 * among the filter's, skips one that a running job holds, and says so in its flash
 * message; afterwards git finds the loose refs packed. A viewer is refused the page and a
 * forged POST (403).
 */
class MaintainDueControllerTest extends ConsoleTestSupport {

	@Autowired
	FleetMembership membership;

	private static TempRepo loose(String name, int refs) {
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < refs; i++) {
			updates.append("create refs/heads/topic-").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		return repo;
	}

	@Test
	void maintainsEveryDueRepositoryOfTheFilterAndSkipsABusyOne() throws Exception {
		String group = uniqueName("due-group");
		TempRepo first = loose(group + "/a.git", 20);
		TempRepo second = loose(group + "/b.git", 20);
		loose(group + "/c-busy.git", 1200);
		TempRepo tidy = loose(group + "/d-tidy.git", 3);
		tidy.git("pack-refs", "--all");
		loose(uniqueName("due-outside") + ".git", 20);
		this.membership.refreshInventory();

		this.mvc.perform(get("/maintain-due").param("q", group).with(operator()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("<strong>3 repositories are</strong>")))
			.andExpect(content().string(containsString("<code>" + group + "/a.git</code>")))
			.andExpect(content().string(containsString("<code>" + group + "/c-busy.git</code>")))
			.andExpect(content().string(org.hamcrest.Matchers.not(containsString(group + "/d-tidy.git"))))
			.andExpect(content().string(containsString("Maintain 3 repositories")))
			.andExpect(content().string(containsString("name=\"q\" value=\"" + group + "\"")));

		long migration = slowMigration(group + "/c-busy.git");
		MvcResult done = this.mvc.perform(post("/maintain-due").param("q", group).with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/?q=" + group))
			.andExpect(flash().attribute("message",
					org.hamcrest.Matchers.matchesPattern("Maintenance launched for 2 repositories as campaign \\d+, 4"
							+ " at a time; 1 already busy with a job skipped\\.")))
			.andReturn();
		long campaign = (Long) done.getFlashMap().get("campaign");
		String body = await("campaign " + campaign).atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> this.mvc.perform(get("/api/campaigns/" + campaign).with(as("viewer")))
				.andReturn()
				.getResponse()
				.getContentAsString(), (now) -> !"RUNNING".equals(JsonPath.read(now, "$.campaign.state")));
		assertThat(JsonPath.<String>read(body, "$.campaign.state")).isEqualTo("FINISHED");
		assertThat(JsonPath.<String>read(body, "$.campaign.targetKind")).isEqualTo("LISTED");
		assertThat(JsonPath.<String>read(body, "$.campaign.target"))
			.isEqualTo("due for maintenance on the dashboard (name contains \"" + group + "\")");
		assertThat(JsonPath.<List<String>>read(body, "$.repositories[*].repository")).containsExactly(group + "/a.git",
				group + "/b.git");
		assertThat(JsonPath.<List<String>>read(body, "$.repositories[*].state")).containsOnly("DONE");
		for (TempRepo repo : List.of(first, second)) {
			// git's own view: every branch is in packed-refs, no loose ref file is left
			assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/").lines()).hasSize(20);
			try (var files = Files.walk(repo.dir().resolve("refs/heads"))) {
				assertThat(files.filter(Files::isRegularFile)).isEmpty();
			}
			assertThat(Files.readString(repo.dir().resolve("packed-refs"))).contains("refs/heads/topic-19");
		}
		await("migration " + migration).atMost(Duration.ofSeconds(90))
			.until(() -> !JsonPath.<Boolean>read(this.mvc.perform(get("/api/jobs/" + migration).with(as("viewer")))
				.andReturn()
				.getResponse()
				.getContentAsString(), "$.running"));
		// a job's end recorded its repository again: the two are no longer due
		this.mvc.perform(get("/").param("q", group).param("due", "true").with(operator()))
			.andExpect(content().string(org.hamcrest.Matchers.not(containsString("data-repo=\"" + group + "/a.git\""))))
			.andExpect(
					content().string(org.hamcrest.Matchers.not(containsString("data-repo=\"" + group + "/b.git\""))));
	}

	@Test
	void nothingDueSaysSoAndLaunchesNothing() throws Exception {
		String group = uniqueName("due-none");
		TempRepo tidy = loose(group + "/tidy.git", 2);
		tidy.git("pack-refs", "--all");
		this.membership.refreshInventory();
		this.mvc.perform(get("/maintain-due").param("q", group).with(operator()))
			.andExpect(status().isOk())
			.andExpect(
					content().string(containsString("No repository matching these filters is due for maintenance.")));
		this.mvc.perform(post("/maintain-due").param("q", group).with(operator()).with(csrf()))
			.andExpect(redirectedUrl("/?q=" + group))
			.andExpect(flash().attribute("message",
					"No maintenance launched: no repository matching these filters is" + " due for maintenance."));
	}

	@Test
	void aViewerIsRefusedThePageAndAForgedPost() throws Exception {
		String group = uniqueName("due-viewer");
		loose(group + "/a.git", 20);
		this.membership.refreshInventory();
		this.mvc.perform(get("/maintain-due").param("q", group).with(viewer())).andExpect(status().isForbidden());
		this.mvc.perform(post("/maintain-due").param("q", group).with(viewer()).with(csrf()))
			.andExpect(status().isForbidden());
		this.mvc.perform(get("/api/campaigns").with(as("viewer")))
			.andExpect(content().string(org.hamcrest.Matchers.not(containsString(group))));
	}

	/** A migration of {@code name} by an ADMIN, slowed down to last several seconds. */
	private long slowMigration(String name) throws Exception {
		String url = this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("targetFormat", "reftable")
				.param("chunkSize", "50")
				.param("throttleMillis", "150")
				.param("readersChecked", "true")
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		return Long.parseLong(url.substring(url.lastIndexOf('/') + 1));
	}

}
