package io.refstore.web.schedules;

import java.time.Instant;

/**
 * What one fire of a schedule did on one repository.
 *
 * @param schedule the schedule's name
 * @param scheduledAt the fire time Quartz scheduled
 * @param firedAt when it actually fired
 * @param instanceId the instance that fired it
 * @param repository the repository, or {@code null} when the selection matched none
 * @param executionId the execution launched, or {@code null} (also while a queued run's
 * launch is under way: LAUNCHED without its execution yet)
 * @param outcome what happened
 * @param detail why it did not launch, or {@code null}
 */
public record ScheduleRun(String schedule, Instant scheduledAt, Instant firedAt, String instanceId, String repository,
		Long executionId, Outcome outcome, String detail) {

	/** What a fire did on a repository. */
	public enum Outcome {

		/**
		 * Waits for its turn: the repository's node runs
		 * {@code refstore.fleet.jobs-per-node} of this fire's jobs; launched as one ends.
		 */
		QUEUED,

		/** The job was launched. */
		LAUNCHED,

		/**
		 * The previous run this schedule launched on the repository was still going:
		 * nothing launched.
		 */
		OVERRUN,

		/** Another job held the repository's lease. */
		BUSY,

		/** The launch was refused (bad parameter, repository gone...). */
		FAILED,

		/** The selection matched no repository. */
		NO_MATCH

	}

}
