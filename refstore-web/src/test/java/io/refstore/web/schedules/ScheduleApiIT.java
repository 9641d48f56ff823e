package io.refstore.web.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.endsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * {@code /api/schedules} on the real application (H2, Quartz's JDBC store, real jobs on
 * real git repositories): each handler, its role checks and its problem+json refusals,
 * and real fires launching jobs with actor {@code schedule:<name>}, including an overrun.
 */
class ScheduleApiIT extends ApiTestSupport {

	@Autowired
	ScheduleStore store;

	@Autowired
	RefJobs jobs;

	private static String body(String name, String jobType, String kind, String target, String cron, String zone) {
		return """
				{"name":"%s","jobType":"%s","targetKind":"%s","target":"%s","cron":"%s","timeZone":"%s"}"""
			.formatted(name, jobType, kind, target, cron, zone);
	}

	private ResultActions create(String user, String json) throws Exception {
		return this.mvc
			.perform(post("/api/schedules").with(as(user)).contentType(MediaType.APPLICATION_JSON).content(json));
	}

	@Test
	void createAnswersTheScheduleWithItsNextFiveFireTimesInItsZone() throws Exception {
		String repo = uniqueName("nightly") + ".git";
		bareRepo(repo);
		String name = uniqueName("nightly");
		create("operator", body(name, "maintain", "REPOSITORY", repo, "0 30 2 * * ?", "Europe/Paris"))
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", "/api/schedules/" + name))
			.andExpect(jsonPath("$.jobType").value("MAINTAIN"))
			.andExpect(jsonPath("$.nextFireTimes.length()").value(5));
		List<Instant> next = this.store.find(name)
			.map(ScheduleService::withNextFireTimes)
			.orElseThrow()
			.nextFireTimes();
		for (int i = 0; i < 5; i++) {
			ZonedDateTime paris = next.get(i).atZone(ZoneId.of("Europe/Paris"));
			assertThat(paris.getHour()).isEqualTo(2);
			assertThat(paris.getMinute()).isEqualTo(30);
			if (i > 0) {
				assertThat(next.get(i)).isAfter(next.get(i - 1));
			}
		}
		this.mvc.perform(get("/api/schedules").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.name == '" + name + "')].target").value(Matchers.contains(repo)));
		create("operator", body(name, "maintain", "REPOSITORY", repo, "0 30 2 * * ?", "UTC"))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.type").value(endsWith("/schedule-exists")));
	}

	@Test
	void theListIsPagedByNameWithALinkToTheNextPage() throws Exception {
		String repo = uniqueName("paged") + ".git";
		bareRepo(repo);
		String prefix = uniqueName("paged");
		List<String> names = List.of(prefix + "-a", prefix + "-b", prefix + "-c");
		for (String name : names) {
			create("operator", body(name, "maintain", "REPOSITORY", repo, "0 0 3 1 1 ?", "UTC"))
				.andExpect(status().isCreated());
		}
		String link = this.mvc
			.perform(get("/api/schedules").param("after", prefix).param("limit", "2").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.length()").value(2))
			.andExpect(jsonPath("$[0].name").value(names.get(0)))
			.andExpect(jsonPath("$[1].name").value(names.get(1)))
			.andReturn()
			.getResponse()
			.getHeader("Link");
		assertThat(link).isEqualTo("</api/schedules?after=" + names.get(1) + "&limit=2>; rel=\"next\"");
		this.mvc.perform(get(link.substring(1, link.indexOf('>'))).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[0].name").value(names.get(2)));
		for (String limit : List.of("0", "1001", "-1")) {
			this.mvc.perform(get("/api/schedules").param("limit", limit).with(as("viewer")))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.parameter").value("limit"));
		}
		for (String name : names) {
			this.mvc.perform(delete("/api/schedules/" + name).with(as("operator"))).andExpect(status().isNoContent());
		}
	}

	@Test
	void refusalsNameTheField() throws Exception {
		String repo = uniqueName("bad") + ".git";
		bareRepo(repo);
		create("operator", body("bad-cron", "verify", "REPOSITORY", repo, "0 61 * * * ?", "UTC"))
			.andExpect(status().isBadRequest())
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.parameter").value("cron"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", body("bad-zone", "verify", "REPOSITORY", repo, "0 0 2 * * ?", "Mars/Olympus"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("timeZone"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", body("bad-glob", "verify", "GLOB", "team/[abc", "0 0 2 * * ?", "UTC"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("target"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", body("long-glob", "verify", "GLOB", "**/".repeat(342) + "x", "0 0 2 * * ?", "UTC"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("target"))
			.andExpect(jsonPath("$.detail").value(Matchers.containsString("1027 bytes long")));
		create("admin",
				body("long-delete-glob", "delete", "REPOSITORY", repo, "0 0 2 * * ?", "UTC").replaceFirst("}\\s*$",
						",\"parameters\":{\"globs\":\"refs/" + "**/".repeat(340) + "x\"}}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("parameters.globs"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", body("bad-repo", "verify", "REPOSITORY", "no-such.git", "0 0 2 * * ?", "UTC"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("target"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", body("bad-type", "explode", "REPOSITORY", repo, "0 0 2 * * ?", "UTC"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("jobType"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		// stored parameters are checked as a launch checks them, not first at every fire
		create("admin",
				body("bad-chunk", "migrate", "REPOSITORY", repo, "0 0 2 * * ?", "UTC").replaceFirst("}\\s*$",
						",\"parameters\":{\"targetFormat\":\"reftable\",\"chunkSize\":\"lots\"}}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("parameters.chunkSize"))
			.andExpect(jsonPath("$.detail")
				.value(Matchers.containsString("Refs per chunk must be a whole number from 1 to 1,000,000")))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator",
				body("bad-key", "verify", "REPOSITORY", repo, "0 0 2 * * ?", "UTC").replaceFirst("}\\s*$",
						",\"parameters\":{\"colour\":\"red\"}}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("parameters.colour"));
		create("operator", body("bad name", "verify", "REPOSITORY", repo, "0 0 2 * * ?", "UTC"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("name"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		assertThat(this.store.find("bad-cron")).isEmpty();
	}

	@Test
	void operatorsManageSchedulesButOnlyAdminsDestructiveOnes() throws Exception {
		String repo = uniqueName("roles") + ".git";
		bareRepo(repo);
		create("viewer", body(uniqueName("v"), "verify", "REPOSITORY", repo, "0 0 2 * * ?", "UTC"))
			.andExpect(status().isForbidden());
		String deletion = uniqueName("purge");
		String migration = body(deletion, "migrate", "REPOSITORY", repo, "0 0 2 * * ?", "UTC").replaceFirst("}\\s*$",
				",\"parameters\":{\"targetFormat\":\"reftable\"}}");
		create("operator", migration).andExpect(status().isForbidden());
		create("admin", migration).andExpect(status().isCreated());
		this.mvc.perform(delete("/api/schedules/" + deletion).with(as("operator"))).andExpect(status().isForbidden());
		this.mvc.perform(delete("/api/schedules/" + deletion).with(as("admin"))).andExpect(status().isNoContent());
	}

	@Test
	void replacePauseResumeAndDeleteChangeWhatIsStored() throws Exception {
		String repo = uniqueName("cycle") + ".git";
		bareRepo(repo);
		String name = uniqueName("cycle");
		create("operator", body(name, "verify", "REPOSITORY", repo, "0 0 2 * * ?", "UTC"))
			.andExpect(status().isCreated());
		this.mvc
			.perform(put("/api/schedules/" + name).with(as("operator"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(body(name, "maintain", "GLOB", "cycle-*.git", "0 15 3 ? * MON", "UTC")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.jobType").value("MAINTAIN"))
			.andExpect(jsonPath("$.targetKind").value("GLOB"));
		assertThat(this.store.find(name).orElseThrow().cron()).isEqualTo("0 15 3 ? * MON");
		this.mvc.perform(post("/api/schedules/" + name + "/pause").with(as("operator")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.paused").value(true))
			.andExpect(jsonPath("$.nextFireTimes.length()").value(0));
		this.mvc.perform(post("/api/schedules/" + name + "/resume").with(as("operator")))
			.andExpect(jsonPath("$.paused").value(false))
			.andExpect(jsonPath("$.nextFireTimes.length()").value(5));
		this.mvc.perform(get("/api/schedules/" + name).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.schedule.name").value(name));
		this.mvc.perform(delete("/api/schedules/" + name).with(as("operator"))).andExpect(status().isNoContent());
		this.mvc.perform(get("/api/schedules/" + name).with(as("viewer")))
			.andExpect(status().isNotFound())
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.type").value(endsWith("/schedule-not-found")));
		this.mvc.perform(post("/api/schedules/" + name + "/pause").with(as("operator")))
			.andExpect(status().isNotFound());
	}

	@Test
	void firesLaunchJobsOnTheSelectedRepositoriesAsTheSchedule() throws Exception {
		String stem = uniqueName("fleet");
		bareRepo(stem + "-a.git");
		bareRepo(stem + "-b.git");
		bareRepo(uniqueName("other") + ".git");
		String name = uniqueName("every-2s");
		create("operator", body(name, "verify", "GLOB", stem + "-*.git", "*/2 * * * * ?", "UTC"))
			.andExpect(status().isCreated());
		// the two repositories of one fire (a fire two seconds later may record its first
		// before the first fire records its second)
		List<ScheduleRun> runs = await("runs of both repositories").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.store.runs(name, 100),
					(now) -> now.stream().map(ScheduleRun::repository).distinct().count() >= 2 && !queued(now));
		this.mvc.perform(post("/api/schedules/" + name + "/pause").with(as("operator"))).andExpect(status().isOk());
		assertThat(runs).extracting(ScheduleRun::repository)
			.contains(stem + "-a.git", stem + "-b.git")
			.allMatch((repository) -> repository.startsWith(stem));
		// a fire two seconds behind a loaded one may find its run still going or queued:
		// an overrun
		assertThat(runs).extracting(ScheduleRun::outcome)
			.isSubsetOf(ScheduleRun.Outcome.LAUNCHED, ScheduleRun.Outcome.OVERRUN);
		List<ScheduleRun> launched = runs.stream().filter((r) -> r.outcome() == ScheduleRun.Outcome.LAUNCHED).toList();
		assertThat(launched).extracting(ScheduleRun::repository).contains(stem + "-a.git", stem + "-b.git");
		for (ScheduleRun run : launched) {
			JobSummary job = this.jobs.find(run.executionId()).orElseThrow();
			assertThat(job.actor()).isEqualTo("schedule:" + name);
			assertThat(job.repository()).isEqualTo(run.repository());
		}
	}

	/**
	 * A one-off fire due two seconds after the schedule is made, with the default misfire
	 * policy (SKIP): the scheduler, woken while the schedule's transaction was still
	 * open, looks again within {@code org.quartz.scheduler.idleWaitTime}, well inside the
	 * misfire threshold, so the fire runs instead of being dropped as missed.
	 */
	@Test
	void aOneOffFireDueInTwoSecondsRuns() throws Exception {
		String repo = uniqueName("once") + ".git";
		bareRepo(repo);
		String name = uniqueName("once");
		this.mvc
			.perform(post("/api/schedules").with(as("operator"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("""
						{"name": "%s", "jobType": "verify", "target": "%s", "onceAt": "%s"}""".formatted(name, repo,
						Instant.now().plusSeconds(2))))
			.andExpect(status().isCreated());
		List<ScheduleRun> runs = awaitRuns(name, 1);
		assertThat(runs).extracting(ScheduleRun::outcome).containsExactly(ScheduleRun.Outcome.LAUNCHED);
	}

	@Test
	void aFireWhileTheEarlierRunStillGoesIsAnOverrun() throws Exception {
		String repo = uniqueName("slow") + ".git";
		TempRepo git = bareRepo(repo);
		String commit = git.commit("slow", null);
		for (int i = 0; i < 6; i++) {
			git.git("update-ref", "refs/heads/b" + i, commit);
		}
		String name = uniqueName("overrun");
		String json = """
				{"name":"%s","jobType":"migrate","target":"%s","cron":"*/2 * * * * ?",
				 "parameters":{"targetFormat":"reftable","chunkSize":"1","throttleMillis":"1000"}}""".formatted(name,
				repo);
		create("admin", json).andExpect(status().isCreated());
		await("an overrun naming its execution").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.store.runs(name, 50)
				.stream()
				.anyMatch((r) -> r.outcome() == ScheduleRun.Outcome.OVERRUN && r.executionId() != null));
		this.mvc.perform(post("/api/schedules/" + name + "/pause").with(as("admin"))).andExpect(status().isOk());
		Schedule schedule = this.store.find(name).orElseThrow();
		assertThat(schedule.overruns()).isPositive();
		assertThat(schedule.lastOverrunAt()).isNotNull();
		List<ScheduleRun> runs = this.store.runs(name, 50);
		ScheduleRun launched = runs.stream()
			.filter((r) -> r.outcome() == ScheduleRun.Outcome.LAUNCHED)
			.findFirst()
			.orElseThrow();
		// an overrun names the running execution, or (a fire right behind another) the
		// earlier fire's run still in the queue
		assertThat(runs).filteredOn((r) -> r.outcome() == ScheduleRun.Outcome.OVERRUN)
			.isNotEmpty()
			.allMatch((r) -> launched.executionId().equals(r.executionId())
					|| (r.executionId() == null && r.detail().contains("still waits for its turn")));
		assertThat(runs).filteredOn((r) -> r.outcome() == ScheduleRun.Outcome.OVERRUN)
			.anyMatch((r) -> launched.executionId().equals(r.executionId()));
		this.jobs.stop(launched.executionId(), "test");
	}

	@Test
	void aCronFiringMoreOftenThanTheMinimumIntervalIsRefusedNamingTheField() throws Exception {
		String repo = uniqueName("often") + ".git";
		bareRepo(repo);
		// the tests' minimum is 2 s; each of these comes closer somewhere: every second,
		// two seconds in a row each minute, every second of one hour of one day
		for (String cron : List.of("* * * * * ?", "0,1 * * * * ?", "* * 3 1 1 ?")) {
			create("operator", body(uniqueName("often"), "verify", "REPOSITORY", repo, cron, "UTC"))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.parameter").value("cron"))
				.andExpect(jsonPath("$.detail").value(Matchers.containsString("refstore.schedules.min-interval")));
		}
		String name = uniqueName("often");
		create("operator", body(name, "verify", "REPOSITORY", repo, "*/2 * * * * ?", "UTC"))
			.andExpect(status().isCreated());
		this.mvc
			.perform(put("/api/schedules/" + name).with(as("operator"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(body(name, "verify", "REPOSITORY", repo, "* * * * * ?", "UTC")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("cron"));
		assertThat(this.store.find(name).orElseThrow().cron()).isEqualTo("*/2 * * * * ?");
		this.mvc.perform(delete("/api/schedules/" + name).with(as("operator"))).andExpect(status().isNoContent());
		assertThat(new ScheduleProperties(null).minInterval()).isEqualTo(Duration.ofMinutes(1));
	}

	/**
	 * A fire over three repositories runs at most {@code refstore.fleet.jobs-per-node}
	 * (2) of its jobs at once on this node: the third waits QUEUED and is launched when
	 * one of the first two ends.
	 */
	@Test
	void aFireRunsAtMostJobsPerNodeOfItsJobsAtOnceTheOthersWaitQueued() throws Exception {
		String stem = uniqueName("queue");
		for (int i = 0; i < 3; i++) {
			TempRepo git = bareRepo(stem + "-" + i + ".git");
			String commit = git.commit("queued", null);
			for (int b = 0; b < 4; b++) {
				git.git("update-ref", "refs/heads/b" + b, commit);
			}
		}
		String name = uniqueName("queued");
		create("admin", """
				{"name":"%s","jobType":"migrate","targetKind":"GLOB","target":"%s-*.git","onceAt":"%s",
				 "parameters":{"targetFormat":"reftable","chunkSize":"1","throttleMillis":"300"}}""".formatted(name,
				stem, Instant.now().plusSeconds(2)))
			.andExpect(status().isCreated());
		List<ScheduleRun> runs = awaitRuns(name, 3);
		assertThat(runs).extracting(ScheduleRun::outcome).containsOnly(ScheduleRun.Outcome.LAUNCHED);
		List<JobSummary> executions = runs.stream()
			.map((run) -> this.jobs.find(run.executionId()).orElseThrow())
			.toList();
		List<Long> ids = executions.stream().map(JobSummary::executionId).toList();
		executions = await("the fire's jobs to end").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> ids.stream().map((id) -> this.jobs.find(id).orElseThrow()).toList(),
					(now) -> now.stream().noneMatch(JobSummary::running));
		assertThat(executions).extracting(JobSummary::status).containsOnly(JobStatus.COMPLETED);
		for (JobSummary job : executions) {
			long alongside = executions.stream()
				.filter((other) -> other != job && !other.started().isAfter(job.started())
						&& other.ended().isAfter(job.started()))
				.count();
			assertThat(alongside).as("jobs of the fire running when execution %d started", job.executionId())
				.isLessThanOrEqualTo(1);
		}
	}

	/**
	 * {@code POST /api/schedules/{name}:run} fires an inventory schedule once, now, for
	 * an operator: 202 with the fire's run and the job it launched as the schedule, the
	 * run recorded as any fire's; a viewer, an operator on an administrator's job's
	 * schedule and an unknown name get problem+json 403, 403 and 404, and fire nothing.
	 */
	@Test
	void runNowFiresTheScheduleOnceForTheRolesThatMayChangeIt() throws Exception {
		String repo = uniqueName("run-now") + ".git";
		bareRepo(repo);
		String name = uniqueName("run-now");
		create("operator", body(name, "inventory", "REPOSITORY", repo, "0 0 3 1 1 ?", "UTC"))
			.andExpect(status().isCreated());
		this.mvc.perform(post("/api/schedules/" + name + ":run").with(as("viewer")))
			.andExpect(status().isForbidden())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		assertThat(this.store.runs(name, 10)).isEmpty();
		String answer = this.mvc.perform(post("/api/schedules/" + name + ":run").with(as("operator")))
			.andExpect(status().isAccepted())
			.andExpect(jsonPath("$.schedule").value(name))
			.andExpect(jsonPath("$.runs.length()").value(1))
			.andExpect(jsonPath("$.runs[0].repository").value(repo))
			.andExpect(jsonPath("$.runs[0].outcome").value("LAUNCHED"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		ScheduleRun run = this.store.runs(name, 10).get(0);
		assertThat(answer).contains("\"executionId\":" + run.executionId());
		JobSummary job = this.jobs.find(run.executionId()).orElseThrow();
		assertThat(job.actor()).isEqualTo("schedule:" + name);
		assertThat(job.type()).isEqualTo(io.refstore.batch.api.RefJobType.INVENTORY);

		String migration = uniqueName("run-migrate");
		create("admin", body(migration, "migrate", "REPOSITORY", repo, "0 0 3 1 1 ?", "UTC").replaceFirst("}\\s*$",
				",\"parameters\":{\"targetFormat\":\"reftable\"}}"))
			.andExpect(status().isCreated());
		this.mvc.perform(post("/api/schedules/" + migration + ":run").with(as("operator")))
			.andExpect(status().isForbidden())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.detail")
				.value(Matchers.containsString("your roles do not allow POST /api/schedules/" + migration + ":run")));
		assertThat(this.store.runs(migration, 10)).isEmpty();
		this.mvc.perform(post("/api/schedules/no-such-schedule:run").with(as("operator")))
			.andExpect(status().isNotFound())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(endsWith("/schedule-not-found")));
		this.mvc.perform(delete("/api/schedules/" + migration).with(as("admin"))).andExpect(status().isNoContent());
	}

	/** Whether a run still waits in the queue or its launch is under way. */
	private static boolean queued(List<ScheduleRun> runs) {
		return runs.stream()
			.anyMatch((run) -> run.outcome() == ScheduleRun.Outcome.QUEUED
					|| (run.outcome() == ScheduleRun.Outcome.LAUNCHED && run.executionId() == null));
	}

	/** Waits for {@code count} runs of {@code name}, all past the queue and launched. */
	private List<ScheduleRun> awaitRuns(String name, int count) {
		return await(count + " runs of " + name + ", launched").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.store.runs(name, 100), (runs) -> runs.size() >= count && !queued(runs));
	}

}
