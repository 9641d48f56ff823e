package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;

import com.jayway.jsonpath.JsonPath;

/**
 * The job history as a list: counters per status, the pager, empty and refused filters,
 * and several jobs stopped and restarted from the list by the roles that may.
 */
class JobListControllerTest extends JobConsoleTestSupport {

	/**
	 * The counters say how many jobs the other filters select in each status, each a link
	 * listing them; the pager says where the page is among all ("51–52 of 52"); a filter
	 * that matches nothing says so with a way to clear it, and From later than To is a
	 * form error naming both.
	 */
	@Test
	void theCountersThePagerAndTheEmptyAndRefusedFilters() throws Exception {
		String name = uniqueName("console-counted");
		repo(name, 3);
		List<Long> launched = new java.util.ArrayList<>();
		for (int i = 0; i < 52; i++) {
			launched.add(verification(name));
		}
		for (long id : launched) {
			assertThat(awaitEnd(id, null)).isEqualTo("COMPLETED");
		}
		MvcResult first = this.mvc.perform(get("/jobs").param("repo", name).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(model().attribute("jobs", hasSize(50)))
			.andExpect(model().attribute("hasMore", true))
			.andExpect(content().string(containsString("<span id=\"page-position\">1–50 of 52</span>")))
			.andExpect(content().string(containsString("id=\"page-next\"")))
			.andExpect(content().string(not(containsString("id=\"page-previous\""))))
			.andReturn();
		@SuppressWarnings("unchecked")
		List<JobCounter> counters = (List<JobCounter>) first.getModelAndView().getModel().get("counters");
		assertThat(counters).extracting(JobCounter::words, JobCounter::count)
			.startsWith(org.assertj.core.groups.Tuple.tuple("All", 52L),
					org.assertj.core.groups.Tuple.tuple("Running", 0L),
					org.assertj.core.groups.Tuple.tuple("Completed", 52L),
					org.assertj.core.groups.Tuple.tuple("Failed", 0L));
		String page = first.getResponse().getContentAsString();
		assertThat(page).contains("href=\"/jobs?status=COMPLETED&amp;repo=" + name + "\"")
			.contains("href=\"/jobs?repo=" + name + "&amp;offset=50\" id=\"page-next\"")
			.contains("href=\"/jobs?repo=" + name + "&amp;offset=50\" id=\"page-last\"");
		// a viewer selects nothing: no boxes, no buttons
		assertThat(page).doesNotContain("type=\"checkbox\"").doesNotContain("restart-selected");

		this.mvc.perform(get("/jobs").param("repo", name).param("offset", "50").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(2)))
			.andExpect(model().attribute("hasMore", false))
			.andExpect(content().string(containsString("<span id=\"page-position\">51–52 of 52</span>")))
			.andExpect(content().string(containsString("href=\"/jobs?repo=" + name + "\" id=\"page-first\"")));
		this.mvc.perform(get("/jobs").param("repo", name).param("status", "COMPLETED").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(50)))
			.andExpect(content().string(containsString("aria-current=\"page\" data-status=\"COMPLETED\"")))
			.andExpect(content().string(containsString("1–50 of 52")));

