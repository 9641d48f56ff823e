package io.refstore.batch.migrate;

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
import io.refstore.batch.api.RollbackParameters;
import io.refstore.batch.support.JobLocks;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;
import io.refstore.batch.support.StepProgress;
import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.migrate.InterruptedSwap;
import io.refstore.core.migrate.MigrationReport;
import io.refstore.core.repo.Repository;

/**
 * {@code rollbackMigrationJob}: {@code restoreBackupStep} puts back the store a migration
 * kept in its backup ({@link FormatMigrator#rollback}), keeping the current store in a
 * backup of its own. A migration killed after its switch is finished first (results
 * {@code rollback.finishedFirst} and {@code rollback.finishedFirstBackup}); a restarted
 * job finishes its own rollback, whose journal names the backup it restores. Its progress
 * total is the refs the backup's record counts, shown before the backup is copied, and
 * its count the refs read back ({@link StepProgress}); at the end both are the refs
 * restored.
 */
@Configuration(proxyBeanMethods = false)
class RollbackMigrationJobConfiguration {

	@Bean
	Job rollbackMigrationJob(JobRepository jobRepository, RefJobListener listener, PlatformTransactionManager tm,
			Tasklet restoreBackupTasklet) {
		return RefJobSteps.oneStepJob(RefJobType.ROLLBACK, "restoreBackupStep", jobRepository, listener, tm,
				restoreBackupTasklet);
	}

	@Bean
	@StepScope
	Tasklet restoreBackupTasklet(@Value("#{jobParameters}") Map<String, Object> parameters, JobRepository jobRepository,
			PlatformTransactionManager tm) {
		Path path = RefJobParameters.repositoryPath(parameters);
		RollbackParameters rollback = RollbackParameters.from(parameters);
		return (contribution, chunkContext) -> {
			MigrationReport report;
			JobExecution execution = chunkContext.getStepContext().getStepExecution().getJobExecution();
			// the backup's refs, as its record counts them, while they are read back
			StepProgress progress = new StepProgress(chunkContext.getStepContext().getStepExecution(), jobRepository,
					tm);
			try (Repository repository = Repository.open(path)) {
				report = new FormatMigrator(repository, progress).rollback(rollback.backup(),
						JobLocks.owner(execution));
			}
			progress.finish(report.refs());
			ExecutionContext job = execution.getExecutionContext();
			job.putString(JobResults.ROLLBACK_FROM, report.from().configName());
			job.putString(JobResults.ROLLBACK_TO, report.to().configName());
			job.putLong(JobResults.ROLLBACK_REFS, report.refs());
			job.putString(JobResults.ROLLBACK_DIGEST, report.sourceDigest());
			job.putString(JobResults.ROLLBACK_KEPT_CURRENT_AT, String.valueOf(report.backup()));
			InterruptedSwap finished = report.finishedFirst();
			if (finished != null) {
				// a migration (or another rollback) killed after its switch, finished
				// before this rollback: where its old store went (possibly the backup
				// restored here, which is then gone)
				job.putString(JobResults.ROLLBACK_FINISHED_FIRST, finished.describe());
				job.putString(JobResults.ROLLBACK_FINISHED_FIRST_BACKUP, finished.backup().toString());
			}
			// the refs written since the migration, kept in the restored store: their
			// count, and the first 100
			job.putLong(JobResults.ROLLBACK_KEPT, report.carried().size());
			if (!report.carried().isEmpty()) {
				job.putString(JobResults.ROLLBACK_KEPT_REFS,
						String.join(" ", report.carried().subList(0, Math.min(100, report.carried().size()))));
			}
			contribution.incrementWriteCount(report.refs());
			return RepeatStatus.FINISHED;
		};
	}

}
