package io.refstore.web.schedules;

import java.time.Duration;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import io.refstore.batch.support.StartupRecovery;
import io.refstore.web.system.RefWebProperties;

/**
 * While instances share a database, a survivor marks the executions of an instance that
 * died (its leases expired) as {@code FAILED}, so that they can be restarted here and
 * their repositories are free again, without waiting for the dead instance to come back.
 * Every {@code refstore.jobs.sweep-millis} (default 15 s).
 */
@Component
class ExpiredLeaseSweep implements SchedulingConfigurer {

	private final StartupRecovery recovery;

	private final Duration every;

	ExpiredLeaseSweep(StartupRecovery recovery, RefWebProperties settings) {
		this.recovery = recovery;
		this.every = settings.jobs().sweepMillis();
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		tasks.addFixedDelayTask(new FixedDelayTask(this::sweep, this.every, this.every));
	}

	void sweep() {
		this.recovery.recoverExpired();
	}

}
