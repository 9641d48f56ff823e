package io.refstore.batch.api;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import io.refstore.core.delete.ProtectedRefs;

/**
 * The service the web layer drives refstore jobs through: launch with every parameter
 * checked before anything starts, stop, restart, and read executions back as plain
 * records while they run. Mutating jobs hold their repository's lease from launch to end.
 * Every launch, stop and restart is published as a {@link RefJobEvent}, refused ones
 * included.
 *
 * <p>
 * Thread-safe.
 */
public interface RefJobs {

	/**
	 * Parses the parameters and launches a job, as
	 * {@link #launch(String, RefJobParameters, String)} does.
	 * @param parameters by {@link JobParameterNames} key, as text, the repository
	 * included
	 * @throws InvalidJobParameterException naming the parameter, before anything started
	 */
	JobSummary launch(RefJobType type, Map<String, String> parameters, String actor);

	/**
	 * Makes the parameters and launches a job, as
	 * {@link #launch(String, RefJobParameters, String)} does; a refusal while making them
	 * (a value out of range) is published as the launch's.
	 * @param parameters makes the typed parameters, which check themselves
	 * @throws InvalidJobParameterException naming the parameter, before anything started
	 */
	JobSummary launch(RefJobType type, String repository, Supplier<? extends RefJobParameters> parameters,
			String actor);

	/**
	 * Checks the parameters in the repository and launches a job; it runs on the batch
	 * task executor.
	 * @param repository the repository's name, relative to a configured root
	 * @param actor who asks
	 * @return the new execution as it stands right after the launch
	 * @throws InvalidJobParameterException naming the parameter, before anything started
	 * @throws JobConflictException naming the execution that holds the repository
	 */
	JobSummary launch(String repository, RefJobParameters parameters, String actor);

	/**
	 * Checks in {@code repository} the inputs {@code parameters} name there (a plan to
	 * execute, a manifest, a backup) as a launch checks them, launching nothing:
	 * schedules and campaigns check them when they are created. Parameters that name no
	 * input are not checked here.
	 * @throws InvalidJobParameterException naming the parameter refused (or
	 * {@code repository})
	 */
	void checkInputs(String repository, RefJobParameters parameters);

	/**
	 * What a deletion plan keeps unless its launch overrides the protection
	 * ({@code refstore.deletion.protected-refs}): for pages that show which refs a plan
	 * would keep before one is launched.
	 */
	ProtectedRefs protection();

	/**
	 * Asks a running execution to stop; it stops at its next chunk boundary, with status
	 * {@code STOPPED}.
	 * @return whether the request was recorded
	 * @throws InvalidJobParameterException if there is no such execution
	 * @throws JobStateException if it is not running
	 */
	boolean stop(long executionId, String actor);

	/**
	 * Restarts a stopped or failed execution (a new execution of the same instance, which
	 * continues from the last committed chunk). The repository is checked again and its
	 * lease taken.
	 * @return the new execution
	 * @throws InvalidJobParameterException if there is no such execution or its
	 * repository is no longer valid
	 * @throws JobConflictException if another job holds the repository
	 * @throws JobStateException if the execution cannot be restarted (running, completed,
	 * abandoned)
	 */
	JobSummary restart(long executionId, String actor);

	/** The execution, or empty if there is none of that id. */
	Optional<JobSummary> find(long executionId);

	/**
	 * The ids of the executions of one job instance, oldest first: the first run and its
	 * restarts. One indexed query, nothing else loaded.
	 */
	List<Long> executionIds(long instanceId);

	/**
	 * The executions that instance {@code instance} ran, created at or after
	 * {@code since}, that its death interrupted (marked FAILED at a restart or by a
	 * survivor: {@link JobSummary#interrupted()}) and that nobody restarted yet (each is
	 * the last execution of its job instance), oldest first.
	 */
	List<JobSummary> interrupted(String instance, LocalDateTime since);

	/** The executions of refstore jobs matching {@code filter}, newest first. */
	List<JobSummary> list(JobFilter filter);

	/**
	 * How many executions of refstore jobs match {@code filter} in each status, its own
	 * status, offset and limit aside: a list's counters and its total, in one query.
	 * Statuses without one are absent.
	 */
	Map<JobStatus, Long> countByStatus(JobFilter filter);

	/**
	 * The steps a job of {@code type} runs with these parameters, in their order, by the
	 * names its executions' steps have ({@code copyRefsStep}): what a page shows before
	 * they ran. A restart runs only those that did not complete before.
	 * @param parameters by {@link JobParameterNames} key, as an execution holds them
	 */
	List<String> steps(RefJobType type, Map<String, String> parameters);

	/**
	 * This application instance's name: what its leases and executions record as their
	 * owner.
	 */
	String instanceId();

	/**
	 * Marks FAILED, as {@linkplain JobSummary#interrupted() interrupted}, the executions
	 * whose lease expired while this instance runs: their instance stopped renewing it
	 * (it died), so a surviving instance sharing the database marks them without waiting
	 * for a restart. Never this instance's own executions.
	 * @return the ids of the executions marked
	 */
	List<Long> recoverExpired();

	/**
	 * Deletes the history of jobs that ended: every instance whose executions all ended
	 * before {@code endedBefore}, and every one past the {@code keep} newest, with their
	 * executions, steps and contexts. An instance with an execution that has not ended is
	 * kept, whatever its age.
	 * @param endedBefore the age limit, or {@code null} for none
	 * @param keep how many instances to keep at most, or {@code null} for no limit
	 * @return how many instances were deleted
	 */
	int deleteHistory(LocalDateTime endedBefore, Long keep);

	/**
	 * How many job instances the history holds, and the oldest one's creation, if any.
	 */
	HistorySize historySize();

	/**
	 * The size of the job history.
	 *
	 * @param instances job instances
	 * @param oldest when the oldest execution was created, or {@code null}
	 */
	record HistorySize(long instances, LocalDateTime oldest) {

	}

}
