package io.refstore.batch.rewind;

import java.nio.file.Path;
import java.util.Map;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RewindParameters;
import io.refstore.batch.support.JobLocks;
import io.refstore.batch.support.JobWriters;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;
import io.refstore.batch.support.StepProgress;
import io.refstore.core.io.LockOwner;
import io.refstore.core.journal.RefRewinder;
import io.refstore.core.journal.RewindPlan;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.store.RefStores;

/**
 * {@code rewindRefsJob}: {@code rewindRefsStep} applies a point-in-time restore's plan
 * ({@link RewindPlan}, checked again as the launch checked it) chunk by chunk with
 * {@link RefRewinder}: compare-and-swap updates, so a run again after a kill finishes
 * what the first began, and a ref another writer changed since the plan is left alone and
 * counted. The journal records its changes as the job's, by its launcher.
 */
@Configuration(proxyBeanMethods = false)
class RewindRefsJobConfiguration {

	/** The most refs per transaction. */
	static final int CHUNK = 1000;

	@Bean
	Job rewindRefsJob(JobRepository jobRepository, RefJobListener listener, PlatformTransactionManager tm,
			Tasklet rewindRefsTasklet) {
		return RefJobSteps.oneStepJob(RefJobType.REWIND, "rewindRefsStep", jobRepository, listener, tm,
				rewindRefsTasklet);
	}

	@Bean
	@StepScope
	Tasklet rewindRefsTasklet(@Value("#{jobParameters}") Map<String, Object> parameters, JobRepository jobRepository,
			PlatformTransactionManager tm) {
		Path path = RefJobParameters.repositoryPath(parameters);
		RewindParameters rewind = RewindParameters.from(parameters);
		return (contribution, chunkContext) -> {
			JobExecution execution = chunkContext.getStepContext().getStepExecution().getJobExecution();
			StepProgress progress = new StepProgress(chunkContext.getStepContext().getStepExecution(), jobRepository,
					tm);
			RefRewinder.Result result;
			try (Repository repository = JobWriters.open(path, execution);
					LockOwner owner = JobLocks.claim(repository, execution);
					StoreGate.Run run = StoreGate.of(repository.commonDir()).beginRun(StoreGate.WRITER_WAIT);
					RefStore store = RefStores.open(repository, ReflogPolicy.EXISTING_ONLY, owner, JobLocks.WAIT)) {
				// checked again: what was checked at launch may have been replaced since
				Path file = rewind.checkedIn(repository, null).plan();
				RewindPlan plan = RewindPlan.read(file);
				progress.begin(plan.steps().size(), false);
				RefRewinder rewinder = new RefRewinder(store,
						"refstore: rewind to " + plan.at() + " (" + file.getFileName() + ")");
				result = rewinder.apply(plan, CHUNK, progress::advance);
			}
			ExecutionContext job = execution.getExecutionContext();
			job.putLong(JobResults.REWIND_APPLIED, result.applied());
			job.putLong(JobResults.REWIND_PRESENT, result.present());
			job.putLong(JobResults.REWIND_CONFLICTS, result.conflicts());
			job.putString(JobResults.REWIND_CONFLICTING, String.join(" ", result.named()));
			progress.finish(result.applied() + result.present() + result.conflicts());
			contribution.incrementWriteCount(result.applied());
			return RepeatStatus.FINISHED;
		};
	}

}
