package io.refstore.batch.support;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.ApplicationEventPublisher;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobType;
import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.repo.Repository;

/**
 * At startup, marks the executions a crash left {@code STARTED} (or {@code STARTING},
 * {@code STOPPING}) as {@code FAILED} with an exit message saying why, so they can be
 * restarted, and drops their leases. An execution counts as dead when this instance ran
 * it (it cannot be running here: the instance just started), or its lease expired (its
 * instance stopped renewing it), or it is a mutating job without a lease.
 */
class StartupRecovery implements ApplicationRunner {

	private static final Logger log = LoggerFactory.getLogger(StartupRecovery.class);

	/**
	 * What the exit description of every execution this class marks ends with: the mark
	 * of an execution its instance's death interrupted (campaigns and a returning node of
	 * a fleet restart those).
	 */
	static final String INTERRUPTED = "restart it to continue from its last committed chunk";

	private final JobRepository jobRepository;

	private final JobLeases leases;

	private final ApplicationEventPublisher events;

	StartupRecovery(JobRepository jobRepository, JobLeases leases, ApplicationEventPublisher events) {
		this.jobRepository = jobRepository;
		this.leases = leases;
		this.events = events;
	}

	@Override
	public void run(ApplicationArguments args) {
		recover();
		int dropped = this.leases.releasePreviousLife();
		if (dropped > 0) {
			log.info("dropped {} lease(s) instance '{}' held before it started", dropped, this.leases.instanceId());
		}
		this.leases.start();
	}

	/**
	 * Marks every dead execution.
	 * @return the ids of the executions marked
	 */
	public List<Long> recover() {
		return recover(true);
	}

	/**
	 * Marks the executions whose lease expired while this instance runs: their instance
	 * stopped renewing it (it died), so a surviving instance sharing the database marks
	 * them without waiting for a restart. Unlike {@link #recover()} it never marks this
	 * instance's own executions.
	 * @return the ids of the executions marked
	 */
	public List<Long> recoverExpired() {
		return recover(false);
	}

	private List<Long> recover(boolean startup) {
		List<Long> marked = new ArrayList<>();
		for (RefJobType type : RefJobType.values()) {
			for (JobExecution execution : this.jobRepository.findRunningJobExecutions(type.jobName())) {
				String reason = startup ? deathOf(execution) : expiry(execution);
				if (reason != null) {
					mark(execution, reason, startup);
					marked.add(execution.getId());
				}
			}
		}
		return marked;
	}

	private String expiry(JobExecution execution) {
		Optional<JobLeases.Lease> lease = this.leases.findByExecution(execution.getId());
		if (lease.isPresent() && lease.get().expired()
				&& !this.leases.instanceId().equals(lease.get().ownerInstance())) {
			return "its lease expired at " + lease.get().expiresAt() + ": instance '" + lease.get().ownerInstance()
					+ "' stopped renewing it";
		}
		return null;
	}

	private String deathOf(JobExecution execution) {
		String instance = execution.getExecutionContext().getString(RefJobListener.INSTANCE, null);
		Optional<JobLeases.Lease> lease = this.leases.findByExecution(execution.getId());
		if (this.leases.instanceId().equals(instance)) {
			return "instance '" + instance + "' restarted while the execution ran";
		}
		if (lease.isPresent() && lease.get().expired()) {
			return "its lease expired at " + lease.get().expiresAt() + ": instance '" + lease.get().ownerInstance()
					+ "' stopped renewing it";
		}
		if (lease.isEmpty() && RefJobListener.mutating(execution) && instance != null) {
			return "it holds no lease (instance '" + instance + "' is gone)";
		}
		return null;
	}

	/**
	 * A job killed while it wrote (a migration or rollback swapping stores, a deletion, a
	 * restore, a maintenance run) leaves the locks it held (git's writers then fail until
	 * someone clears them): its owner is now known dead, so the locks it recorded as its
	 * own go ({@link JobLocks}), and only those. A migration's staged work stays for the
	 * restart.
	 * @return a note for the exit message, empty if nothing was released
	 */
	private static String releaseLocks(JobExecution execution, String path) {
		String job = execution.getJobInstance().getJobName();
		try (Repository repository = Repository.open(Path.of(path))) {
			int released = JobLocks.release(repository, execution);
			if (job.equals(RefJobType.MIGRATE.jobName()) || job.equals(RefJobType.ROLLBACK.jobName())) {
				released += new FormatMigrator(repository).releaseAbandonedLocks(JobLocks.owner(execution));
			}
			return (released > 0) ? "; released the " + released + " lock(s) it held in the repository" : "";
		}
		catch (IOException | RuntimeException ex) {
			log.warn("could not release the locks of dead execution {} in {}", execution.getId(), path, ex);
			return "; its locks in the repository could not be released: " + ex.getMessage();
		}
	}

	private void mark(JobExecution execution, String reason, boolean startup) {
		String path = RefJobListener.repositoryPath(execution);
		String released = (path != null) ? releaseLocks(execution, path) : "";
		String message = "marked FAILED " + (startup ? "at startup" : "by a survivor") + " by instance '"
				+ this.leases.instanceId() + "': " + reason + released + "; " + INTERRUPTED;
		LocalDateTime now = LocalDateTime.now();
		for (StepExecution step : execution.getStepExecutions()) {
			if (step.getStatus().isRunning() || step.getStatus() == BatchStatus.STOPPING) {
				step.setStatus(BatchStatus.FAILED);
				step.setExitStatus(ExitStatus.FAILED.addExitDescription(message));
				step.setEndTime(now);
				this.jobRepository.update(step);
			}
		}
		execution.setStatus(BatchStatus.FAILED);
		execution.setExitStatus(ExitStatus.FAILED.addExitDescription(message));
		execution.setEndTime(now);
		this.jobRepository.update(execution);
		if (path != null) {
			this.leases.release(path, execution.getId());
		}
		this.events.publishEvent(new RefJobEvent(Instant.now(), "system", RefJobEvent.Action.FINISH,
				execution.getJobInstance().getJobName(), execution.getId(),
				execution.getJobParameters().getString(JobParameterNames.REPOSITORY), DefaultRefJobs.text(execution),
				"FAILED: " + message, RefJobEvent.Result.ENDED, JobStatus.FAILED));
	}

}