		// nothing matches: said so, with the way out; the counters still count the rest
		this.mvc.perform(get("/jobs").param("repo", name).param("status", "FAILED").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(model().attribute("jobs", hasSize(0)))
			.andExpect(content().string(containsString("No job matches these filters.")))
			.andExpect(content().string(containsString("<a href=\"/jobs\" id=\"clear-filters\">Clear the filters</a>")))
			.andExpect(content().string(not(containsString("id=\"page-position\""))))
			.andExpect(content().string(containsString("data-status=\"COMPLETED\"")));
		this.mvc.perform(get("/jobs").param("repo", name).param("offset", "500").with(viewer()))
			.andExpect(content().string(containsString("No job on this page")));

		// From after To: a form error naming both, not an empty list
		this.mvc
			.perform(get("/jobs").param("repo", name)
				.param("from", "2026-02-01T00:00")
				.param("to", "2026-01-01T00:00")
				.with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(view().name(JobController.VIEWS_JOB_LIST))
			.andExpect(model().attribute("filterError",
					"From (2026-02-01 00:00) is later than To (2026-01-01 00:00): choose a From before the To."))
			.andExpect(content().string(containsString(
					"value=\"2026-02-01T00:00\" aria-invalid=\"true\" aria-describedby=\"filter-error\"")))
			.andExpect(content().string(containsString(
					"value=\"2026-01-01T00:00\" aria-invalid=\"true\" aria-describedby=\"filter-error\"")))
			.andExpect(content().string(not(containsString("No job matches"))));
	}

	/**
	 * Several jobs stopped, then restarted, from the list: the boxes and buttons only for
	 * a role that may, a confirmation listing what happens to each, Post/Redirect/Get
	 * with each job's outcome, each action audited; a forged request of a role that may
	 * not is refused as a whole and changes nothing. The running view updates itself, and
	 * a migration's page lists all its steps from the start.
	 */
	@Test
	void severalJobsAreStoppedAndRestartedFromTheListByTheRolesThatMay() throws Exception {
		String prefix = uniqueName("console-bulk");
		String a = prefix + "-a";
		String b = prefix + "-b";
		repo(a, 1500);
		repo(b, 1500);
		long first = slowMigration(a);
		long second = slowMigration(b);
		String filter = prefix + "-*";

		// the running view polls, shows where each job is; the job's page lists every
		// step
		this.mvc.perform(get("/jobs").param("repo", filter).param("status", "STARTED").with(viewer()))
			.andExpect(content().string(containsString("hx-trigger=\"every 2s\"")))
			.andExpect(content().string(containsString("aria-current=\"page\" data-status=\"STARTED\"")));
		String progress = await("the migration to copy").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.mvc.perform(get("/jobs/" + first + "/progress").with(viewer()))
				.andReturn()
				.getResponse()
				.getContentAsString(), (body) -> body.contains("data-step=\"copyRefsStep\" data-state=\"RAN\""));
		assertThat(progress).contains("data-step=\"swapStorageStep\" data-state=\"WAITING\"")
			.contains("<span class=\"badge WAITING\">Waiting</span>")
			.contains("id=\"job-progress\"")
			.contains("of <span>5 steps</span>")
			.contains("<span class=\"badge STARTED\">Running</span>")
			.doesNotContain(">Started<");
		this.mvc.perform(get("/jobs/" + first).with(viewer()))
			.andExpect(content().string(containsString("<th scope=\"row\">Chunk size</th>")))
			.andExpect(content().string(containsString("<th scope=\"row\">Throttle (ms)</th>")))
			.andExpect(content().string(containsString("<th scope=\"row\">Reflogs</th>")))
			.andExpect(content().string(not(containsString("<th scope=\"row\">chunkSize</th>"))))
			.andExpect(content().string(not(containsString("id=\"stop\""))));

		// a viewer: nothing to select, and a forged request is refused, stopping nothing
		this.mvc.perform(get("/jobs").param("repo", filter).with(viewer()))
			.andExpect(content().string(not(containsString("type=\"checkbox\""))))
			.andExpect(content().string(not(containsString("stop-selected"))));
		this.mvc.perform(get("/jobs/bulk").param("action", "stop").param("id", Long.toString(first)).with(viewer()))
			.andExpect(status().isForbidden());
		this.mvc
			.perform(post("/jobs/bulk/stop").param("id", Long.toString(first), Long.toString(second))
				.with(viewer())
				.with(csrf()))
			.andExpect(status().isForbidden());
		this.mvc.perform(get("/jobs/" + first + "/stop").with(viewer())).andExpect(status().isForbidden());
		Thread.sleep(500);
		assertThat(asViewer(() -> this.jobs.get(first)).running()).isTrue();

		// an operator: both offered, the stop confirmed from the job's page or the list
		this.mvc.perform(get("/jobs/" + first).with(operator()))
			.andExpect(content().string(containsString("href=\"/jobs/" + first + "/stop\" id=\"stop\"")));
		this.mvc.perform(get("/jobs/" + first + "/stop").with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(JobController.VIEWS_CONFIRM))
			.andExpect(content().string(containsString("Stop job " + first + "?")))
			.andExpect(content().string(containsString("action=\"/jobs/" + first + "/stop\"")));
		this.mvc.perform(get("/jobs").param("repo", filter).with(operator()))
			.andExpect(content().string(containsString("id=\"select-" + first + "\"")))
			.andExpect(content().string(containsString("id=\"select-" + second + "\"")))
			.andExpect(content().string(containsString("id=\"stop-selected\"")))
			.andExpect(content().string(not(containsString("id=\"restart-selected\""))));
		String back = "repo=" + prefix + "-*";
		this.mvc
			.perform(get("/jobs/bulk").param("action", "stop")
				.param("id", Long.toString(first), Long.toString(second))
				.param("back", back)
				.with(operator()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("Stop 2 of the 2 selected jobs?")))
			.andExpect(content().string(containsString("Asked to stop: it stops after its current chunk.")))
			.andExpect(content().string(containsString(">Stop 2 jobs</button>")))
			.andExpect(content().string(containsString("href=\"/jobs?repo=" + prefix + "-*\" id=\"cancel\"")));
		MvcResult stopped = this.mvc
			.perform(post("/jobs/bulk/stop").param("id", Long.toString(first), Long.toString(second))
				.param("back", back)
				.with(operator())
				.with(csrf()))
			.andExpect(redirectedUrl("/jobs?repo=" + prefix + "-*"))
			.andExpect(flash().attribute("message", "Asked 2 of 2 selected jobs to stop."))
			.andReturn();
		assertThat(awaitEnd(first, null)).isEqualTo("STOPPED");
		assertThat(awaitEnd(second, null)).isEqualTo("STOPPED");
		this.mvc.perform(get("/jobs").param("repo", filter).flashAttrs(stopped.getFlashMap()).with(operator()))
			.andExpect(content().string(containsString("id=\"bulk-outcomes\"")))
			.andExpect(content().string(containsString("Stop requested: it stops after its current chunk.")));
		for (long id : List.of(first, second)) {
			await("the audit of the stop of " + id).atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> this.mvc.perform(get("/api/audit").param("action", "job.stop").with(as("operator")))
					.andReturn()
					.getResponse()
					.getContentAsString(),
						(body) -> !JsonPath
							.<List<String>>read(body,
									"$.entries[?(@.target =~ /.* #" + id + "/ && @.actor == 'operator')]")
							.isEmpty());
		}

