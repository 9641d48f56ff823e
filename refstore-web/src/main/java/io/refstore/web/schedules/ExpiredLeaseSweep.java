package io.refstore.web.schedules;

import java.time.Duration;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.RefJobs;
import io.refstore.web.system.RefWebProperties;

/**
 * While instances share a database, a survivor marks the executions of an instance that
 * died (its leases expired) as {@code FAILED}, so that they can be restarted here and
 * their repositories are free again, without waiting for the dead instance to come back.
 * Every {@code refstore.jobs.sweep-millis} (default 15 s).
 */
@Component
class ExpiredLeaseSweep implements SchedulingConfigurer {

	private final RefJobs jobs;

	private final Duration every;

	ExpiredLeaseSweep(RefJobs jobs, RefWebProperties settings) {
		this.jobs = jobs;
		this.every = settings.jobs().sweepMillis();
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		tasks.addFixedDelayTask(new FixedDelayTask(this::sweep, this.every, this.every));
	}

	void sweep() {
		this.jobs.recoverExpired();
	}

}
