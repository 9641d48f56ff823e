package io.refstore.web.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.TriggerKey;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.MediaType;

import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobs;
import io.refstore.web.ApiTestSupport;

/**
 * Deleting a schedule while it fires every 2 s, on the real application (Quartz's JDBC
 * store): its trigger and job are gone from Quartz, no fire launches anything after the
 * delete, and nothing is logged at ERROR.
 */
@ExtendWith(OutputCaptureExtension.class)
class ScheduleDeleteIT extends ApiTestSupport {

	@Autowired
	ScheduleStore store;

	@Autowired
	RefJobs jobs;

	@Autowired
	Scheduler scheduler;

	@Test
	void aDeletedScheduleNeverFiresAgainAndNothingIsLoggedAtError(CapturedOutput output) throws Exception {
		// three schedules side by side, each on a repository of its own (no fire of one
		// waits for another's job), deleted one after the other once each has fired:
		// one wait for three fire times after the last delete covers all three. A fourth,
		// kept, fires alongside: its runs show those fire times did pass, however loaded
		// the machine
		String kept = uniqueName("kept");
		String keptRepo = kept + ".git";
		bareRepo(keptRepo);
		this.mvc
			.perform(post("/api/schedules").with(as("operator"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(
						"""
								{"name":"%s","jobType":"verify","targetKind":"REPOSITORY","target":"%s","cron":"*/2 * * * * ?"}"""
							.formatted(kept, keptRepo)))
			.andExpect(status().isCreated());
		Map<String, String> repos = new LinkedHashMap<>();
		for (int round = 0; round < 3; round++) {
			String repo = uniqueName("deleted") + ".git";
			bareRepo(repo);
			String name = uniqueName("deleted");
			repos.put(name, repo);
			this.mvc
				.perform(post("/api/schedules").with(as("operator"))
					.contentType(MediaType.APPLICATION_JSON)
					.content(
							"""
									{"name":"%s","jobType":"verify","targetKind":"REPOSITORY","target":"%s","cron":"*/2 * * * * ?"}"""
								.formatted(name, repo)))
				.andExpect(status().isCreated());
		}
		Map<String, Instant> deletedAt = new LinkedHashMap<>();
		for (String name : repos.keySet()) {
			await("a fire of " + name).atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> !this.store.runs(name, 10).isEmpty());
			this.mvc.perform(delete("/api/schedules/" + name).with(as("operator"))).andExpect(status().isNoContent());
			deletedAt.put(name, Instant.now());
			assertThat(this.scheduler.checkExists(new TriggerKey(name, ScheduleService.GROUP))).isFalse();
			assertThat(this.scheduler.checkExists(new JobKey(name, ScheduleService.GROUP))).isFalse();
		}
		// three fire times pass after the last delete (more after the others): the kept
		// schedule fires three more times
		int keptRuns = this.store.runs(kept, 100).size();
		await("three more fires of " + kept).atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.store.runs(kept, 100).size() >= keptRuns + 3);
		this.mvc.perform(delete("/api/schedules/" + kept).with(as("operator"))).andExpect(status().isNoContent());
		for (Map.Entry<String, Instant> deleted : deletedAt.entrySet()) {
			String name = deleted.getKey();
			List<JobSummary> launched = this.jobs
				.list(new JobFilter(null, null, repos.get(name), "schedule:" + name, null, null, 0, 100));
			assertThat(launched).as("jobs launched by " + name + " after its delete")
				.allMatch((job) -> !job.created()
					.atZone(java.time.ZoneId.systemDefault())
					.toInstant()
					.isAfter(deleted.getValue().plusMillis(500)));
			assertThat(this.store.find(name)).isEmpty();
		}
		assertThat(output.getAll()).doesNotContain(" ERROR ").doesNotContain("NullPointerException");
	}

}
