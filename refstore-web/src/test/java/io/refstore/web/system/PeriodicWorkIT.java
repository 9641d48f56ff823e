package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import io.refstore.web.ApiTestSupport;

/**
 * The application's task scheduler runs every periodic task of a node (the fleet's
 * heartbeat and inventory, the job leases' heartbeat and sweep, the schedule queue's and
 * the campaigns' passes, the metrics refreshes, the journal's ingestion and retention
 * sweeps, the records' retention sweep, the webhooks' deliveries) and has a thread for
 * each beside a nudged pass of each coordinator, so none waits for another to end.
 */
class PeriodicWorkIT extends ApiTestSupport {

	@Autowired
	ThreadPoolTaskScheduler scheduler;

	@Test
	void everyPeriodicTaskHasAThreadOfItsOwn() {
		ScheduledThreadPoolExecutor pool = this.scheduler.getScheduledThreadPoolExecutor();
		// a periodic task waits in the queue between its runs: counted while none runs,
		// and told from a nudged pass waiting there (a one-shot task, which the three
		// threads beside them are for; CI counted two queued nudges as periodic tasks)
		long periodic = await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> idleCount(pool), (count) -> count >= 0);
		// fourteen on a node (application.yml); the tests' shared context runs all but
		// the
		// journal's ingestion sweep, which it turns off (ApiTestSupport), and which still
		// needs its thread
		assertThat(periodic).as("periodic tasks on the scheduler").isGreaterThanOrEqualTo(13);
		assertThat(pool.getCorePoolSize()).as("threads").isGreaterThanOrEqualTo((int) periodic + 1 + 3);
	}

	/**
	 * The periodic tasks in the queue, or -1 if a task ran before or after they were
	 * counted.
	 */
	private static long idleCount(ScheduledThreadPoolExecutor pool) {
		if (pool.getActiveCount() != 0) {
			return -1;
		}
		long periodic = pool.getQueue()
			.stream()
			.filter((task) -> task instanceof RunnableScheduledFuture<?> future && future.isPeriodic())
			.count();
		return (pool.getActiveCount() == 0) ? periodic : -1;
	}

}
