package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrlPattern;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import com.jayway.jsonpath.JsonPath;

import io.refstore.batch.api.JobSummary;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.testing.TempRepo;

/**
 * Every handler of the job pages, on real repositories and real jobs: the history with
 * each filter (status, view, model, refused filter), one execution and its polled
 * progress fragment (which asks htmx to reload once the job has ended), stop and restart
 * with their redirects and messages, a deletion's execution refused on a wrong typed
 * confirmation (the page shown again with the error) and accepted on the right one, and
 * the restore; a plan's protected refs on its page, and the override only an ADMIN may
 * ask for, with a reason.
 */
class JobControllerTest extends JobConsoleTestSupport {

	/** A plan of the branches under refs/heads/b/ of {@code name}, awaited. */
	private long plannedBranches(String name) throws Exception {
		long plan = redirectedId(this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("prefixes", "refs/heads/b/")
				.with(operator())
				.with(csrf()))
			.andReturn());
		assertThat(awaitEnd(plan, "plan.count")).isEqualTo("COMPLETED");
		return plan;
	}

	@Test
	void aPlansWholeListDownloadsAsCsvJudgedByGit() throws Exception {
		String name = uniqueName("plan-csv");
		TempRepo repo = repo(name, 25);
		// a comma is allowed in a ref name: quoted in the CSV
		repo.git("update-ref", "refs/heads/b/with,comma", repo.git("rev-parse", "refs/heads/main").trim());
		long plan = plannedBranches(name);
		this.mvc.perform(get("/jobs/" + plan).with(viewer()))
			.andExpect(content().string(containsString("href=\"/jobs/" + plan + "/plan.csv\">Download all 26 as CSV")));
		// streamed: the body comes on the request's asynchronous dispatch
		MvcResult streaming = this.mvc.perform(get("/jobs/" + plan + "/plan.csv").with(viewer()))
			.andExpect(request().asyncStarted())
			.andReturn();
		String csv = this.mvc.perform(asyncDispatch(streaming))
			.andExpect(status().isOk())
			.andExpect(header().string("Content-Disposition", "attachment; filename=\"plan-" + plan + ".csv\""))
			.andExpect(header().string("Content-Type", "text/csv;charset=UTF-8"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		StringBuilder expected = new StringBuilder("ref,value\r\n");
		for (String line : repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/b/")
			.lines()
			.toList()) {
			String[] fields = line.split(" ");
			String ref = fields[0].contains(",") ? '"' + fields[0] + '"' : fields[0];
			expected.append(ref).append(',').append(fields[1]).append("\r\n");
		}
		assertThat(csv).isEqualTo(expected.toString());
		// only a completed plan has a list; a job that is no plan is a 400 naming it
		this.mvc.perform(get("/jobs/999999/plan.csv").with(viewer())).andExpect(status().isBadRequest());
	}

	/** The execution of {@code plan} with this confirmation, by an ADMIN. */
	private static MockHttpServletRequestBuilder execute(long plan, String repository, String count) {
		return post("/jobs/" + plan + "/execute").param("confirmRepository", repository)
			.param("confirmCount", count)
			.with(admin())
			.with(csrf());
	}

	private long launchVerification(String name) throws Exception {
		return redirectedId(this.mvc.perform(
				post("/jobs/new/migration").param("repo", name).param("dryRun", "true").with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn());
	}

	@Test
	void theHistoryShowsWhatEachFilterSelects() throws Exception {
		String name = uniqueName("console-history");
		repo(name, 3);
		long id = launchVerification(name);
		assertThat(awaitEnd(id, null)).isEqualTo("COMPLETED");
		this.mvc.perform(get("/jobs").param("repo", name).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(JobController.VIEWS_JOB_LIST))
			.andExpect(model().attribute("jobs", hasSize(1)))
			.andExpect(model().attribute("hasMore", false))
			.andExpect(model().attributeExists("chart", "types", "statuses", "filter"))
			.andExpect(model().attribute("chart", matchesPattern(
					"\\{\"x\":\\[\\d+],\"series\":\\[\\{\"label\":\"Verification\",\"scale\":\"s\",\"values\":\\[\\d+\\.\\d{3}]}]}")));
		// a pattern of the repository's name: * any characters, ? one, % and _ as they
		// are
		this.mvc.perform(get("/jobs").param("repo", name.substring(0, name.length() - 3) + "*").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(1)));
		this.mvc.perform(get("/jobs").param("repo", "?" + name.substring(1)).with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(1)));
		// a pattern's % and _ are themselves, not SQL's wildcards
		this.mvc.perform(get("/jobs").param("repo", "%" + name.substring(1, 5) + "*").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(0)));
		this.mvc.perform(get("/jobs").param("repo", "_" + name.substring(1, 5) + "*").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(0)));
		this.mvc
			.perform(get("/jobs").param("repo", name)
				.param("status", "COMPLETED")
				.param("type", "verify")
				.param("actor", "operator")
				.with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(1)));
		this.mvc.perform(get("/jobs").param("repo", name).param("status", "FAILED").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(0)));
		this.mvc.perform(get("/jobs").param("repo", name).param("type", "migrate").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(0)));
		this.mvc.perform(get("/jobs").param("repo", name).param("actor", "admin").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(0)));
		this.mvc.perform(get("/jobs").param("repo", name).param("from", "2999-01-01T00:00:00").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(0)));
		this.mvc.perform(get("/jobs").param("repo", name).param("to", "2000-01-01T00:00:00").with(viewer()))
			.andExpect(model().attribute("jobs", hasSize(0)));
		this.mvc.perform(get("/jobs").param("type", "bogus").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("bogus")));
		this.mvc.perform(get("/jobs").param("offset", "-1").with(viewer())).andExpect(status().isBadRequest());
		this.mvc.perform(get("/jobs")).andExpect(status().is3xxRedirection());
	}

	@Test
	void anExecutionPageAndItsProgressFragment() throws Exception {
		String name = uniqueName("console-job");
		repo(name, 3);
		long id = launchVerification(name);
		assertThat(awaitEnd(id, null)).isEqualTo("COMPLETED");
		MvcResult page = this.mvc.perform(get("/jobs/" + id).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(JobController.VIEWS_JOB_DETAILS))
			.andReturn();
		assertThat(((JobSummary) page.getModelAndView().getModel().get("job")).repository()).isEqualTo(name);
		MvcResult progress = this.mvc.perform(get("/jobs/" + id + "/progress").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(JobController.VIEWS_JOB_PROGRESS))
			.andExpect(header().string("HX-Refresh", "true"))
			.andReturn();
		assertThat(((JobSummary) progress.getModelAndView().getModel().get("job")).executionId()).isEqualTo(id);
		assertThat(progress.getResponse().getContentAsString()).contains("id=\"job-status\"").contains("COMPLETED");
		this.mvc.perform(get("/jobs/987654321/progress").with(viewer())).andExpect(status().isNotFound());
	}

	@Test
	void aRunningJobIsPolledStoppedAndRestarted() throws Exception {
		String name = uniqueName("console-stop");
		repo(name, 1500);
		long id = redirectedId(this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("targetFormat", "reftable")
				.param("chunkSize", "50")
				.param("throttleMillis", "150")
				.param("readersChecked", "true")
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn());
		this.mvc.perform(get("/jobs/" + id + "/progress").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(header().doesNotExist("HX-Refresh"));
		this.mvc.perform(post("/jobs/" + id + "/stop").with(viewer()).with(csrf())).andExpect(status().isForbidden());
		this.mvc.perform(post("/jobs/" + id + "/stop").with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl("/jobs/" + id))
			.andExpect(flash().attribute("message", containsString("Stop requested")));
		assertThat(awaitEnd(id, null)).isEqualTo("STOPPED");
		// the audit log says it stopped, in words, not that it succeeded (written when
		// the
		// job's end is told, which may follow the end its page shows)
		String audit = await("the audit of the stop").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.mvc
				.perform(get("/api/audit").param("action", "job.finish").param("repository", name).with(as("operator")))
				.andExpect(status().isOk())
				.andReturn()
				.getResponse()
				.getContentAsString(),
					(body) -> !JsonPath.<List<String>>read(body, "$.entries[?(@.target =~ /.* #" + id + "/)].outcome")
						.isEmpty());
		assertThat(JsonPath.<List<String>>read(audit, "$.entries[?(@.target =~ /.* #" + id + "/)].outcome"))
			.containsExactly("STOPPED");
		assertThat(JsonPath.<List<String>>read(audit, "$.entries[?(@.target =~ /.* #" + id + "/)].detail"))
			.containsExactly("STOPPED: stopped on request");
		this.mvc.perform(post("/jobs/" + id + "/stop").with(operator()).with(csrf()))
			.andExpect(redirectedUrl("/jobs/" + id))
			.andExpect(flash().attribute("problem", containsString("not running")));
		this.mvc.perform(get("/jobs/" + id).with(admin()))
			.andExpect(content().string(containsString("id=\"restart\"")));
		this.mvc.perform(post("/jobs/" + id + "/restart").with(viewer()).with(csrf()))
			.andExpect(status().isForbidden());
		this.mvc.perform(post("/jobs/" + id + "/restart").with(operator()).with(csrf()))
			.andExpect(status().isForbidden());
		MvcResult restarted = this.mvc.perform(post("/jobs/" + id + "/restart").with(admin()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(flash().attribute("message", containsString("Restarted execution " + id)))
			.andReturn();
		long again = redirectedId(restarted);
		assertThat(again).isNotEqualTo(id);
		assertThat(awaitEnd(again, null)).isEqualTo("COMPLETED");
		// the two executions of the instance link each other
		this.mvc.perform(get("/jobs/" + again).with(viewer()))
			.andExpect(content().string(containsString("Restart of <a href=\"/jobs/" + id + "\"")));
		this.mvc.perform(get("/jobs/" + id).with(viewer()))
			.andExpect(content().string(containsString("Restarted as <a href=\"/jobs/" + again + "\"")));
		// the first is not offered a restart any more; asked anyway, its page says why
		// and links the run that went on
		this.mvc.perform(get("/jobs/" + id).with(admin()))
			.andExpect(content().string(not(containsString("id=\"restart\""))));
		MvcResult refused = this.mvc.perform(post("/jobs/" + id + "/restart").with(admin()).with(csrf()))
			.andExpect(redirectedUrl("/jobs/" + id))
			.andExpect(flash().attribute("problem", containsString("restarted already, as job " + again)))
			.andExpect(flash().attribute("problemJob", again))
			.andReturn();
		this.mvc.perform(get("/jobs/" + id).flashAttrs(refused.getFlashMap()).with(admin()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"console-problem\"")))
			.andExpect(content().string(containsString("href=\"/jobs/" + again + "\" id=\"problem-job\"")));
		this.mvc.perform(post("/jobs/" + again + "/restart").with(admin()).with(csrf()))
			.andExpect(redirectedUrl("/jobs/" + again))
			.andExpect(flash().attribute("problem", containsString("this one is completed")));
	}

	/**
	 * A running rollback's page says which of its phases it is in (held after its
	 * comparison and its reading of the current store's logs, the last phase before its
	 * swap, while a bulk run holds the repository), and no phase once it has ended.
	 */
	@Test
	void aRunningRollbackShowsThePhaseItIsIn() throws Exception {
		String name = uniqueName("console-phase");
		TempRepo repo = repo(name, 300);
		long migration = redirectedId(this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("targetFormat", "reftable")
				.param("readersChecked", "true")
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn());
		assertThat(awaitEnd(migration, null)).isEqualTo("COMPLETED");
		String backup;
		try (Stream<Path> backups = Files.list(repo.gitDir().resolve("refstore-backup"))) {
			backup = backups.findFirst().orElseThrow().getFileName().toString();
		}
		long rollback;
		try (StoreGate.Run held = StoreGate.of(repo.gitDir()).beginRun(StoreGate.WRITER_WAIT)) {
			rollback = redirectedId(this.mvc
				.perform(post("/jobs/new/rollback").param("repo", name)
					.param("backup", backup)
					.param("confirmRepository", name)
					.with(admin())
					.with(csrf()))
				.andExpect(redirectedUrlPattern("/jobs/*"))
				.andReturn());
			String running = await("the rollback's phase").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> this.mvc.perform(get("/jobs/" + rollback + "/progress").with(viewer()))
					.andReturn()
					.getResponse()
					.getContentAsString(), (body) -> body.contains("<small class=\"phase\">Reading reflogs</small>"));
			assertThat(running).contains("<span>Restore backup</span>");
		}
		assertThat(awaitEnd(rollback, null)).isEqualTo("COMPLETED");
		this.mvc.perform(get("/jobs/" + rollback).with(viewer()))
			.andExpect(content().string(not(containsString("class=\"phase\""))));
	}

	/**
	 * The ref browser's "Clean up" opens the form filled with its filter; the plan by
	 * criteria then shows each criterion's count and why each sampled ref was selected; a
	 * criterion that is not well formed is shown on its field.
	 */
	@Test
	void aPlanByCriteriaIsPrefilledAndReviewedWithItsReasons() throws Exception {
		String name = uniqueName("console-criteria");
		TempRepo repo = repo(name, 3);
		this.mvc
			.perform(get("/jobs/new/deletion").param("repo", name)
				.param("namespaces", "refs/heads/")
				.param("mergedInto", "HEAD")
				.param("olderThan", "90d")
				.param("globs", "refs/heads/b/*")
				.with(operator()))
			.andExpect(model().attribute("launchForm",
					org.hamcrest.Matchers.allOf(
							org.hamcrest.Matchers.hasProperty("namespaces", org.hamcrest.Matchers.is("refs/heads/")),
							org.hamcrest.Matchers.hasProperty("mergedInto", org.hamcrest.Matchers.is("HEAD")),
							org.hamcrest.Matchers.hasProperty("olderThan", org.hamcrest.Matchers.is("90d")),
							org.hamcrest.Matchers.hasProperty("globs", org.hamcrest.Matchers.is("refs/heads/b/*")))))
			.andExpect(content().string(containsString("value=\"refs/heads/\"")));
		long plan = redirectedId(this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("namespaces", "refs/heads/")
				.param("mergedInto", "HEAD")
				.param("olderThan", "@1700000001")
				.with(operator())
				.with(csrf()))
			.andReturn());
		assertThat(awaitEnd(plan, "plan.count")).isEqualTo("COMPLETED");
		String merged = repo.git("for-each-ref", "--merged", "HEAD", "--format=%(refname)", "refs/heads/");
		assertThat(merged.lines().count()).isEqualTo(4);
		this.mvc.perform(get("/jobs/" + plan).with(viewer()))
			.andExpect(content().string(containsString("id=\"plan-criteria\"")))
			.andExpect(content().string(containsString("merged into refs/heads/main (")))
			.andExpect(content().string(containsString("dated before 2023-11-14 22:13:21 UTC")))
			.andExpect(
					content().string(containsString("merged into refs/heads/main; committed 2023-11-14 22:13:20 UTC")));
		this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("namespaces", "refs/heads/")
				.param("olderThan", "soon")
				.with(operator())
				.with(csrf()))
			.andExpect(model().attributeHasFieldErrors("launchForm", "olderThan"));
	}

	@Test
	void aPlanThatMatchesNothingSaysSoAndOffersNoDeletion() throws Exception {
		String name = uniqueName("console-empty-plan");
		repo(name, 3);
		long plan = redirectedId(this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("globs", "refs/pull/*")
				.param("prefixes", "")
				.with(operator())
				.with(csrf()))
			.andReturn());
		assertThat(awaitEnd(plan, "plan.count")).isEqualTo("COMPLETED");
		this.mvc.perform(get("/jobs/" + plan).with(admin()))
			.andExpect(content().string(containsString("id=\"plan-empty\"")))
			.andExpect(content().string(containsString("does not cross")))
			.andExpect(content().string(not(containsString("id=\"confirm-deletion\""))))
			.andExpect(content().string(not(containsString("The first ones"))))
			.andExpect(content().string(containsString("Plan again")));
		this.mvc.perform(get("/jobs/" + plan).with(viewer()))
			.andExpect(content().string(containsString("id=\"plan-empty\"")))
			.andExpect(content().string(not(containsString("Plan again"))));
	}

	@Test
	void aDeletionIsExecutedOnlyWithTheRightConfirmationAndThenRestored() throws Exception {
		String name = uniqueName("console-delete");
		TempRepo repo = repo(name, 12);
		String before = repo.git("for-each-ref");
		long plan = plannedBranches(name);
		this.mvc
			.perform(post("/jobs/" + plan + "/execute").param("confirmRepository", name)
				.param("confirmCount", "12")
				.with(operator())
				.with(csrf()))
			.andExpect(status().isForbidden());
		this.mvc.perform(execute(plan, name, "13"))
			.andExpect(redirectedUrl("/jobs/" + plan + "#confirm-deletion"))
			.andExpect(flash().attribute("confirmError", "Type the number of refs the plan deletes: 12."))
			.andExpect(flash().attribute("confirmCount", "13"))
			.andExpect(flash().attribute("confirmRepository", name));
		this.mvc.perform(execute(plan, "other.git", "12"))
			.andExpect(redirectedUrl("/jobs/" + plan + "#confirm-deletion"))
			.andExpect(flash().attribute("confirmError", containsString(name)));
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		long deletion = redirectedId(this.mvc.perform(execute(plan, name, "12"))
			.andExpect(flash().attribute("message", containsString("Deleting")))
			.andReturn());
		assertThat(awaitEnd(deletion, null)).isEqualTo("COMPLETED");
		assertThat(repo.git("for-each-ref", "--format=%(refname)").trim()).isEqualTo("refs/heads/main");
		// the restore form offers the deletion to pick (not its plan), not a manifest to
		// type
		this.mvc.perform(get("/jobs/new/restore").param("repo", name).with(admin()))
			.andExpect(content().string(containsString("id=\"manifest-choices\"")))
			.andExpect(content().string(containsString("href=\"/jobs/" + deletion + "\">Job " + deletion + "</a>")))
			.andExpect(content().string(not(containsString("href=\"/jobs/" + plan + "\">Job " + plan + "</a>"))))
			.andExpect(content().string(not(containsString("id=\"manifest\""))));
		this.mvc.perform(
				post("/jobs/" + deletion + "/restore").param("confirmRepository", name).with(operator()).with(csrf()))
			.andExpect(status().isForbidden());
		this.mvc.perform(post("/jobs/" + plan + "/restore").param("confirmRepository", name).with(admin()).with(csrf()))
			.andExpect(status().isBadRequest());
		// the plan and the deletion link each other; a restore needs the repository's
		// name typed
		this.mvc.perform(get("/jobs/" + plan).with(viewer()))
			.andExpect(content().string(containsString("Executed by")))
			.andExpect(content().string(containsString("refs for deletion; job " + deletion + " deleted them.")))
			.andExpect(content().string(not(containsString("Nothing is deleted until"))))
			.andExpect(content().string(not(containsString("id=\"confirm-deletion\""))));
		this.mvc
			.perform(post("/jobs/" + deletion + "/restore").param("confirmRepository", "not-" + name)
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrl("/jobs/" + deletion + "#confirm-restore"))
			.andExpect(flash().attribute("restoreError", containsString("Type the repository's name exactly")));
		assertThat(repo.git("for-each-ref", "--format=%(refname)").trim()).isEqualTo("refs/heads/main");
		long restore = redirectedId(this.mvc
			.perform(post("/jobs/" + deletion + "/restore").param("confirmRepository", name).with(admin()).with(csrf()))
			.andExpect(flash().attribute("message", containsString("Restoring")))
			.andReturn());
		assertThat(awaitEnd(restore, null)).isEqualTo("COMPLETED");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		this.mvc.perform(get("/jobs/" + deletion).with(admin()))
			.andExpect(content().string(containsString("Restored by")))
			.andExpect(content().string(containsString("Executes the plan of")))
			.andExpect(content().string(not(containsString("id=\"confirm-restore\""))));
		this.mvc.perform(get("/jobs/" + restore).with(viewer()))
			.andExpect(content().string(containsString("Puts back what")));
	}

	/**
	 * The count to type is accepted as the plan's page shows it, thousands separator and
	 * all; a wrong one comes back on the plan's page (not the POST's address) with the
	 * count as shown and what was typed.
	 */
	@Test
	void theCountIsConfirmedAsThePageShowsIt() throws Exception {
		String name = uniqueName("console-grouped");
		TempRepo repo = repo(name, 1_200);
		long plan = plannedBranches(name);
		this.mvc.perform(get("/jobs/" + plan).with(admin()))
			.andExpect(content().string(containsString("<strong id=\"plan-count\">1,200</strong>")));
		MvcResult refused = this.mvc.perform(execute(plan, name, "1,2000"))
			.andExpect(redirectedUrl("/jobs/" + plan + "#confirm-deletion"))
			.andExpect(flash().attribute("confirmError", "Type the number of refs the plan deletes: 1,200."))
			.andReturn();
		this.mvc.perform(get("/jobs/" + plan).flashAttrs(refused.getFlashMap()).with(admin()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("Type the number of refs the plan deletes: 1,200.")))
			.andExpect(content().string(containsString("value=\"1,2000\"")));
		assertThat(repo.git("for-each-ref", "--format=%(refname)").lines().count()).isEqualTo(1_201);
		long deletion = redirectedId(this.mvc.perform(execute(plan, name, "1,200"))
			.andExpect(flash().attribute("message", containsString("Deleting")))
			.andReturn());
		assertThat(awaitEnd(deletion, null)).isEqualTo("COMPLETED");
		assertThat(repo.git("for-each-ref", "--format=%(refname)").trim()).isEqualTo("refs/heads/main");
	}

	@Test
	void aPlanShowsTheProtectedRefsItKeepsAndOnlyAnAdminOverridesThemWithAReason() throws Exception {
		String name = uniqueName("console-protected");
		TempRepo repo = repo(name, 2);
		repo.git("update-ref", "refs/notes/commits", repo.git("rev-parse", "refs/heads/main").trim());
		this.mvc.perform(get("/jobs/new/deletion").param("repo", name).with(operator()))
			.andExpect(content().string(not(containsString("overrideReason"))));
		this.mvc.perform(get("/jobs/new/deletion").param("repo", name).with(admin()))
			.andExpect(content().string(containsString("name=\"overrideReason\"")));
		this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("prefixes", "refs/")
				.param("overrideProtection", "true")
				.param("overrideReason", "mine")
				.with(operator())
				.with(csrf()))
			.andExpect(status().isForbidden());
		this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("prefixes", "refs/")
				.param("overrideProtection", "true")
				.param("overrideReason", " ")
				.with(admin())
				.with(csrf()))
			.andExpect(status().isOk())
			.andExpect(view().name(LaunchController.VIEWS_LAUNCH_FORM))
			.andExpect(model().attributeHasFieldErrors("launchForm", "overrideReason"));

		long plan = redirectedId(this.mvc.perform(
				post("/jobs/new/deletion").param("repo", name).param("prefixes", "refs/").with(operator()).with(csrf()))
			.andReturn());
		assertThat(awaitEnd(plan, "plan.protected.count")).isEqualTo("COMPLETED");
		this.mvc.perform(get("/jobs/" + plan).with(operator()))
			.andExpect(content().string(containsString("id=\"plan-count\">2</strong>")))
			.andExpect(content().string(containsString("id=\"plan-protected-count\">2</strong>")))
			.andExpect(content().string(containsString("refs/heads/main (HEAD)")))
			.andExpect(content().string(containsString("refs/notes/commits (refs/notes/**)")))
			.andExpect(content().string(not(containsString("plan-override"))));

		long overridden = redirectedId(this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("prefixes", "refs/")
				.param("overrideProtection", "true")
				.param("overrideReason", "test data only")
				.with(admin())
				.with(csrf()))
			.andReturn());
		assertThat(awaitEnd(overridden, "plan.protected.count")).isEqualTo("COMPLETED");
		this.mvc.perform(get("/jobs/" + overridden).with(operator()))
			.andExpect(content().string(containsString("id=\"plan-count\">4</strong>")))
			.andExpect(content().string(not(containsString("plan-protected-count"))))
			.andExpect(content().string(containsString("id=\"plan-override\"")))
			.andExpect(content().string(containsString("test data only")));
	}

	/**
	 * A plan's counts are in words, one ref or several ("1 protected ref"), and the
	 * deletion that executed it names its plan by where it is and the job that made it,
	 * not as "plan".
	 */
	@Test
	void aPlanOfOneRefSaysSoAndItsDeletionNamesThePlansJob() throws Exception {
		String name = uniqueName("console-one");
		repo(name, 1);
		long plan = plannedBranches(name);
		this.mvc.perform(get("/jobs/" + plan).with(admin()))
			.andExpect(content().string(containsString("<strong id=\"plan-count\">1</strong>\n\t\t\tref from")))
			.andExpect(content()
				.string(containsString("Plans to delete 1 ref. Nothing is deleted until it is confirmed.")))
			.andExpect(
					content().string(containsString("<th scope=\"row\">Plan only</th>\n\t\t\t<td><span>Yes</span>")));
		long deletion = redirectedId(this.mvc.perform(execute(plan, name, "1")).andReturn());
		assertThat(awaitEnd(deletion, null)).isEqualTo("COMPLETED");
		String page = this.mvc.perform(get("/jobs/" + deletion).with(viewer()))
			.andExpect(content().string(containsString("Deleted 1 ref; the manifest keeps it for a restore.")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(page).containsPattern(
				"<tr data-parameter=\"plan\"><th scope=\"row\">Plan</th>\\s*<td><span class=\"mono\">[^<]+/plan</span>,\\s*made by <a href=\"/jobs/"
						+ plan + "\">job " + plan + "</a>")
			.doesNotContain("<span class=\"mono\">plan</span>")
			.doesNotContain("<td class=\"mono\">plan</td>");
	}

	/** Protected refs are counted in words, one or several. */
	@Test
	void oneProtectedRefIsOneRef() throws Exception {
		String name = uniqueName("console-protected-one");
		repo(name, 2);
		long plan = redirectedId(this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("prefixes", "refs/heads/")
				.with(operator())
				.with(csrf()))
			.andReturn());
		assertThat(awaitEnd(plan, "plan.protected.count")).isEqualTo("COMPLETED");
		this.mvc.perform(get("/jobs/" + plan).with(viewer()))
			.andExpect(content().string(containsString("(1 protected ref kept)")))
			.andExpect(content().string(containsString("ref the selection matched is kept")))
			.andExpect(content().string(containsString("<strong id=\"plan-count\">2</strong>\n\t\t\trefs from")));
	}

}
