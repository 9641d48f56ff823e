package io.refstore.web.schedules;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobs;
import io.refstore.web.system.Notification;
import io.refstore.web.system.Redaction;

/**
 * What a fire does: selects the schedule's repositories (on every node of the fleet) and
 * queues its job on each ({@link ScheduleQueue} launches them on the nodes holding them,
 * a few per node at a time), with actor {@code schedule:<name>}. A repository where the
 * run this schedule launched before is still going, or still waits in the queue, is an
 * overrun: nothing is queued there and the schedule's overrun count grows. Every outcome
 * is one row of {@code refstore_schedule_run}, all of a fire's rows written in one
 * transaction. The webhooks hear of each fire ({@code schedule.fired}, with how many
 * repositories it selected and queued) and of a selection that failed
 * ({@code schedule.failed}). Runs on Quartz's threads; thread-safe.
 */
@Component
class ScheduleRunner {

	private final ScheduleStore store;

	private final ScheduleTargets targets;

	private final RefJobs jobs;

	private final ScheduleQueue queue;

	private final String instanceId;

	private final ApplicationEventPublisher events;

	private final TransactionTemplate transactions;

	ScheduleRunner(ScheduleStore store, ScheduleTargets targets, RefJobs jobs, ScheduleQueue queue,
			ApplicationEventPublisher events, TransactionTemplate transactions) {
		this.events = events;
		this.transactions = transactions;
		this.store = store;
		this.targets = targets;
		this.jobs = jobs;
		this.queue = queue;
		this.instanceId = jobs.instanceId();
	}

	/**
	 * Fires {@code name} for its fire time {@code scheduledAt}; a deleted schedule does
	 * nothing, nor does a fire already recorded (whichever instance ran it).
	 */
	void fire(String name, Instant scheduledAt) {
		Fired fired = this.transactions.execute((status) -> queue(name, scheduledAt));
		if (fired == null) {
			return;
		}
		if (fired.failure() != null) {
			notify("schedule.failed", fired.schedule(), scheduledAt, repositories(0, 0),
					Redaction.message(fired.failure()));
			return;
		}
		this.queue.dispatchNow();
		notify("schedule.fired", fired.schedule(), scheduledAt, repositories(fired.selected(), fired.queued()), null);
	}

	/**
	 * Records the fire's runs in one transaction, with the schedule's row locked: a
	 * second run of the same fire (on another instance) waits for this one's commit and
	 * then finds it recorded; a node killed in the middle recorded nothing, and a fire
	 * run again in its place queues everything. Null if there is nothing to do.
	 */
	private Fired queue(String name, Instant scheduledAt) {
		Optional<Schedule> found = this.store.lockForFire(name);
		if (found.isEmpty() || this.store.recorded(name, scheduledAt)) {
			return null;
		}
		Schedule schedule = found.get();
		Instant now = Instant.now();
		this.store.fired(name, now);
		List<String> repositories;
		try {
			repositories = this.targets.select(schedule);
		}
		catch (RuntimeException ex) {
			record(schedule, scheduledAt, now, null, null, ScheduleRun.Outcome.FAILED, ex.getMessage());
			return new Fired(schedule, 0, 0, ex.getMessage());
		}
		if (repositories.isEmpty()) {
			record(schedule, scheduledAt, now, null, null, ScheduleRun.Outcome.NO_MATCH, null);
		}
		int queued = 0;
		for (String repository : repositories) {
			if (enqueue(schedule, scheduledAt, now, repository)) {
				queued++;
			}
		}
		return new Fired(schedule, repositories.size(), queued, null);
	}

	/**
	 * What a fire did: how many repositories it selected and queued, or why it failed.
	 */
	private record Fired(Schedule schedule, int selected, int queued, String failure) {
	}

	private static Map<String, Object> repositories(int selected, int queued) {
		return Map.of("selected", selected, "queued", queued);
	}

	/** Tells the webhooks of a fire. */
	private void notify(String event, Schedule schedule, Instant scheduledAt, Map<String, Object> repositories,
			String detail) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("name", schedule.name());
		details.put("jobType", schedule.jobType().jobName());
		details.put("target", schedule.target());
		details.put("scheduledAt", scheduledAt.toString());
		details.put("repositories", repositories);
		if (detail != null) {
			details.put("detail", detail);
		}
		this.events
			.publishEvent(Notification.of(event, null, "schedule:" + schedule.name(), Map.of("schedule", details)));
	}

	/** Queues the schedule's run on a repository; false if an earlier run still goes. */
	private boolean enqueue(Schedule schedule, Instant scheduledAt, Instant now, String repository) {
		Optional<JobSummary> previous = this.store.lastExecution(schedule.name(), repository)
			.flatMap(this.jobs::find)
			.filter(JobSummary::running);
		if (previous.isPresent()) {
			this.store.overran(schedule.name(), now);
			record(schedule, scheduledAt, now, repository, previous.get().executionId(), ScheduleRun.Outcome.OVERRUN,
					"execution " + previous.get().executionId() + " from an earlier fire is still "
							+ previous.get().status());
			return false;
		}
		if (this.store.queued(schedule.name(), repository)) {
			this.store.overran(schedule.name(), now);
			record(schedule, scheduledAt, now, repository, null, ScheduleRun.Outcome.OVERRUN,
					"the run of an earlier fire still waits for its turn on the repository's node");
			return false;
		}
		this.store.recordRun(new ScheduleRun(schedule.name(), scheduledAt, now, this.instanceId, repository, null,
				ScheduleRun.Outcome.QUEUED, null), this.queue.nodeOf(repository));
		return true;
	}

	private void record(Schedule schedule, Instant scheduledAt, Instant now, String repository, Long executionId,
			ScheduleRun.Outcome outcome, String detail) {
		this.store.recordRun(new ScheduleRun(schedule.name(), scheduledAt, now, this.instanceId, repository,
				executionId, outcome, detail));
	}

}
