package io.refstore.batch.delete;

import java.util.Map;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.job.flow.FlowExecutionStatus;
import org.springframework.batch.core.job.flow.JobExecutionDecider;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

import io.refstore.batch.api.DeleteParameters;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;

/**
 * {@code deleteRefsJob}: {@code planDeletionStep} writes (or reads back) the plan, which
 * keeps the protected refs and records which those are; with {@code planOnly} the job
 * ends there, leaving the plan for review, and a later launch with
 * {@code plan=<that plan>} executes it; otherwise {@code deleteRefsStep} deletes the
 * plan's refs in chunked, checked transactions (restartable).
 */
@Configuration(proxyBeanMethods = false)
class DeleteRefsJobConfiguration {

	/** The job's parameters, which each step reads into {@link DeleteParameters}. */
	private static final String PARAMETERS = "#{jobParameters}";

	@Bean
	Job deleteRefsJob(JobRepository jobRepository, RefJobListener listener, PlatformTransactionManager tm,
			PlanDeletionTasklet planDeletionTasklet, DeleteRefsTasklet deleteRefsTasklet) {
		JobExecutionDecider planOnly = (execution, step) -> new FlowExecutionStatus(
				"true".equals(execution.getJobParameters().getString(JobParameterNames.PLAN_ONLY)) ? "PLAN_ONLY"
						: "EXECUTE");
		return new JobBuilder(RefJobType.DELETE.jobName(), jobRepository).listener(listener)
			.start(RefJobSteps.step("planDeletionStep", jobRepository, tm, planDeletionTasklet))
			.next(planOnly)
			.on("PLAN_ONLY")
			.end()
			.from(planOnly)
			.on("EXECUTE")
			.to(RefJobSteps.step("deleteRefsStep", jobRepository, tm, deleteRefsTasklet))
			.end()
			.build();
	}

	@Bean
	@StepScope
	PlanDeletionTasklet planDeletionTasklet(@Value(PARAMETERS) Map<String, Object> parameters,
			@Value("#{jobParameters['" + JobParameterNames.LAUNCH_ID + "']}") String launchId) {
		return new PlanDeletionTasklet(RefJobParameters.repositoryPath(parameters), DeleteParameters.from(parameters),
				launchId);
	}

	@Bean
	@StepScope
	DeleteRefsTasklet deleteRefsTasklet(@Value(PARAMETERS) Map<String, Object> parameters) {
		return new DeleteRefsTasklet(RefJobParameters.repositoryPath(parameters), DeleteParameters.from(parameters));
	}

}
