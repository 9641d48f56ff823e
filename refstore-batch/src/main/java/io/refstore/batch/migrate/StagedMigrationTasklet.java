package io.refstore.batch.migrate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.transaction.PlatformTransactionManager;

import io.refstore.batch.api.MigrateParameters;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.support.JobLocks;
import io.refstore.batch.support.StepProgress;
import io.refstore.core.migrate.MigrationOptions;
import io.refstore.core.migrate.StagedMigration;
import io.refstore.core.repo.Repository;

/**
 * A step of {@code migrateRefsJob}: one phase of a {@link StagedMigration}, opened on the
 * step's first call and closed when the step ends (its staged work stays on disk for the
 * next step or a restart). The migration is owned by the job instance, so a restart in
 * another process resumes the staged work.
 */
abstract class StagedMigrationTasklet implements Tasklet, StepExecutionListener {

	private final Path repositoryPath;

	private final MigrateParameters parameters;

	private final MigrationOptions options;

	private final JobRepository jobRepository;

	private final PlatformTransactionManager tm;

	private Repository repository;

	private StagedMigration migration;

	private StepProgress progress;

	/**
	 * @param jobParameters the job's parameters, read into {@link MigrateParameters}
	 */
	StagedMigrationTasklet(Map<String, ?> jobParameters) {
		this(jobParameters, null, null);
	}

	/**
	 * A phase done in one long call, which shows its total before it begins through
	 * {@link #progress()}.
	 * @param jobParameters the job's parameters, read into {@link MigrateParameters}
	 * @param jobRepository where {@link #progress()} writes
	 * @param tm the transactions it writes in
	 */
	StagedMigrationTasklet(Map<String, ?> jobParameters, JobRepository jobRepository, PlatformTransactionManager tm) {
		this.repositoryPath = RefJobParameters.repositoryPath(jobParameters);
		this.parameters = MigrateParameters.from(jobParameters);
		this.options = new MigrationOptions(this.parameters.targetFormat(), false, this.parameters.reflogs());
		this.jobRepository = jobRepository;
		this.tm = tm;
	}

	/**
	 * The step's progress, shown while a call runs; only for a tasklet given a job
	 * repository.
	 */
	StepProgress progress() {
		if (this.progress == null) {
			throw new IllegalStateException("no job repository to show progress in");
		}
		return this.progress;
	}

	/** The job's parameters. */
	MigrateParameters parameters() {
		return this.parameters;
	}

	@Override
	public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) throws Exception {
		StepExecution step = chunkContext.getStepContext().getStepExecution();
		if (this.jobRepository != null) {
			this.progress = new StepProgress(step, this.jobRepository, this.tm);
		}
		if (this.migration == null) {
			this.repository = Repository.open(this.repositoryPath);
			this.migration = StagedMigration.open(this.repository, this.options,
					JobLocks.owner(step.getJobExecution()));
		}
		return run(this.migration, contribution, step.getExecutionContext(),
				step.getJobExecution().getExecutionContext());
	}

	/**
	 * Runs (a chunk of) the phase.
	 * @param stepContext the step's context (its checkpoint)
	 * @param jobContext the job's context (results the history keeps)
	 */
	abstract RepeatStatus run(StagedMigration migration, StepContribution contribution, ExecutionContext stepContext,
			ExecutionContext jobContext) throws IOException, InterruptedException;

	MigrationOptions options() {
		return this.options;
	}

	@Override
	public ExitStatus afterStep(StepExecution stepExecution) {
		try {
			if (this.migration != null) {
				this.migration.close();
			}
		}
		catch (IOException ex) {
			// the staged work is on disk; a store that does not close cleanly loses
			// nothing
		}
		finally {
			this.migration = null;
			if (this.repository != null) {
				this.repository.close();
				this.repository = null;
			}
		}
		return stepExecution.getExitStatus();
	}

}
