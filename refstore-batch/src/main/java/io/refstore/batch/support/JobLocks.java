package io.refstore.batch.support;

import java.io.IOException;
import java.time.Duration;

import org.springframework.batch.core.job.JobExecution;

import io.refstore.core.io.LockOwner;
import io.refstore.core.repo.Repository;

/**
 * The {@link LockOwner} of a job's writes to a repository: every lock the job takes there
 * is recorded as its own, so that the locks an execution leaves when its process dies are
 * cleared by the job's restart (whatever host runs it: the job's lease proves the earlier
 * execution is dead) or by {@link StartupRecovery}.
 */
public final class JobLocks {

	/**
	 * How long a job waits for a lock another writer holds
	 * ({@code RefStores.open(repository, policy, owner, WAIT)}) before the chunk fails: a
	 * job meets git's and the API's locks many times in a run, where git's own 100 ms
	 * would fail it for a moment's contention (a writer's automatic compaction of a large
	 * stack holds {@code tables.list.lock} longer than that on a busy host).
	 */
	public static final Duration WAIT = Duration.ofSeconds(10);

	private JobLocks() {
	}

	/**
	 * The name a job execution's migration or rollback is owned by in the repository
	 * ({@code <job> instance <id>}): the same for every execution of one job instance, so
	 * a restart takes over its staged work and its locks.
	 */
	public static String owner(JobExecution execution) {
		return execution.getJobInstance().getJobName() + " instance " + execution.getJobInstanceId();
	}

	/**
	 * Clears the locks earlier, dead executions of {@code execution}'s job instance left
	 * in {@code repository}, then claims the locks this execution will take.
	 * @return the owner, closed by the caller once the store it opened with it is closed
	 */
	public static LockOwner claim(Repository repository, JobExecution execution) throws IOException {
		String job = owner(execution);
		LockOwner.releaseAbandoned(repository.refsCommonDir(), job);
		return LockOwner.claim(repository.refsCommonDir(), execution.getJobInstance().getJobName(), job);
	}

	/**
	 * Clears the locks a dead execution of a job left in {@code repository}.
	 * @return how many lock files were removed
	 */
	public static int release(Repository repository, JobExecution execution) throws IOException {
		return LockOwner.releaseAbandoned(repository.refsCommonDir(), owner(execution)).locks();
	}

}
