package io.refstore.web.schedules;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.refstore.batch.support.JobConflictException;
import io.refstore.batch.support.JobLeases;
import io.refstore.batch.support.JobParameterNames;
import io.refstore.batch.support.JobSummary;
import io.refstore.batch.support.RefJobs;
import io.refstore.web.fleet.FleetJobs;

import io.refstore.web.system.Redaction;

/**
 * What a fire does: selects the schedule's repositories (on every node of the fleet) and
 * launches its job on each, on the node holding it ({@link FleetJobs}), with actor
 * {@code schedule:<name>}. A repository where the run this schedule launched before is
 * still going is an overrun: nothing is launched there and the schedule's overrun count
 * grows. Every outcome is one row of {@code refstore_schedule_run}. Runs on Quartz's
 * threads; thread-safe.
 */
@Component
class ScheduleRunner {

	private static final Log log = LogFactory.getLog(ScheduleRunner.class);

	private final ScheduleStore store;

	private final ScheduleTargets targets;

	private final RefJobs jobs;

	private final FleetJobs fleet;

	private final String instanceId;

	ScheduleRunner(ScheduleStore store, ScheduleTargets targets, RefJobs jobs, FleetJobs fleet, JobLeases leases) {
		this.store = store;
		this.targets = targets;
		this.jobs = jobs;
		this.fleet = fleet;
		this.instanceId = leases.instanceId();
	}

	/**
	 * Fires {@code name} for its fire time {@code scheduledAt}; a deleted schedule does
	 * nothing.
	 */
	void fire(String name, Instant scheduledAt) {
		Optional<Schedule> found = this.store.find(name);
		if (found.isEmpty()) {
			return;
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
			return;
		}
		if (repositories.isEmpty()) {
			record(schedule, scheduledAt, now, null, null, ScheduleRun.Outcome.NO_MATCH, null);
		}
		for (String repository : repositories) {
			launch(schedule, scheduledAt, now, repository);
		}
	}

	private void launch(Schedule schedule, Instant scheduledAt, Instant now, String repository) {
		Optional<JobSummary> previous = this.store.lastExecution(schedule.name(), repository)
			.flatMap(this.jobs::find)
			.filter(JobSummary::running);
		if (previous.isPresent()) {
			this.store.overran(schedule.name(), now);
			record(schedule, scheduledAt, now, repository, previous.get().executionId(), ScheduleRun.Outcome.OVERRUN,
					"execution " + previous.get().executionId() + " from an earlier fire is still "
							+ previous.get().status());
			return;
		}
		Map<String, String> parameters = new LinkedHashMap<>(schedule.parameters());
		parameters.put(JobParameterNames.REPOSITORY, repository);
		try {
			// checked when the schedule was saved too; a row written by other means must
			// not slip through
			ScheduleService.refuseProtectionOverride(parameters, "a schedule");
			JobSummary launched = this.fleet.launch(schedule.jobType(), parameters, "schedule:" + schedule.name());
			record(schedule, scheduledAt, now, repository, launched.executionId(), ScheduleRun.Outcome.LAUNCHED, null);
		}
		catch (JobConflictException ex) {
			record(schedule, scheduledAt, now, repository, null, ScheduleRun.Outcome.BUSY, ex.getMessage());
		}
		catch (RuntimeException ex) {
			log.warn("schedule " + schedule.name() + " could not launch on " + repository + ": " + ex.getMessage());
			record(schedule, scheduledAt, now, repository, null, ScheduleRun.Outcome.FAILED, ex.getMessage());
		}
	}

	private void record(Schedule schedule, Instant scheduledAt, Instant now, String repository, Long executionId,
			ScheduleRun.Outcome outcome, String detail) {
		this.store.recordRun(new ScheduleRun(schedule.name(), scheduledAt, now, this.instanceId, repository,
				executionId, outcome, detail));
	}

}
