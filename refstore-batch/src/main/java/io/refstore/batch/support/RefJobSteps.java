package io.refstore.batch.support;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.transaction.PlatformTransactionManager;

import io.refstore.batch.api.RefJobType;

/**
 * Builds the refstore jobs' steps and one-step jobs alike: a tasklet step (listening to
 * its own step's start and end when the tasklet is a {@link StepExecutionListener}), and
 * a job that runs such a step with the {@link RefJobListener}. Stateless.
 */
public final class RefJobSteps {

	private RefJobSteps() {
	}

	/** A step running {@code tasklet} in the transactions of {@code tm}. */
	public static Step step(String name, JobRepository jobRepository, PlatformTransactionManager tm, Tasklet tasklet) {
		StepBuilder builder = new StepBuilder(name, jobRepository);
		if (tasklet instanceof StepExecutionListener listener) {
			return builder.tasklet(tasklet, tm).listener(listener).build();
		}
		return builder.tasklet(tasklet, tm).build();
	}

	/** The job {@code type} of the one step {@code stepName} running {@code tasklet}. */
	public static Job oneStepJob(RefJobType type, String stepName, JobRepository jobRepository, RefJobListener listener,
			PlatformTransactionManager tm, Tasklet tasklet) {
		return new JobBuilder(type.jobName(), jobRepository).listener(listener)
			.start(step(stepName, jobRepository, tm, tasklet))
			.build();
	}

}
