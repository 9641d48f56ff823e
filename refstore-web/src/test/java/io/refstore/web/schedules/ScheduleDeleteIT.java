package io.refstore.web.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.TriggerKey;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.MediaType;

import io.refstore.batch.support.JobFilter;
import io.refstore.batch.support.JobSummary;
import io.refstore.batch.support.RefJobs;
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
		String repo = uniqueName("deleted") + ".git";
		bareRepo(repo);
		for (int round = 0; round < 3; round++) {
			String name = uniqueName("deleted");
			this.mvc
				.perform(post("/api/schedules").with(as("operator"))
					.contentType(MediaType.APPLICATION_JSON)
					.content(
							"""
									{"name":"%s","jobType":"verify","targetKind":"REPOSITORY","target":"%s","cron":"*/2 * * * * ?"}"""
								.formatted(name, repo)))
				.andExpect(status().isCreated());
			Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
			while (this.store.runs(name, 10).isEmpty() && Instant.now().isBefore(deadline)) {
				Thread.sleep(100);
			}
			assertThat(this.store.runs(name, 10)).as("fires of " + name).isNotEmpty();
			this.mvc.perform(delete("/api/schedules/" + name).with(as("operator"))).andExpect(status().isNoContent());
			Instant deleted = Instant.now();
			assertThat(this.scheduler.checkExists(new TriggerKey(name, ScheduleService.GROUP))).isFalse();
			assertThat(this.scheduler.checkExists(new JobKey(name, ScheduleService.GROUP))).isFalse();
			// three fire times pass
			Thread.sleep(6500);
			List<JobSummary> launched = this.jobs
				.list(new JobFilter(null, null, repo, "schedule:" + name, null, null, 0, 100));
			assertThat(launched).as("jobs launched by " + name + " after its delete")
				.allMatch((job) -> !job.created()
					.atZone(java.time.ZoneId.systemDefault())
					.toInstant()
					.isAfter(deleted.plusMillis(500)));
			assertThat(this.store.find(name)).isEmpty();
		}
		assertThat(output.getAll()).doesNotContain(" ERROR ").doesNotContain("NullPointerException");
	}

}
