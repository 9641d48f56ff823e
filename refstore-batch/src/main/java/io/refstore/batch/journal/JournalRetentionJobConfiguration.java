package io.refstore.batch.journal;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.batch.infrastructure.support.transaction.ResourcelessTransactionManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JournalRetainer;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;

/**
 * {@code journalRetentionJob}: its one step, {@value #STEP}, hands its repository to the
 * application's {@link JournalRetainer} (the web application's journal retention, the
 * same its sweep applies: ingest, set a large file aside, delete the entries past the
 * retention, each ref keeping its newest older change) and keeps what it did in the job's
 * context ({@link JobResults#JOURNAL_INGESTED}, {@link JobResults#JOURNAL_SET_ASIDE},
 * {@link JobResults#JOURNAL_DELETED}, and {@link JobResults#JOURNAL_OUTCOME} in words)
 * and its exit description, so that a schedule's runs, the jobs list and the job's page
 * show it like any job. The step runs outside a transaction of the job repository's
 * database: the retainer keeps its own. It changes no ref and takes no lease, as the
 * sweep takes none; without a retainer it fails saying so.
 */
@Configuration(proxyBeanMethods = false)
class JournalRetentionJobConfiguration {

	/** The job's one step. */
	static final String STEP = "applyJournalRetentionStep";

	@Bean
	Job journalRetentionJob(JobRepository jobRepository, RefJobListener listener,
			ObjectProvider<JournalRetainer> retainers) {
		return RefJobSteps.oneStepJob(RefJobType.JOURNAL_RETENTION, STEP, jobRepository, listener,
				new ResourcelessTransactionManager(), tasklet(retainers));
	}

	private static Tasklet tasklet(ObjectProvider<JournalRetainer> retainers) {
		return (contribution, chunkContext) -> {
			JournalRetainer retainer = retainers.getIfAvailable();
			if (retainer == null) {
				throw new IllegalStateException("this application keeps no ref journal to apply a retention to");
			}
			StepExecution step = chunkContext.getStepContext().getStepExecution();
			JournalRetainer.Retained retained = retainer
				.retain(step.getJobParameters().getString(JobParameterNames.REPOSITORY));
			ExecutionContext job = step.getJobExecution().getExecutionContext();
			job.putLong(JobResults.JOURNAL_INGESTED, retained.ingested());
			job.putString(JobResults.JOURNAL_SET_ASIDE, Boolean.toString(retained.setAside()));
			job.putLong(JobResults.JOURNAL_DELETED, retained.deleted());
			job.putString(JobResults.JOURNAL_OUTCOME, retained.words());
			contribution.incrementWriteCount(retained.deleted());
			contribution.setExitStatus(contribution.getExitStatus().addExitDescription(retained.words()));
			return RepeatStatus.FINISHED;
		};
	}

}
