package io.refstore.batch.delete;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import io.refstore.batch.api.RestoreParameters;
import io.refstore.batch.support.JobLocks;
import io.refstore.batch.support.JobWriters;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;
import io.refstore.batch.support.StepProgress;
import io.refstore.core.delete.ChunkListener;
import io.refstore.core.delete.RefRestorer;
import io.refstore.core.delete.RestoreResult;
import io.refstore.core.io.LockOwner;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.store.RefStores;

/**
 * {@code restoreRefsJob}: {@code restoreRefsStep} recreates the refs and reflogs a
 * deletion removed, from one manifest or from every {@code manifest-*} of a plan's
 * directory in order, each checked again as the launch checked it (in the repository's
 * plans, no symbolic link, written by this repository). Running it again is safe (refs
 * already back are left alone). Its progress total, the manifests' refs, is shown before
 * the first chunk, and its count chunk by chunk ({@link StepProgress}).
 */
@Configuration(proxyBeanMethods = false)
class RestoreRefsJobConfiguration {

	@Bean
	Job restoreRefsJob(JobRepository jobRepository, RefJobListener listener, PlatformTransactionManager tm,
			Tasklet restoreRefsTasklet) {
		return RefJobSteps.oneStepJob(RefJobType.RESTORE, "restoreRefsStep", jobRepository, listener, tm,
				restoreRefsTasklet);
	}

	@Bean
	@StepScope
	Tasklet restoreRefsTasklet(@Value("#{jobParameters}") Map<String, Object> parameters, JobRepository jobRepository,
			PlatformTransactionManager tm) {
		Path path = RefJobParameters.repositoryPath(parameters);
		RestoreParameters restore = RestoreParameters.from(parameters);
		return (contribution, chunkContext) -> {
			StepProgress progress = new StepProgress(chunkContext.getStepContext().getStepExecution(), jobRepository,
					tm);
			long[] done = { 0 };
			ChunkListener counting = new ChunkListener() {

				@Override
				public void afterCommit(int chunk, List<Ref> refs) {
					done[0] += refs.size();
					progress.advance(done[0]);
				}

			};
			List<Path> manifests = List.of();
			long restored = 0;
			long present = 0;
			try (Repository repository = JobWriters.open(path,
					chunkContext.getStepContext().getStepExecution().getJobExecution());
					LockOwner owner = JobLocks.claim(repository,
							chunkContext.getStepContext().getStepExecution().getJobExecution());
					StoreGate.Run run = StoreGate.of(repository.commonDir()).beginRun(StoreGate.WRITER_WAIT);
					RefStore store = RefStores.open(repository, ReflogPolicy.EXISTING_ONLY, owner, JobLocks.WAIT)) {
				// checked again: what was checked at launch may have been replaced since
				manifests = restore.manifests(repository);
				// some names only, if given: the others stay deleted
				RefRestorer restorer = new RefRestorer(store,
						restore.names().isEmpty() ? null : Set.copyOf(restore.names()));
				long total = 0;
				for (Path file : manifests) {
					total += restorer.countRefs(file);
				}
				progress.begin(total, false);
				for (Path file : manifests) {
					RestoreResult result = restorer.restore(file, counting);
					if (!result.complete()) {
						var why = (result.conflict() != null) ? result.conflict() : result.failure();
						throw new IllegalStateException("restore from " + file + " stopped: " + why.describe());
					}
					restored += result.restored();
					present += result.present();
				}
			}
			ExecutionContext job = chunkContext.getStepContext()
				.getStepExecution()
				.getJobExecution()
				.getExecutionContext();
			job.putLong(JobResults.RESTORE_MANIFESTS, manifests.size());
			job.putLong(JobResults.RESTORE_RESTORED, restored);
			job.putLong(JobResults.RESTORE_PRESENT, present);
			progress.finish(restored + present);
			contribution.incrementWriteCount(restored);
			return RepeatStatus.FINISHED;
		};
	}

}
