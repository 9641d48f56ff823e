package io.refstore.batch.migrate;

import java.io.IOException;
import java.util.Map;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;
import io.refstore.core.migrate.CopyProgress;
import io.refstore.core.migrate.MigrationReport;
import io.refstore.core.migrate.StagedMigration;

/**
 * {@code migrateRefsJob}: moves a repository's refs to the other format with a
 * {@link StagedMigration}, one phase per step. {@code copyRefsStep} copies one chunk per
 * transaction and keeps its checkpoint (last ref name, segments, refs) in the step's
 * context, so a failed, stopped or killed run restarts from the last committed chunk (or
 * the one before, if the process died before that chunk's segment, written in the
 * background, was on disk: {@link StagedMigration#resumeFrom}); a stop takes effect
 * between chunks.
 * <ol>
 * <li>{@code snapshotRefsStep}: refusals, owner claim, estimate of the source's refs (the
 * progress total). A migration to the other format killed after its switch is finished
 * first (results {@code migration.finishedFirst} and
 * {@code migration.finishedFirstBackup}), then this one begins.</li>
 * <li>{@code copyRefsStep}: refs, chunk by chunk, optionally pausing
 * {@code throttleMillis} between chunks. A step execution that copies from the first
 * chunk to the last also builds the new store as it goes, reflogs included, which leaves
 * {@code copyReflogsStep} and the assembly in {@code verifyRefsStep} nothing to do.</li>
 * <li>{@code copyReflogsStep}: reflogs.</li>
 * <li>{@code verifyRefsStep}: assemble the new store in bulk and read it back
 * (digests).</li>
 * <li>{@code swapStorageStep}: under the store's locks, switch formats (rebuilding if the
 * source changed).</li>
 * </ol>
 * The history keeps the digests, counts and backup path in the job's context.
 */
@Configuration(proxyBeanMethods = false)
class MigrateRefsJobConfiguration {

	/**
	 * The job's parameters, which each step reads into
	 * {@link io.refstore.batch.api.MigrateParameters}.
	 */
	private static final String PARAMETERS = "#{jobParameters}";

	@Bean
	Job migrateRefsJob(JobRepository jobRepository, RefJobListener listener, PlatformTransactionManager tm,
			StagedMigrationTasklet snapshotRefsTasklet, StagedMigrationTasklet copyRefsTasklet,
			StagedMigrationTasklet copyReflogsTasklet, StagedMigrationTasklet verifyRefsTasklet,
			StagedMigrationTasklet swapStorageTasklet) {
		return new JobBuilder(RefJobType.MIGRATE.jobName(), jobRepository).listener(listener)
			.start(RefJobSteps.step("snapshotRefsStep", jobRepository, tm, snapshotRefsTasklet))
			.next(RefJobSteps.step("copyRefsStep", jobRepository, tm, copyRefsTasklet))
			.next(RefJobSteps.step("copyReflogsStep", jobRepository, tm, copyReflogsTasklet))
			.next(RefJobSteps.step("verifyRefsStep", jobRepository, tm, verifyRefsTasklet))
			.next(RefJobSteps.step("swapStorageStep", jobRepository, tm, swapStorageTasklet))
			.build();
	}

	@Bean
	@StepScope
	StagedMigrationTasklet snapshotRefsTasklet(@Value(PARAMETERS) Map<String, Object> parameters) {
		return new StagedMigrationTasklet(parameters) {

			@Override
			RepeatStatus run(StagedMigration migration, StepContribution contribution, ExecutionContext step,
					ExecutionContext job) throws IOException {
				// an estimate: counting exactly would read every ref once more before the
				// copy reads them all (no reftable records its count), so the copy step's
				// total says it is one until the copy has the real count
				long total = migration.estimateRefs();
				job.putLong(JobResults.MIGRATION_REFS_ESTIMATE, total);
				job.putString(JobResults.MIGRATION_RESUMED, Boolean.toString(migration.resumed()));
				// a migration (or rollback) to the other format, killed after its switch,
				// that the migration finished before it began: where its old store went
				migration.finishedFirst().ifPresent((finished) -> {
					job.putString(JobResults.MIGRATION_FINISHED_FIRST, finished.describe());
					job.putString(JobResults.MIGRATION_FINISHED_FIRST_BACKUP, finished.backup().toString());
				});
				// one snapshot taken: the estimate is no count of refs done
				step.putLong(JobParameterNames.PROGRESS_TOTAL, 1);
				step.putLong(JobParameterNames.PROGRESS_DONE, 1);
				return RepeatStatus.FINISHED;
			}

		};
	}

