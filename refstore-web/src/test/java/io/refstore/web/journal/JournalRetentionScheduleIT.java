package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The journal's retention as a schedule's job ({@code journalRetentionJob}), on the real
 * application (H2, Quartz, real git 2.55 repositories): an ADMIN schedules it over a glob
 * and runs it now; on the journaled repository the entries past its retention are gone,
 * each ref keeping its newest older change, and each repository's job says in words what
 * it did; the schedule keeps the run, the audit log the schedule and the launches. An
 * OPERATOR is not offered the job and is refused it (403) on the API and the console.
 */
class JournalRetentionScheduleIT extends ConsoleTestSupport {

	@Test
	void aJournalRetentionScheduleRunNowDeletesWhatTheRetentionLetsGoAndSaysWhatItDidPerRepository() throws Exception {
		String stem = uniqueName("journal-sched");
		String journaled = stem + "-a";
		String plain = stem + "-b";
		TempRepo repo = TempRepo.init(GitCli.reftable(), ROOT.resolve(journaled), "--bare", "--ref-format=files");
		TempRepo.init(GitCli.reftable(), ROOT.resolve(plain), "--bare", "--ref-format=files").commit("one", null);
		List<String> commits = repo.commits(6, "c");
		this.mvc.perform(settings(journaled, "{\"enabled\": true}")).andExpect(status().isOk());
		// main moves five times and keep is made once; then three newer changes
		repo.git("update-ref", "refs/heads/keep", commits.get(0));
		for (int i = 0; i < 5; i++) {
			repo.git("update-ref", "refs/heads/main", commits.get(i));
		}
		repo.git("update-ref", "refs/heads/main", commits.get(5));
		repo.git("update-ref", "refs/heads/new", commits.get(5));
		repo.git("update-ref", "refs/heads/newer", commits.get(5));
		this.mvc.perform(settings(journaled, "{\"maxEntries\": 3}")).andExpect(jsonPath("$.maxEntries").value(3));

		String schedule = uniqueName("journal-retention");
		String body = """
				{"name":"%s","jobType":"JOURNAL_RETENTION","targetKind":"GLOB","target":"%s-*",\
				"cron":"0 0 3 1 1 ? 2099","timeZone":"UTC"}""".formatted(schedule, stem);
		create("operator", body).andExpect(status().isForbidden());
		create("admin", body).andExpect(status().isCreated())
			.andExpect(jsonPath("$.jobType").value("JOURNAL_RETENTION"))
			.andExpect(jsonPath("$.nextFireTimes[0]").value("2099-01-01T03:00:00Z"));
		this.mvc.perform(post("/api/schedules/" + schedule + ":run").with(as("operator")))
			.andExpect(status().isForbidden());

		Map<String, String> outcomes = runNow(schedule, journaled, plain);
		assertThat(outcomes)
			.containsEntry(journaled,
					"deleted 4 entries past the retention (3 entries), each ref's newest older change kept")
			.containsEntry(plain, "nothing to do: the repository has no journal in the database");
		String kept = this.mvc.perform(get(repoUri(journaled, "/journal")).with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		// the three newest, then main's and keep's newest older changes
		assertThat(JsonPath.<List<String>>read(kept, "$.items[*].ref")).containsExactly("refs/heads/newer",
				"refs/heads/new", "refs/heads/main", "refs/heads/main", "refs/heads/keep");
		assertThat(JsonPath.<String>read(kept, "$.items[3].new")).isEqualTo(commits.get(4));
		assertThat(JsonPath.<String>read(kept, "$.items[4].new")).isEqualTo(commits.get(0));

		// the schedule's runs, the list's last outcome, the job's page in words
		this.mvc.perform(get("/api/schedules/" + schedule).with(as("viewer")))
			.andExpect(jsonPath("$.runs[*].repository").value(org.hamcrest.Matchers.hasItems(journaled, plain)))
			.andExpect(jsonPath("$.runs[*].outcome")
				.value(org.hamcrest.Matchers.everyItem(org.hamcrest.Matchers.is("LAUNCHED"))));
		String list = this.mvc.perform(get("/schedules").with(viewer())).andReturn().getResponse().getContentAsString();
		String row = list.substring(list.indexOf("id=\"schedule-" + schedule + "\""));
		row = row.substring(0, row.indexOf("</tr>"));
		assertThat(row).contains("Journal retention").contains("Completed").contains("class=\"duration\"");
		String job = this.mvc.perform(get("/jobs/" + this.lastExecution.get(journaled)).with(viewer()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(job).contains("Journal retention")
			.contains("Deleted 4 entries past the retention (3 entries), each ref&#39;s newest older change kept.");

		// audited: the schedule, by the admin; each launch, by the schedule
		this.mvc.perform(get("/api/audit").param("action", "schedule.create").param("actor", "admin").with(as("admin")))
			.andExpect(jsonPath("$.entries[?(@.target == '" + schedule + "')].detail").value(org.hamcrest.Matchers
				.contains("JOURNAL_RETENTION of GLOB " + stem + "-*, 0 0 3 1 1 ? 2099 (UTC)")));
		this.mvc.perform(get("/api/audit").param("actor", "schedule:" + schedule).with(as("admin")))
			.andExpect(jsonPath("$.entries[*].repository").value(org.hamcrest.Matchers.hasItems(journaled, plain)));

		// a second run has nothing more to delete, and says so
		assertThat(runNow(schedule, journaled, plain)).containsEntry(journaled,
				"nothing to do: no entry is past the retention (3 entries)");
	}

	@Test
	void anOperatorIsNotOfferedTheJournalRetentionAndIsRefusedItOnTheApiAndTheConsole() throws Exception {
		String repo = uniqueName("journal-role");
		bareRepo(repo);
		String operatorForm = this.mvc.perform(get("/schedules/new").with(operator()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(operatorForm).contains("value=\"MAINTAIN\"").doesNotContain("JOURNAL_RETENTION");
		assertThat(this.mvc.perform(get("/schedules/new").with(admin())).andReturn().getResponse().getContentAsString())
			.contains("<option value=\"JOURNAL_RETENTION\">Journal retention</option>");
		this.mvc
			.perform(post("/api/jobs/journal-retentions").with(as("operator"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"repository\":\"" + repo + "\"}"))
			.andExpect(status().isForbidden());
		this.mvc
			.perform(post("/schedules/new").with(operator())
				.with(csrf())
				.param("name", uniqueName("journal-role"))
				.param("jobType", "JOURNAL_RETENTION")
				.param("targetKind", "REPOSITORY")
				.param("target", repo)
				.param("cron", "0 0 3 1 1 ? 2099")
				.param("timeZone", "UTC")
				.param("misfire", "SKIP"))
			.andExpect(status().isForbidden());
		this.mvc
			.perform(post("/api/jobs/journal-retentions").with(as("admin"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"repository\":\"" + repo + "\"}"))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.type").value("journal_retention"));
	}

	/** The newest execution each repository's run launched, by repository. */
	private final Map<String, Long> lastExecution = new java.util.HashMap<>();

	/**
	 * Runs the schedule now as the admin and waits for its jobs.
	 * @return each repository's job's outcome in words
	 */
	private Map<String, String> runNow(String schedule, String... repositories) throws Exception {
		String answer = this.mvc.perform(post("/api/schedules/" + schedule + ":run").with(as("admin")))
			.andExpect(status().isAccepted())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(JsonPath.<List<String>>read(answer, "$.runs[*].repository")).containsExactlyInAnyOrder(repositories);
		Map<String, String> outcomes = new java.util.HashMap<>();
		for (String repository : repositories) {
			// launched at once, or when its turn on this node comes: the repository's
			// newest job by the schedule, launched by this fire
			Long before = this.lastExecution.get(repository);
			long id = await().atMost(Duration.ofSeconds(30)).until(() -> {
				List<Number> ids = JsonPath.read(read("/api/jobs?type=JOURNAL_RETENTION&size=1&repository=" + repository
						+ "&user=schedule:" + schedule), "$.jobs[*].id");
				return ids.isEmpty() ? null : ids.get(0).longValue();
			}, (found) -> found != null && !found.equals(before));
			this.lastExecution.put(repository, id);
			await().atMost(Duration.ofSeconds(30)).until(() -> !(Boolean) JsonPath.read(job(id), "$.running"));
			String job = job(id);
			assertThat(JsonPath.<String>read(job, "$.status")).as(repository).isEqualTo("COMPLETED");
			assertThat(JsonPath.<String>read(job, "$.user")).isEqualTo("schedule:" + schedule);
			outcomes.put(repository, JsonPath.read(job, "$.results['journal.outcome']"));
		}
		return outcomes;
	}

	private String job(long id) throws Exception {
		return read("/api/jobs/" + id);
	}

	private String read(String path) throws Exception {
		return this.mvc.perform(get(path).with(as("viewer"))).andReturn().getResponse().getContentAsString();
	}

	private ResultActions create(String user, String json) throws Exception {
		return this.mvc
			.perform(post("/api/schedules").with(as(user)).contentType(MediaType.APPLICATION_JSON).content(json));
	}

	private static MockHttpServletRequestBuilder settings(String repo, String json) {
		return put(repoUri(repo, "/journal/settings")).with(as("admin"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(json);
	}

}
