package io.refstore.batch.support;

import java.time.Duration;

import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.core.migrate.MigrationProgress;

/**
 * A step's total and count ({@link JobParameterNames#PROGRESS_TOTAL},
 * {@link JobParameterNames#PROGRESS_DONE}) as readers of the job repository see them
 * while a long tasklet call runs: the step's own transaction commits its context only
 * when the call returns, so this writes the context in a transaction of its own when the
 * total is set and at most every {@link #EVERY} after. Also a {@link MigrationProgress}
 * for the core's long operations, each phase with its own total. Not thread-safe: use it
 * on the step's thread.
 */
public final class StepProgress implements MigrationProgress {

	/** How often a changing count is written at most. */
	static final Duration EVERY = Duration.ofMillis(500);

	private final StepExecution step;

	private final JobRepository jobRepository;

	private final TransactionTemplate separately;

	private long written = System.nanoTime();

	public StepProgress(StepExecution step, JobRepository jobRepository, PlatformTransactionManager tm) {
		this.step = step;
		this.jobRepository = jobRepository;
		this.separately = new TransactionTemplate(tm);
		this.separately.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * The work begins: {@code total} items, none done yet; written at once.
	 * @param total the items in all, 0 or less if unknown
	 * @param estimate whether {@code total} is an estimate that {@link #finish} corrects
	 */
	public void begin(long total, boolean estimate) {
		ExecutionContext context = this.step.getExecutionContext();
		if (total > 0) {
			context.putLong(JobParameterNames.PROGRESS_TOTAL, total);
		}
		else {
			context.remove(JobParameterNames.PROGRESS_TOTAL);
		}
		if (estimate) {
			context.putString(JobParameterNames.PROGRESS_ESTIMATE, "true");
		}
		else {
			context.remove(JobParameterNames.PROGRESS_ESTIMATE);
		}
		context.putLong(JobParameterNames.PROGRESS_DONE, 0);
		write();
	}

	/** {@code done} items are done; written if the last write is {@link #EVERY} old. */
	public void advance(long done) {
		this.step.getExecutionContext().putLong(JobParameterNames.PROGRESS_DONE, done);
		if (System.nanoTime() - this.written >= EVERY.toNanos()) {
			write();
		}
	}

	/**
	 * The work is done: {@code done} items of as many in all, the real count replacing
	 * any estimate. Left for the step's own commit to write.
	 */
	public void finish(long done) {
		ExecutionContext context = this.step.getExecutionContext();
		context.putLong(JobParameterNames.PROGRESS_TOTAL, done);
		context.putLong(JobParameterNames.PROGRESS_DONE, done);
		context.remove(JobParameterNames.PROGRESS_ESTIMATE);
		context.remove(JobParameterNames.PROGRESS_PHASE);
		context.remove(JobParameterNames.PROGRESS_PHASE_STARTED);
	}

	/**
	 * A phase of the core's operation begins: its title, its total and its start are
	 * written at once, so that a reader sees what the step does now and the phase's own
	 * rate.
	 */
	@Override
	public void start(String title, long total) {
		ExecutionContext context = this.step.getExecutionContext();
		context.putString(JobParameterNames.PROGRESS_PHASE, title);
		context.putLong(JobParameterNames.PROGRESS_PHASE_STARTED, System.currentTimeMillis());
		begin(total, false);
	}

	@Override
	public void update(long done) {
		advance(done);
	}

	@Override
	public void stop() {
	}

	private void write() {
		this.separately.executeWithoutResult((status) -> this.jobRepository.updateExecutionContext(this.step));
		this.written = System.nanoTime();
	}

}
