package io.refstore.batch.support;

import java.time.Instant;

import org.slf4j.MDC;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.listener.JobExecutionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.context.ApplicationEventPublisher;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.LogFields;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobType;

/**
 * Listens to every refstore job: records the instance running it (so a restarted instance
 * recognises the executions it left behind), ties the repository's lease to the
 * execution, and at the end releases the lease, records the execution's duration and refs
 * processed ({@link JobMeters}) and publishes the {@link RefJobEvent.Action#FINISH}
 * event.
 */
public class RefJobListener implements JobExecutionListener {

	/** The job context key naming the instance that runs the execution. */
	public static final String INSTANCE = "refstore.instance";

	private final JobLeases leases;

	private final JobRepository jobRepository;

	private final ApplicationEventPublisher events;

	private final JobMeters meters;

	public RefJobListener(JobLeases leases, JobRepository jobRepository, ApplicationEventPublisher events,
			JobMeters meters) {
		this.meters = meters;
		this.leases = leases;
		this.jobRepository = jobRepository;
		this.events = events;
	}

	@Override
	public void beforeJob(JobExecution execution) {
		// the job runs on this thread: every line it logs names its repository and actor
		MDC.put(LogFields.JOB_EXECUTION, String.valueOf(execution.getId()));
		putIfPresent(LogFields.REPOSITORY, execution.getJobParameters().getString(JobParameterNames.REPOSITORY));
		putIfPresent(LogFields.USER, execution.getJobParameters().getString(JobParameterNames.ACTOR));
		execution.getExecutionContext().putString(INSTANCE, this.leases.instanceId());
		this.jobRepository.updateExecutionContext(execution);
		if (mutating(execution)) {
			this.leases.attach(repositoryPath(execution), execution.getId());
		}
	}

	@Override
	public void afterJob(JobExecution execution) {
		if (mutating(execution)) {
			this.leases.release(repositoryPath(execution), execution.getId());
		}
		this.meters.ended(execution);
		this.events.publishEvent(new RefJobEvent(Instant.now(), "system", RefJobEvent.Action.FINISH,
				execution.getJobInstance().getJobName(), execution.getId(),
				execution.getJobParameters().getString(JobParameterNames.REPOSITORY), DefaultRefJobs.text(execution),
				execution.getStatus() + ": " + execution.getExitStatus().getExitDescription(), RefJobEvent.Result.ENDED,
				JobSummaries.status(execution.getStatus())));
		MDC.remove(LogFields.JOB_EXECUTION);
		MDC.remove(LogFields.REPOSITORY);
		MDC.remove(LogFields.USER);
	}

	private static void putIfPresent(String key, String value) {
		if (value != null) {
			MDC.put(key, value);
		}
	}

	static boolean mutating(JobExecution execution) {
		RefJobType type = RefJobType.ofJobName(execution.getJobInstance().getJobName());
		return type != null && type.mutating()
				&& !"true".equals(execution.getJobParameters().getString(JobParameterNames.PLAN_ONLY));
	}

	static String repositoryPath(JobExecution execution) {
		return execution.getJobParameters().getString(JobParameterNames.REPOSITORY_PATH);
	}

}
