package io.refstore.web.schedules;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.refstore.batch.support.StartupRecovery;

/**
 * While instances share a database, a survivor marks the executions of an instance that died (its leases
 * expired) as {@code FAILED}, so that they can be restarted here and their repositories are free again, without
 * waiting for the dead instance to come back. Every {@code refstore.jobs.sweep-millis} (default 15 s).
 */
@Component
class ExpiredLeaseSweep {

	private final StartupRecovery recovery;

	ExpiredLeaseSweep(StartupRecovery recovery) {
		this.recovery = recovery;
	}

	@Scheduled(fixedDelayString = "${refstore.jobs.sweep-millis:15000}", initialDelayString = "${refstore.jobs.sweep-millis:15000}")
	void sweep() {
		this.recovery.recoverExpired();
	}

}
