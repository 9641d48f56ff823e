package io.refstore.web.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;

import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditFilter;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The console's schedule pages, one test per handler, on the real application: what the
 * forms store, how a refused field comes back on the form, pause/resume and run now from
 * the list, and the form's preview of the next fires.
 */
class ScheduleControllerTest extends ConsoleTestSupport {

	@Autowired
	ScheduleService schedules;

	@Autowired
	AuditLog audit;

	@Autowired
	ScheduleStore store;

	@Autowired
	RefJobs jobs;

	/**
	 * A POST of the schedule form for {@code name} on {@code repo}, UTC and skipped
	 * misfires; the caller adds the job type, when and the user.
	 */
	private static MockHttpServletRequestBuilder scheduleForm(String path, String name, String repo) {
		MockHttpServletRequestBuilder form = post(path).with(csrf())
			.param("targetKind", "REPOSITORY")
			.param("target", repo)
			.param("timeZone", "UTC")
			.param("misfire", "SKIP");
		return (name != null) ? form.param("name", name) : form;
	}

	private String created(String stem) throws Exception {
		String repo = uniqueName(stem) + ".git";
		bareRepo(repo);
		String name = uniqueName(stem);
		this.mvc
			.perform(post("/schedules/new").with(operator())
				.with(csrf())
				.param("name", name)
				.param("jobType", "MAINTAIN")
				.param("targetKind", "REPOSITORY")
				.param("target", repo)
				.param("cron", "0 0 3 * * ?")
				.param("timeZone", "UTC")
				.param("misfire", "RUN_ONCE")
				.param("values[force]", "true"))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/schedules"))
			.andExpect(flash().attribute("message", "Schedule " + name + " created."));
		return name;
	}

	@Test
	void listShowsSchedulesWithTheirNextFire() throws Exception {
		String name = created("listed");
		this.mvc.perform(get("/schedules").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(ScheduleController.VIEWS_SCHEDULE_LIST))
			.andExpect(content().string(containsString("id=\"schedule-" + name + "\"")))
			.andExpect(content().string(containsString("0 0 3 * * ? (UTC)")))
			.andExpect(content().string(containsString("every day at 03:00 UTC")));
	}

	@Test
	void creationFormStartsWithDefaults() throws Exception {
		this.mvc.perform(get("/schedules/new").with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(ScheduleController.VIEWS_SCHEDULE_FORM))
			.andExpect(model().attributeExists("form", "jobTypes"));
	}