		// a migration's restart needs an administrator: an operator is not offered it,
		// and
		// a forged request changes nothing
		this.mvc.perform(get("/jobs").param("repo", filter).with(operator()))
			.andExpect(content().string(not(containsString("type=\"checkbox\""))))
			.andExpect(content().string(not(containsString("restart-selected"))));
		this.mvc
			.perform(get("/jobs/bulk").param("action", "restart").param("id", Long.toString(first)).with(operator()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("Not allowed: only an administrator can restart a migration.")))
			.andExpect(content().string(containsString("id=\"not-allowed\"")))
			.andExpect(content().string(not(containsString("id=\"confirm\""))));
		this.mvc
			.perform(post("/jobs/bulk/restart").param("id", Long.toString(first), Long.toString(second))
				.with(operator())
				.with(csrf()))
			.andExpect(status().isForbidden());
		assertThat(asViewer(() -> this.jobs.restartedAs(this.jobs.get(first)))).isNull();

		// an administrator restarts both; the second time, one was restarted already
		this.mvc.perform(get("/jobs").param("repo", filter).with(admin()))
			.andExpect(content().string(containsString("id=\"select-" + first + "\"")))
			.andExpect(content().string(containsString("id=\"restart-selected\"")))
			.andExpect(content().string(not(containsString("id=\"stop-selected\""))));
		this.mvc
			.perform(get("/jobs/bulk").param("action", "restart")
				.param("id", Long.toString(first), Long.toString(second))
				.with(admin()))
			.andExpect(content()
				.string(containsString("Restarted as a new job that goes on from where this one stopped.")))
			.andExpect(content().string(containsString(">Restart 2 jobs</button>")));
		MvcResult restarted = this.mvc
			.perform(post("/jobs/bulk/restart").param("id", Long.toString(first), Long.toString(second))
				.param("back", back)
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrl("/jobs?repo=" + prefix + "-*"))
			.andExpect(flash().attribute("message", "Restarted 2 of 2 selected jobs."))
			.andReturn();
		@SuppressWarnings("unchecked")
		List<JobBulk.Item> outcomes = (List<JobBulk.Item>) restarted.getFlashMap().get("outcomes");
		assertThat(outcomes).extracting(JobBulk.Item::id).containsExactly(first, second);
		assertThat(outcomes)
			.allSatisfy((item) -> assertThat(item.sentence()).isEqualTo("Restarted as job " + item.job() + "."));
		for (JobBulk.Item item : outcomes) {
			assertThat(awaitEnd(item.job(), null)).isEqualTo("COMPLETED");
		}
		MvcResult again = this.mvc
			.perform(post("/jobs/bulk/restart").param("id", Long.toString(first)).with(admin()).with(csrf()))
			.andExpect(redirectedUrl("/jobs"))
			.andExpect(flash().attribute("problem",
					"Restarted 0 of 1 selected jobs. The others were left alone, as said below."))
			.andReturn();
		@SuppressWarnings("unchecked")
		List<JobBulk.Item> refused = (List<JobBulk.Item>) again.getFlashMap().get("outcomes");
		assertThat(refused).singleElement()
			.satisfies(
					(item) -> assertThat(item.sentence()).isEqualTo("Not restarted: it was restarted already, as job "
							+ outcomes.get(0).job() + ": a job goes on from its latest run."));
		this.mvc
			.perform(get("/jobs/bulk").param("action", "restart")
				.param("id", Long.toString(outcomes.get(0).job()))
				.with(admin()))
			.andExpect(content().string(
					containsString("Left alone: only a stopped or failed job restarts, and this one is completed.")))
			.andExpect(content().string(containsString("id=\"nothing-to-do\"")));
		this.mvc.perform(get("/jobs/" + outcomes.get(0).job() + "/stop").with(operator()))
			.andExpect(redirectedUrl("/jobs/" + outcomes.get(0).job()))
			.andExpect(flash().attribute("problem", containsString("not running")));
		this.mvc.perform(get("/jobs/bulk").param("action", "pause").param("id", "1").with(operator()))
			.andExpect(status().isBadRequest());
	}

}
