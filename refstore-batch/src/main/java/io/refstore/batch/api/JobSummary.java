package io.refstore.batch.api;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * A refstore job execution as plain data, readable while it runs: status, parameters,
 * results kept in its context, and per step the progress.
 *
 * @param executionId the execution
 * @param instanceId its job instance (a restart is a new execution of the same instance)
 * @param job the job name
 * @param type the job's type, {@code null} for a job refstore does not know
 * @param status its status
 * @param exitCode the exit code
 * @param exitMessage the exit description (an error's message for a failure)
 * @param repository the repository name as given
 * @param actor who launched it
 * @param parameters every parameter as text
 * @param results the values the job kept in its context (digests, counts, paths)
 * @param created when it was created
 * @param started when it started, or {@code null}
 * @param ended when it ended, or {@code null} while it runs
 * @param steps its steps in the order they ran
 * @param interrupted whether it is {@link JobStatus#FAILED} because its instance died
 * while it ran (found dead at a restart, or by a surviving instance when its lease
 * expired), not because of an error of its own: campaigns and a returning node of a fleet
 * restart those
 */
public record JobSummary(long executionId, long instanceId, String job, RefJobType type, JobStatus status,
		String exitCode, String exitMessage, String repository, String actor, Map<String, String> parameters,
		Map<String, String> results, LocalDateTime created, LocalDateTime started, LocalDateTime ended,
		List<StepSummary> steps, boolean interrupted) {

	/** Whether the execution has not ended. */
	public boolean running() {
		return this.ended == null && !this.status.unsuccessful();
	}

	/**
	 * One step's state and progress.
	 *
	 * @param stepExecutionId the step execution
	 * @param name the step name
	 * @param status its status
	 * @param exitMessage its exit description
	 * @param done items done (refs copied, deleted, ...) in this execution and the ones
	 * it restarted
	 * @param total items in all, or an estimate ({@code estimate}); -1 if unknown
	 * @param commits chunks committed in this execution
	 * @param ratePerSecond items per second in this execution, 0 before the first chunk
	 * @param etaSeconds seconds left at that rate, or -1 if unknown
	 * @param started when it started
	 * @param ended when it ended, or {@code null}
	 * @param estimate whether {@code total} is an estimate the step corrects once it
	 * knows the real count (a reftable store's refs before they are read)
	 * @param phase what a running step with several phases does now (its done, total,
	 * rate and time left are the phase's), or {@code null}
	 */
	public record StepSummary(long stepExecutionId, String name, JobStatus status, String exitMessage, long done,
			long total, long commits, double ratePerSecond, long etaSeconds, LocalDateTime started, LocalDateTime ended,
			boolean estimate, String phase) {

	}

}