	/**
	 * The form offers the jobs the role may schedule: an operator maintenance,
	 * inventories and deletion plans, not a migration, which only an administrator may
	 * save.
	 */
	@Test
	void theFormOffersOnlyTheJobsTheRoleMaySchedule() throws Exception {
		this.mvc.perform(get("/schedules/new").with(operator()))
			.andExpect(model().attribute("jobTypes",
					org.hamcrest.Matchers.hasItems(RefJobType.MAINTAIN, RefJobType.INVENTORY, RefJobType.DELETE)))
			.andExpect(model().attribute("jobTypes",
					org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem(RefJobType.MIGRATE))))
			.andExpect(content().string(org.hamcrest.Matchers.not(containsString("value=\"MIGRATE\""))));
		this.mvc.perform(get("/schedules/new").with(admin()))
			.andExpect(model().attribute("jobTypes", org.hamcrest.Matchers.hasItem(RefJobType.MIGRATE)))
			.andExpect(content().string(containsString("<option value=\"MIGRATE\">Migration</option>")));
	}

	@Test
	void creationStoresTheSchedule() throws Exception {
		String stored = created("stored");
		Schedule schedule = asViewer(() -> this.schedules.find(stored)).orElseThrow();
		assertThat(schedule.misfire()).isEqualTo(Schedule.Misfire.RUN_ONCE);
		assertThat(schedule.parameters()).containsEntry("force", "true");
		assertThat(schedule.createdBy()).isEqualTo("operator");
	}

	@Test
	void aRefusedFieldComesBackOnTheForm() throws Exception {
		this.mvc
			.perform(post("/schedules/new").with(operator())
				.with(csrf())
				.param("name", uniqueName("bad"))
				.param("jobType", "VERIFY")
				.param("targetKind", "GLOB")
				.param("target", "*")
				.param("cron", "not cron")
				.param("timeZone", "UTC")
				.param("misfire", "SKIP"))
			.andExpect(status().isOk())
			.andExpect(view().name(ScheduleController.VIEWS_SCHEDULE_FORM))
			.andExpect(model().attributeHasFieldErrors("form", "cron"));
	}

	@Test
	void editFormShowsTheStoredValuesAndSavingReplacesThem() throws Exception {
		String name = created("edited");
		this.mvc.perform(get("/schedules/" + name + "/edit").with(operator()))
			.andExpect(status().isOk())
			.andExpect(model().attribute("editing", true))
			.andExpect(content().string(containsString("Not fired yet.")));
		this.mvc
			.perform(post("/schedules/" + name + "/edit").with(operator())
				.with(csrf())
				.param("jobType", "VERIFY")
				.param("targetKind", "LOOSE_REFS_ABOVE")
				.param("target", "100")
				.param("cron", "0 0 4 * * ?")
				.param("timeZone", "Asia/Tokyo")
				.param("misfire", "SKIP"))
			.andExpect(redirectedUrl("/schedules"));
		Schedule schedule = asViewer(() -> this.schedules.find(name)).orElseThrow();
		assertThat(schedule.targetKind()).isEqualTo(Schedule.TargetKind.LOOSE_REFS_ABOVE);
		assertThat(schedule.timeZone()).isEqualTo("Asia/Tokyo");
	}

	@Test
	void pauseAndResumeFromTheList() throws Exception {
		String name = created("paused");
		this.mvc.perform(post("/schedules/" + name + "/pause").with(operator()).with(csrf()))
			.andExpect(redirectedUrl("/schedules"));
		assertThat(asViewer(() -> this.schedules.find(name)).orElseThrow().paused()).isTrue();
		this.mvc.perform(post("/schedules/" + name + "/resume").with(operator()).with(csrf()))
			.andExpect(redirectedUrl("/schedules"));
		assertThat(asViewer(() -> this.schedules.find(name)).orElseThrow().paused()).isFalse();
	}

	@Test
	void viewersCannotCreate() throws Exception {
		this.mvc
			.perform(post("/schedules/new").with(viewer())
				.with(csrf())
				.param("name", "x")
				.param("jobType", "VERIFY")
				.param("target", "x")
				.param("cron", "0 0 2 * * ?"))
			.andExpect(status().isForbidden());
	}

	@Test
	void viewersSeeSchedulesReadOnly() throws Exception {
		String name = created("read-only");
		this.mvc.perform(get("/schedules").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"schedule-" + name + "\"")))
			.andExpect(content().string(not(containsString("id=\"new-schedule\""))))
			.andExpect(content().string(not(containsString("/pause\""))));
		this.mvc.perform(get("/schedules/new").with(viewer())).andExpect(status().isForbidden());
		this.mvc.perform(get("/schedules/" + name + "/edit").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"read-only\"")))
			.andExpect(content().string(containsString("<fieldset disabled")))
			.andExpect(content().string(not(containsString("id=\"save\""))));
	}

	@Test
	void operatorsCannotChangeAScheduleOfAnAdministratorsJob() throws Exception {
		String repo = uniqueName("admin-job") + ".git";
		bareRepo(repo);
		String name = uniqueName("admin-job");
		this.mvc
			.perform(scheduleForm("/schedules/new", name, repo).with(admin())
				.param("jobType", "DELETE")
				.param("cron", "0 0 3 * * ?")
				.param("values[prefixes]", "refs/pull/"))
			.andExpect(redirectedUrl("/schedules"));
		String maintained = created("operator-job");
		String list = this.mvc.perform(get("/schedules").with(operator()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"new-schedule\"")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(list).contains("/schedules/" + maintained + "/pause")
			.doesNotContain("/schedules/" + name + "/pause");
		this.mvc.perform(get("/schedules/" + name + "/edit").with(operator()))
			.andExpect(content().string(containsString("id=\"read-only\"")));
		this.mvc.perform(get("/schedules/" + name + "/edit").with(admin()))
			.andExpect(content().string(not(containsString("id=\"read-only\""))))
			.andExpect(content().string(containsString("id=\"save\"")));
		this.mvc.perform(post("/schedules/" + name + "/pause").with(operator()).with(csrf()))
			.andExpect(status().isForbidden());
		// the refusal is in the audit log once, with its reason; the changes that were
		// made are there too
		List<AuditEntry> denied = asOperator(() -> this.audit
			.search(new AuditFilter("operator", "request.denied", null, null, null, null, null, 100))).entries()
			.stream()
			.filter((entry) -> entry.target().equals("POST /schedules/" + name + "/pause"))
			.toList();
		assertThat(denied).singleElement().satisfies((entry) -> {
			assertThat(entry.outcome()).isEqualTo(AuditEntry.Outcome.DENIED);
			assertThat(entry.detail()).isEqualTo("schedules of delete jobs like this need role ADMIN");
		});
		assertThat(asOperator(
				() -> this.audit.search(new AuditFilter("admin", "schedule.create", repo, null, null, null, null, 100)))
			.entries()).singleElement().satisfies((entry) -> assertThat(entry.target()).isEqualTo(name));
		this.mvc.perform(post("/schedules/" + maintained + "/pause").with(operator()).with(csrf()))
			.andExpect(redirectedUrl("/schedules"));
		assertThat(asOperator(() -> this.audit
			.search(new AuditFilter("operator", "schedule.pause", null, null, null, null, null, 100))).entries())
			.anySatisfy((entry) -> {
				assertThat(entry.target()).isEqualTo(maintained);
				assertThat(entry.detail()).endsWith(", paused");
			});
	}

	/**
	 * A schedule is deleted from the list after a confirmation page, by the roles the
	 * API's delete allows: an operator its own kind of schedule, an administrator's job's
	 * only an administrator; a viewer none.
	 */
	@Test
	void aScheduleIsDeletedAfterAConfirmationByTheRolesThatMay() throws Exception {
		String maintained = created("deleted");
		String repo = uniqueName("deleted-admin") + ".git";
		bareRepo(repo);
		String adminJob = uniqueName("deleted-admin");
		this.mvc
			.perform(scheduleForm("/schedules/new", adminJob, repo).with(admin())
				.param("jobType", "DELETE")
				.param("cron", "0 0 3 * * ?")
				.param("values[prefixes]", "refs/pull/"))
			.andExpect(redirectedUrl("/schedules"));
		String list = this.mvc.perform(get("/schedules").with(operator()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(list).contains("href=\"/schedules/" + maintained + "/delete\"")
			.doesNotContain("/schedules/" + adminJob + "/delete");
		this.mvc.perform(get("/schedules").with(viewer()))
			.andExpect(content().string(not(containsString("/delete\""))));
		this.mvc.perform(get("/schedules/" + maintained + "/delete").with(viewer())).andExpect(status().isForbidden());
		this.mvc.perform(post("/schedules/" + maintained + "/delete").with(viewer()).with(csrf()))
			.andExpect(status().isForbidden());
		// the confirmation says what goes; nothing is deleted until it is posted
		this.mvc.perform(get("/schedules/" + maintained + "/delete").with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(ScheduleController.VIEWS_DELETE_SCHEDULE))
			.andExpect(content().string(containsString("0 0 3 * * ? (UTC)")))
			.andExpect(content().string(containsString("id=\"delete-schedule\"")));
		assertThat(asViewer(() -> this.schedules.find(maintained))).isPresent();
		this.mvc.perform(post("/schedules/" + maintained + "/delete").with(operator()).with(csrf()))
			.andExpect(redirectedUrl("/schedules"))
			.andExpect(flash().attribute("message", "Schedule " + maintained + " deleted."));
		assertThat(asViewer(() -> this.schedules.find(maintained))).isEmpty();
		this.mvc.perform(get("/api/schedules/" + maintained).with(as("viewer"))).andExpect(status().isNotFound());
		this.mvc.perform(get("/schedules/" + maintained + "/delete").with(operator())).andExpect(status().isNotFound());
		// an administrator's job: explained to an operator, refused if posted anyway
		this.mvc.perform(get("/schedules/" + adminJob + "/delete").with(operator()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"delete-needs-admin\"")))
			.andExpect(content().string(not(containsString("id=\"delete-schedule\""))));
		this.mvc.perform(post("/schedules/" + adminJob + "/delete").with(operator()).with(csrf()))
			.andExpect(status().isForbidden());
		assertThat(asViewer(() -> this.schedules.find(adminJob))).isPresent();
		this.mvc.perform(post("/schedules/" + adminJob + "/delete").with(admin()).with(csrf()))
			.andExpect(redirectedUrl("/schedules"));
		assertThat(asViewer(() -> this.schedules.find(adminJob))).isEmpty();
		assertThat(asOperator(() -> this.audit
			.search(new AuditFilter("operator", "schedule.delete", null, null, null, null, null, 100))).entries())
			.anySatisfy((entry) -> assertThat(entry.target()).isEqualTo(maintained));
	}

	@Test
	void aScheduleFiresOnceAtATimeInsteadOfACron() throws Exception {
		String repo = uniqueName("once") + ".git";
		bareRepo(repo);
		String name = uniqueName("once");
		this.mvc
			.perform(scheduleForm("/schedules/new", name, repo).with(operator())
				.param("jobType", "MAINTAIN")
				.param("cron", "")
				.param("onceAt", "2099-01-01T06:00:00Z"))
			.andExpect(redirectedUrl("/schedules"));
		Schedule schedule = asViewer(() -> this.schedules.find(name)).orElseThrow();
		assertThat(schedule.cron()).isNull();
		assertThat(schedule.onceAt()).isEqualTo(java.time.Instant.parse("2099-01-01T06:00:00Z"));
		// the edit form shows it as it is, so saving keeps it a one-off
		this.mvc.perform(get("/schedules/" + name + "/edit").with(operator()))
			.andExpect(content().string(containsString("value=\"2099-01-01T06:00:00Z\"")));
		this.mvc
			.perform(scheduleForm("/schedules/" + name + "/edit", null, repo).with(operator())
				.param("jobType", "MAINTAIN")
				.param("cron", "")
				.param("onceAt", "next tuesday"))
			.andExpect(status().isOk())
			.andExpect(model().attributeHasFieldErrors("form", "onceAt"));
	}

	/**
	 * Run now is offered to the roles that may change the schedule only: a viewer sees no
	 * button, and a POST it forges anyway is refused and fires nothing.
	 */
	@Test
	void aViewerIsNotOfferedRunNowAndAForgedPostIsRefused() throws Exception {
		String name = created("viewer-run");
		this.mvc.perform(get("/schedules").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"schedule-" + name + "\"")))
			.andExpect(content().string(not(containsString("/run\""))))
			.andExpect(content().string(not(containsString("Run now"))));
		this.mvc.perform(post("/schedules/" + name + "/run").with(viewer()).with(csrf()))
			.andExpect(status().isForbidden());
		assertThat(this.store.runs(name, 10)).isEmpty();
	}

	/**
	 * An operator runs a maintenance schedule now: one fire through the queue, recorded
	 * as a run with the job it launched (actor {@code schedule:<name>}), audited as the
	 * operator's; the message links the job, and the list shows the last run's outcome
	 * and duration once the job ended.
	 */
	@Test
	void anOperatorRunsAMaintenanceScheduleNowAndTheListShowsTheRun() throws Exception {
		String name = created("run-now");
		this.mvc.perform(get("/schedules").with(operator()))
			.andExpect(content().string(containsString("action=\"/schedules/" + name + "/run\"")))
			.andExpect(content().string(containsString("id=\"run-" + name + "\"")));
		MvcResult ran = this.mvc.perform(post("/schedules/" + name + "/run").with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/schedules"))
			.andReturn();
		List<ScheduleRun> runs = this.store.runs(name, 10);
		assertThat(runs).singleElement().satisfies((run) -> {
			assertThat(run.outcome()).isEqualTo(ScheduleRun.Outcome.LAUNCHED);
			assertThat(run.executionId()).isNotNull();
		});
		long job = runs.get(0).executionId();
		assertThat(this.jobs.find(job).orElseThrow().actor()).isEqualTo("schedule:" + name);
		ScheduleController.RanNow said = (ScheduleController.RanNow) ran.getFlashMap().get("ranNow");
		assertThat(said.summary()).isEqualTo("1 launched");
		assertThat(said.runs()).singleElement().satisfies((line) -> {
			assertThat(line.executionId()).isEqualTo(job);
			assertThat(line.words()).isEqualTo("launched");
		});
		this.mvc.perform(get("/schedules").flashAttrs(ran.getFlashMap()).with(operator()))
			.andExpect(content().string(containsString("id=\"run-now-result\"")))
			.andExpect(content().string(containsString("href=\"/jobs/" + job + "\"")));
		assertThat(asOperator(
				() -> this.audit.search(new AuditFilter("operator", "schedule.run", null, null, null, null, null, 100)))
			.entries()).anySatisfy((entry) -> {
				assertThat(entry.target()).isEqualTo(name);
				assertThat(entry.detail()).endsWith("1 launched");
			});
		await("the job's end").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> !this.jobs.find(job).orElseThrow().running());
		String row = row(
				this.mvc.perform(get("/schedules").with(viewer())).andReturn().getResponse().getContentAsString(),
				name);
		assertThat(row).contains("href=\"/jobs/" + job + "\"")
			.contains("class=\"badge COMPLETED\"")
			.containsPattern("class=\"duration\">in \\d")
			.doesNotContain("never");
	}

	/**
	 * An operator cannot run a schedule of an administrator's job (a deletion): no
	 * button, and a forged POST is refused, in the audit log once, and fires nothing.
	 */
	@Test
	void anOperatorCannotRunAScheduleOfAnAdministratorsJob() throws Exception {
		String repo = uniqueName("run-admin") + ".git";
		bareRepo(repo);
		String name = uniqueName("run-admin");
		this.mvc
			.perform(scheduleForm("/schedules/new", name, repo).with(admin())
				.param("jobType", "DELETE")
				.param("cron", "0 0 3 * * ?")
				.param("values[prefixes]", "refs/pull/"))
			.andExpect(redirectedUrl("/schedules"));
		assertThat(this.mvc.perform(get("/schedules").with(operator())).andReturn().getResponse().getContentAsString())
			.doesNotContain("/schedules/" + name + "/run");
		assertThat(this.mvc.perform(get("/schedules").with(admin())).andReturn().getResponse().getContentAsString())
			.contains("action=\"/schedules/" + name + "/run\"");
		this.mvc.perform(post("/schedules/" + name + "/run").with(operator()).with(csrf()))
			.andExpect(status().isForbidden());
		assertThat(this.store.runs(name, 10)).isEmpty();
		assertThat(asOperator(() -> this.audit
			.search(new AuditFilter("operator", "request.denied", null, null, null, null, null, 100))).entries())
			.filteredOn((entry) -> entry.target().equals("POST /schedules/" + name + "/run"))
			.singleElement()
			.satisfies((entry) -> assertThat(entry.detail())
				.isEqualTo("schedules of delete jobs like this need role ADMIN"));
	}

	/**
	 * The form previews the next five fires as the operator types, in words and 24-hour
	 * UTC, or says what is wrong, naming the field, with Quartz's own reason.
	 */
	@Test
	void theFormPreviewsTheNextFiresOrSaysWhatIsWrong() throws Exception {
		this.mvc.perform(get("/schedules/new").with(operator()))
			.andExpect(content().string(containsString("id=\"cron-preview\"")))
			.andExpect(content().string(containsString("every day at 02:00 UTC")))
			.andExpect(content().string(containsString("02:00:00 UTC</time>")));
		String preview = this.mvc
			.perform(get("/schedules/preview").param("cron", "0 */15 * * * ?")
				.param("timeZone", "UTC")
				.param("onceAt", "")
				.with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(ScheduleController.VIEWS_CRON_PREVIEW))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(preview).contains("every 15 minutes").doesNotContain("cron-preview-error");
		assertThat(preview.split("<time ", -1)).hasSize(6);
		assertThat(preview).containsPattern(":(00|15|30|45):00 UTC</time>").doesNotContain("<html");
		this.mvc
			.perform(get("/schedules/preview").param("cron", "0 61 * * * ?").param("timeZone", "UTC").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"cron-preview-error\"")))
			.andExpect(content().string(containsString("cron: not a Quartz cron expression (")))
			.andExpect(content().string(containsString("Minute and Second values must be between 0 and 59")))
			.andExpect(content().string(not(containsString("<time"))))
			.andExpect(content().string(not(containsString("Exception"))));
		this.mvc.perform(get("/schedules/preview").param("cron", "0 0 2 * *").param("timeZone", "UTC").with(operator()))
			.andExpect(content()
				.string(containsString("cron: not a Quartz cron expression (Unexpected end of expression.)")));
		// where Quartz's words name its parser's exception, the preview says it in words
		for (String cron : List.of("0 0 99999999999 * * ?", "a b c d e f", "0 0 2 * * 1-")) {
			this.mvc.perform(get("/schedules/preview").param("cron", cron).param("timeZone", "UTC").with(operator()))
				.andExpect(content().string(containsString(
						"cron: not a Quartz cron expression (a field is not a number, name, range, list or step")))
				.andExpect(content().string(not(containsString("java."))))
				.andExpect(content().string(not(containsString("Exception"))));
		}
		this.mvc
			.perform(get("/schedules/preview").param("cron", "0 0 2 30 2 ?").param("timeZone", "UTC").with(operator()))
			.andExpect(content().string(containsString("id=\"next-fires-none\"")));
		this.mvc
			.perform(get("/schedules/preview").param("cron", "0 0 2 * * ?")
				.param("timeZone", "Mars/Olympus")
				.with(operator()))
			.andExpect(content().string(containsString("timeZone: not a time zone id")));
		this.mvc.perform(get("/schedules/preview").param("cron", "").param("onceAt", "next tuesday").with(operator()))
			.andExpect(content().string(containsString("onceAt: not an ISO time")));
		this.mvc.perform(
				get("/schedules/preview").param("cron", "").param("onceAt", "2099-01-01T06:00:00Z").with(operator()))
			.andExpect(content().string(containsString("once at 2099-01-01 06:00 UTC")))
			.andExpect(content().string(containsString("datetime=\"2099-01-01T06:00:00Z\"")));
	}

	/**
	 * A deletion schedule's form with four bad fields shows all four at once: each beside
	 * its field, and in the summary above the form, in words, never a class name; nothing
	 * is stored.
	 */
	@Test
	void aFormWithSeveralBadFieldsShowsEveryErrorAtOnce() throws Exception {
		String repo = uniqueName("all-errors") + ".git";
		bareRepo(repo);
		String name = uniqueName("all-errors");
		String page = this.mvc
			.perform(scheduleForm("/schedules/new", name, repo).with(operator())
				.param("jobType", "DELETE")
				.param("parametersFor", "DELETE")
				.param("cron", "0 61 * * * ?")
				.param("values[planOnly]", "true")
				.param("values[prefixes]", "refs/pull/")
				.param("values[chunkSize]", "0")
				.param("values[throttleMillis]", "lots")
				.param("values[olderThan]", "someday"))
			.andExpect(status().isOk())
			.andExpect(view().name(ScheduleController.VIEWS_SCHEDULE_FORM))
			.andExpect(model().attributeHasFieldErrors("form", "cron", "values[chunkSize]", "values[throttleMillis]",
					"values[olderThan]"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(page).contains("id=\"error-summary\"")
			.contains("4 things stop this schedule from being saved:")
			.contains("Refs per chunk must be a whole number from 1 to 100,000")
			.contains("Pause between chunks must be a whole number from 0 to 60,000 milliseconds")
			.contains("Tip older than: give an age such as 90d")
			.contains("When: not a Quartz cron expression")
			.contains("href=\"#param-chunkSize\"")
			.contains("id=\"param-chunkSize-error\"")
			.contains("id=\"param-throttleMillis-error\"")
			.contains("id=\"param-olderThan-error\"")
			.doesNotContain("Exception")
			.doesNotContain("java.")
			.doesNotContain("is refused:");
		// each message beside its field as well as in the summary
		assertThat(page.split("Refs per chunk must be a whole number", -1)).hasSize(3);
		assertThat(asViewer(() -> this.schedules.find(name))).isEmpty();
	}

	/**
	 * The typed fields make the job's parameters, and the edit form shows them again in
	 * the same fields: saving it as shown stores the same parameters.
	 */
	@Test
	void typedFieldsRoundTripThroughTheEditForm() throws Exception {
		String repo = uniqueName("typed") + ".git";
		bareRepo(repo);
		String name = uniqueName("typed");
		this.mvc
			.perform(scheduleForm("/schedules/new", name, repo).with(operator())
				.param("jobType", "DELETE")
				.param("parametersFor", "DELETE")
				.param("cron", "0 0 3 * * ?")
				.param("values[planOnly]", "true")
				.param("_values[planOnly]", "on")
				.param("values[prefixes]", " refs/pull/ ")
				.param("values[olderThan]", "90d")
				.param("values[mergedInto]", "")
				.param("values[chunkSize]", "500")
				.param("values[throttleMillis]", ""))
			.andExpect(redirectedUrl("/schedules"));
		Map<String, String> typed = Map.of("planOnly", "true", "prefixes", "refs/pull/", "olderThan", "90d",
				"chunkSize", "500");
		assertThat(asViewer(() -> this.schedules.find(name)).orElseThrow().parameters())
			.containsExactlyInAnyOrderEntriesOf(typed);
		String edit = this.mvc.perform(get("/schedules/" + name + "/edit").with(operator()))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(edit)
			.containsPattern("id=\"param-chunkSize\"[^>]*value=\"500\"|value=\"500\"[^>]*id=\"param-chunkSize\"")
			.contains("value=\"90d\"")
			.doesNotContain("key=value");
		this.mvc.perform(submitted(edit, "/schedules/" + name + "/edit").with(operator()))
			.andExpect(redirectedUrl("/schedules"));
		assertThat(asViewer(() -> this.schedules.find(name)).orElseThrow().parameters())
			.containsExactlyInAnyOrderEntriesOf(typed);
		// a maintenance schedule's one flag, and a verification's none
		String maintained = created("typed-force");
		assertThat(asViewer(() -> this.schedules.find(maintained)).orElseThrow().parameters())
			.containsExactlyEntriesOf(Map.of("force", "true"));
		this.mvc.perform(get("/schedules/parameters").param("jobType", "VERIFY").with(operator()))
			.andExpect(view().name(TypedParameters.VIEWS_PARAMETERS))
			.andExpect(content().string(containsString("This job takes no parameters.")));
		this.mvc.perform(get("/schedules/parameters").param("jobType", "MIGRATE").with(operator()))
			.andExpect(content().string(containsString("id=\"param-targetFormat\"")))
			.andExpect(content().string(containsString("from 1 to 1,000,000")))
			.andExpect(content().string(not(containsString("<html"))));
	}

	/**
	 * A schedule stored with parameters in text the typed fields would write otherwise
	 * (an API client's {@code chunkSize=0500}, an explicit {@code planOnly=false} and
	 * {@code throttleMillis=0}, which are the defaults) opens in the typed form and saves
	 * unchanged.
	 */
	@Test
	void aScheduleStoredAsKeyValueTextEditsAndSavesUnchanged() throws Exception {
		String repo = uniqueName("old-text") + ".git";
		bareRepo(repo);
		String name = uniqueName("old-text");
		this.mvc.perform(post("/api/schedules").with(as("admin")).contentType(MediaType.APPLICATION_JSON).content("""
				{"name":"%s","jobType":"delete","targetKind":"REPOSITORY","target":"%s","cron":"0 0 3 * * ?",
				 "parameters":{"prefixes":"refs/pull/,refs/merge-requests/","chunkSize":"0500",
				 "planOnly":"false","throttleMillis":"0","names":"refs/heads/old"}}""".formatted(name, repo)))
			.andExpect(status().isCreated());
		Map<String, String> stored = asViewer(() -> this.schedules.find(name)).orElseThrow().parameters();
		assertThat(stored).containsEntry("chunkSize", "0500").containsEntry("planOnly", "false");
		String edit = this.mvc.perform(get("/schedules/" + name + "/edit").with(admin()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(edit).contains("value=\"0500\"").contains("value=\"refs/pull/,refs/merge-requests/\"");
		this.mvc.perform(submitted(edit, "/schedules/" + name + "/edit").with(admin()))
			.andExpect(redirectedUrl("/schedules"));
		assertThat(asViewer(() -> this.schedules.find(name)).orElseThrow().parameters())
			.containsExactlyEntriesOf(stored);
	}

	/**
	 * The POST a browser makes of the page's schedule form as shown: its inputs with
	 * their values (checked boxes only), and each select's selected option.
	 */
	private static MockHttpServletRequestBuilder submitted(String html, String action) {
		int start = html.indexOf("id=\"schedule-form\"");
		String form = html.substring(start, html.indexOf("</form>", start));
		Map<String, String> fields = new LinkedHashMap<>();
		Matcher input = Pattern.compile("<input([^>]*)>").matcher(form);
		while (input.find()) {
			String attributes = input.group(1);
			String fieldName = attribute(attributes, "name");
			boolean checkbox = attributes.contains("type=\"checkbox\"");
			if (fieldName == null || (checkbox && !attributes.contains("checked"))) {
				continue;
			}
			String value = attribute(attributes, "value");
			fields.put(fieldName, (value != null) ? value : checkbox ? "on" : "");
		}
		Matcher select = Pattern.compile("<select([^>]*)>(.*?)</select>", Pattern.DOTALL).matcher(form);
		while (select.find()) {
			Matcher selected = Pattern.compile("<option value=\"([^\"]*)\" selected").matcher(select.group(2));
			fields.put(attribute(select.group(1), "name"), selected.find() ? unescape(selected.group(1)) : "");
		}
		MockHttpServletRequestBuilder post = post(action).with(csrf());
		fields.forEach((key, value) -> {
			if (!key.equals("_csrf")) {
				post.param(key, value);
			}
		});
		return post;
	}

	private static String attribute(String attributes, String name) {
		Matcher value = Pattern.compile("(?:^|\\s)" + Pattern.quote(name) + "=\"([^\"]*)\"").matcher(attributes);
		return value.find() ? unescape(value.group(1)) : null;
	}

	private static String unescape(String text) {
		return text.replace("&quot;", "\"")
			.replace("&#39;", "'")
			.replace("&lt;", "<")
			.replace("&gt;", ">")
			.replace("&amp;", "&");
	}

	/** The row of the schedule {@code name} in the list's HTML. */
	private static String row(String html, String name) {
		int start = html.indexOf("id=\"schedule-" + name + "\"");
		assertThat(start).as("the row of " + name).isNotNegative();
		return html.substring(start, html.indexOf("</tr>", start));
	}

}
