package io.refstore.web.system;

import static org.assertj.core.api.Assertions.assertThat;

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
		// a periodic task waits in the queue between its runs and is active during one
		int periodic = pool.getQueue().size() + pool.getActiveCount();
		assertThat(periodic).as("periodic tasks on the scheduler").isGreaterThanOrEqualTo(14);
		assertThat(pool.getCorePoolSize()).as("threads").isGreaterThanOrEqualTo(periodic + 3);
	}

}
