package io.refstore.web.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

import io.refstore.web.ApiTestSupport;

/**
 * One fire run twice at the same moment, as when two instances both run it (a node its
 * Quartz cluster took for dead while it still fired, TwoInstancesIT saw one tick recorded
 * and launched by both instances): it is recorded, and its runs queued, once.
 */
class ScheduleFireOnceIT extends ApiTestSupport {

	private static final int ROUNDS = 20;

	@Autowired
	ScheduleRunner runner;

	@Autowired
	ScheduleStore store;

	@Test
	void aFireRunTwiceAtOnceIsRecordedOnce() throws Exception {
		String name = uniqueName("twice");
		String repo = name + ".git";
		bareRepo(repo);
		// a one-off fire a day away: Quartz itself fires nothing while the test runs
		// the schedule's fires by hand
		this.mvc
			.perform(post("/api/schedules").with(as("operator"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("""
						{"name":"%s","jobType":"verify","targetKind":"REPOSITORY","target":"%s","onceAt":"%s"}"""
					.formatted(name, repo, Instant.now().plus(1, ChronoUnit.DAYS))))
			.andExpect(status().isCreated());
		Instant first = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(1, ChronoUnit.HOURS);
		ExecutorService instances = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < ROUNDS; round++) {
				Instant scheduledAt = first.plusSeconds(round);
				CyclicBarrier together = new CyclicBarrier(2);
				List<Future<?>> fires = new ArrayList<>();
				for (int instance = 0; instance < 2; instance++) {
					fires.add(instances.submit(() -> {
						together.await(10, TimeUnit.SECONDS);
						this.runner.fire(name, scheduledAt);
						return null;
					}));
				}
				for (Future<?> fire : fires) {
					fire.get(60, TimeUnit.SECONDS);
				}
				// queued once, or found the run an earlier round queued still going
				assertThat(this.store.runsOf(name, scheduledAt)).as("the runs of the fire at " + scheduledAt)
					.hasSize(1)
					.allSatisfy((run) -> assertThat(run.outcome()).isIn(ScheduleRun.Outcome.QUEUED,
							ScheduleRun.Outcome.LAUNCHED, ScheduleRun.Outcome.OVERRUN));
			}
		}
		finally {
			instances.shutdownNow();
		}
	}

}