	@Bean
	@StepScope
	StagedMigrationTasklet copyRefsTasklet(@Value(PARAMETERS) Map<String, Object> parameters) {
		return new StagedMigrationTasklet(parameters) {

			private boolean started;

			@Override
			RepeatStatus run(StagedMigration migration, StepContribution contribution, ExecutionContext step,
					ExecutionContext job) throws IOException, InterruptedException {
				CopyProgress after = CopyCheckpoint.read(step);
				if (!this.started) {
					// a process killed right after a chunk's commit may not have written
					// that chunk's segment
					after = migration.resumeFrom(after);
					step.putLong(CopyCheckpoint.RESUMED_FROM, after.refs());
					this.started = true;
				}
				CopyProgress next = migration.copyRefs(after, parameters().chunkSize());
				CopyCheckpoint.write(step, next);
				contribution.incrementWriteCount(next.refs() - after.refs());
				step.putLong(JobParameterNames.PROGRESS_DONE, next.refs());
				step.putLong(JobParameterNames.PROGRESS_TOTAL, next.done() ? next.refs()
						: Math.max(next.refs(), job.getLong(JobResults.MIGRATION_REFS_ESTIMATE, 0L)));
				if (next.done()) {
					step.remove(JobParameterNames.PROGRESS_ESTIMATE);
				}
				else {
					step.putString(JobParameterNames.PROGRESS_ESTIMATE, "true");
				}
				if (next.done()) {
					job.putLong(JobResults.MIGRATION_REFS_COPIED, next.refs());
					return RepeatStatus.FINISHED;
				}
				if (parameters().throttleMillis() > 0) {
					Thread.sleep(parameters().throttleMillis());
				}
				return RepeatStatus.CONTINUABLE;
			}

		};
	}

	@Bean
	@StepScope
	StagedMigrationTasklet copyReflogsTasklet(@Value(PARAMETERS) Map<String, Object> parameters) {
		return new StagedMigrationTasklet(parameters) {

			@Override
			RepeatStatus run(StagedMigration migration, StepContribution contribution, ExecutionContext step,
					ExecutionContext job) throws IOException {
				long entries = migration.copyReflogs();
				contribution.incrementWriteCount(entries);
				done(step, entries);
				job.putLong(JobResults.MIGRATION_REFLOG_ENTRIES_COPIED, entries);
				return RepeatStatus.FINISHED;
			}

		};
	}

	@Bean
	@StepScope
	StagedMigrationTasklet verifyRefsTasklet(@Value(PARAMETERS) Map<String, Object> parameters,
			JobRepository jobRepository, PlatformTransactionManager tm) {
		return new StagedMigrationTasklet(parameters, jobRepository, tm) {

			@Override
			RepeatStatus run(StagedMigration migration, StepContribution contribution, ExecutionContext step,
					ExecutionContext job) throws IOException {
				// the refs copied, all read back when the call returns
				progress().begin(job.getLong(JobResults.MIGRATION_REFS_COPIED, 0L), false);
				job.putString(JobResults.MIGRATION_STAGED_DIGEST, migration.assemble());
				job.putString(JobResults.MIGRATION_VERIFIED_DIGEST, migration.verify());
				done(step, job.getLong(JobResults.MIGRATION_REFS_COPIED, 0L));
				return RepeatStatus.FINISHED;
			}

		};
	}

	@Bean
	@StepScope
	StagedMigrationTasklet swapStorageTasklet(@Value(PARAMETERS) Map<String, Object> parameters,
			JobRepository jobRepository, PlatformTransactionManager tm) {
		return new StagedMigrationTasklet(parameters, jobRepository, tm) {

			@Override
			RepeatStatus run(StagedMigration migration, StepContribution contribution, ExecutionContext step,
					ExecutionContext job) throws IOException {
				// the refs copied, switched (and the ones written since caught up with)
				// when the call returns
				progress().begin(job.getLong(JobResults.MIGRATION_REFS_COPIED, 0L), false);
				MigrationReport report = migration.swap();
				job.putString(JobResults.MIGRATION_FROM, report.from().configName());
				job.putString(JobResults.MIGRATION_TO, report.to().configName());
				job.putLong(JobResults.MIGRATION_REFS, report.refs());
				job.putLong(JobResults.MIGRATION_LOG_ENTRIES, report.logEntries());
				job.putString(JobResults.MIGRATION_SOURCE_DIGEST, report.sourceDigest());
				job.putString(JobResults.MIGRATION_TARGET_DIGEST, report.targetDigest());
				job.putString(JobResults.MIGRATION_BACKUP, String.valueOf(report.backup()));
				// refs a git process wrote into the old store during the swap, carried
				// into the new one
				job.putLong(JobResults.MIGRATION_CARRIED, report.carried().size());
				if (!report.carried().isEmpty()) {
					job.putString(JobResults.MIGRATION_CARRIED_REFS, String.join(" ", report.carried()));
				}
				contribution.incrementWriteCount(report.refs());
				done(step, report.refs());
				return RepeatStatus.FINISHED;
			}

		};
	}

	/**
	 * A step done in one call: {@code items} done of as many (its progress is 0 until
	 * then).
	 */
	private static void done(ExecutionContext step, long items) {
		step.putLong(JobParameterNames.PROGRESS_TOTAL, items);
		step.putLong(JobParameterNames.PROGRESS_DONE, items);
	}

}
