package io.refstore.web.schedules;

import java.time.LocalDateTime;

import io.refstore.batch.api.JobStatus;

/**
 * The newest run of a schedule and the job it launched, for the list of schedules: the
 * outcome of its last fire, how long its job took and when.
 *
 * @param run the run
 * @param jobStatus its job's status, or {@code null} without a job
 * @param jobStarted when its job started (the server's local time, as Spring Batch keeps
 * it), or {@code null}
 * @param jobEnded when its job ended, or {@code null} while it runs
 * @param fireRuns how many runs its fire had (one a repository)
 */
public record ScheduleLastRun(ScheduleRun run, JobStatus jobStatus, LocalDateTime jobStarted, LocalDateTime jobEnded,
		int fireRuns) {

	/** Whether its job still runs. */
	public boolean running() {
		return this.jobStatus != null && this.jobEnded == null && !this.jobStatus.unsuccessful();
	}

}
