package io.refstore.batch.verify;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
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
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;
import io.refstore.batch.support.StepProgress;
import io.refstore.core.migrate.RefDigest;
import io.refstore.core.migrate.StagedMigration;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.VerifyProblem;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * {@code verifyRefsJob}: {@code verifyStoreStep} runs {@link RefStore#verify()} and
 * digests the store ({@link RefDigest}, reflogs included), keeping the problems (the
 * first {@value #KEPT}, in git's {@code refs verify} format), their counts and the digest
 * in the job's context, so the history shows when a store changed or went bad. The job
 * completes either way; its exit description counts the errors. Its progress total is an
 * estimate of the store's refs ({@link StagedMigration#estimateRefs(RefStore)}), marked
 * as one, that the digest's count replaces.
 */
@Configuration(proxyBeanMethods = false)
class VerifyRefsJobConfiguration {

	static final int KEPT = 100;

	@Bean
	Job verifyRefsJob(JobRepository jobRepository, RefJobListener listener, PlatformTransactionManager tm,
			Tasklet verifyStoreTasklet) {
		return RefJobSteps.oneStepJob(RefJobType.VERIFY, "verifyStoreStep", jobRepository, listener, tm,
				verifyStoreTasklet);
	}

	@Bean
	@StepScope
	Tasklet verifyStoreTasklet(@Value("#{jobParameters}") Map<String, Object> parameters, JobRepository jobRepository,
			PlatformTransactionManager tm) {
		Path path = RefJobParameters.repositoryPath(parameters);
		return (contribution, chunkContext) -> {
			ExecutionContext job = chunkContext.getStepContext()
				.getStepExecution()
				.getJobExecution()
				.getExecutionContext();
			try (Repository repository = Repository.open(path); RefStore store = RefStores.open(repository)) {
				// counting exactly would read every ref once more: the digest's count
				// replaces the estimate at the end
				StepProgress progress = new StepProgress(chunkContext.getStepContext().getStepExecution(),
						jobRepository, tm);
				progress.begin(StagedMigration.estimateRefs(store), true);
				List<VerifyProblem> problems = store.verify();
				long errors = problems.stream().filter(VerifyProblem::error).count();
				RefDigest digest = RefDigest.of(store, repository.objectDatabase(), true, progress);
				progress.finish(digest.refs());
				job.putLong(JobResults.VERIFY_ERRORS, errors);
				job.putLong(JobResults.VERIFY_WARNINGS, problems.size() - errors);
				job.putString(JobResults.VERIFY_PROBLEMS,
						String.join("\n", problems.stream().limit(KEPT).map(VerifyProblem::format).toList()));
				job.putLong(JobResults.VERIFY_REFS, digest.refs());
				job.putLong(JobResults.VERIFY_LOG_ENTRIES, digest.logEntries());
				job.putString(JobResults.VERIFY_DIGEST, digest.finish());
				job.putString(JobResults.VERIFY_FORMAT, store.format().configName());
				contribution.incrementWriteCount(digest.refs());
				contribution.setExitStatus(contribution.getExitStatus()
					.addExitDescription(errors + " errors, " + (problems.size() - errors) + " warnings"));
			}
			return RepeatStatus.FINISHED;
		};
	}

}
