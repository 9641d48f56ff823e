package io.refstore.batch.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;

import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.step.StepExecution;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobSummary;

/**
 * A step's progress as {@link JobSummaries} reads it: an estimated total that the count
 * passed is no total (never 100% while the count climbs), and a step that reports a count
 * before writing anything has a rate and an ETA from it.
 */
class JobSummariesTest {

	@Test
	void aRunningStepPastItsEstimateHasNoTotalUntilItKnowsTheRealOne() {
		StepExecution step = running(76_000, 75_794, true);

		JobSummary.StepSummary summary = summaryOf(step);

		assertThat(summary.done()).isEqualTo(76_000);
		assertThat(summary.total()).isEqualTo(-1);
		assertThat(summary.estimate()).isFalse();
		assertThat(summary.etaSeconds()).isEqualTo(-1);
	}

	@Test
	void aRunningStepBelowItsEstimateShowsItAsItsTotal() {
		JobSummary.StepSummary summary = summaryOf(running(1_000, 75_794, true));

		assertThat(summary.total()).isEqualTo(75_794);
		assertThat(summary.estimate()).as("says it is an estimate").isTrue();
		assertThat(summary.etaSeconds()).isPositive();
	}

	@Test
	void anExactTotalIsKeptAndACountWithoutWritesGivesTheRateAndEta() {
		JobSummary.StepSummary summary = summaryOf(running(1_000, 1_000, false));

		assertThat(summary.total()).isEqualTo(1_000);
		assertThat(summary.estimate()).isFalse();
		assertThat(summary.ratePerSecond()).isPositive();
		assertThat(summary.etaSeconds()).isZero();
		assertThat(summaryOf(running(500, 2_000, false)).etaSeconds()).isPositive();
	}

	@Test
	void aPhaseHasItsOwnRateAndNoneBeforeItsFirstItem() {
		StepExecution step = running(1_000, 2_000, false);
		step.getExecutionContext().putString(JobParameterNames.PROGRESS_PHASE, "Comparing with the backup");
		step.getExecutionContext()
			.putLong(JobParameterNames.PROGRESS_PHASE_STARTED, System.currentTimeMillis() - 1_000);

		JobSummary.StepSummary summary = summaryOf(step);

		assertThat(summary.phase()).isEqualTo("Comparing with the backup");
		// 1,000 in the phase's one second, not in the step's ten
		assertThat(summary.ratePerSecond()).isBetween(500.0, 1_000.0);
		assertThat(summary.etaSeconds()).isBetween(1L, 2L);

		// a new phase, nothing done in it yet, in a step that has written chunks before
		step.setWriteCount(40);
		step.getExecutionContext().putLong(JobParameterNames.PROGRESS_DONE, 0);
		step.getExecutionContext().putLong(JobParameterNames.PROGRESS_PHASE_STARTED, System.currentTimeMillis());
		JobSummary.StepSummary starting = summaryOf(step);
		assertThat(starting.ratePerSecond()).isZero();
		assertThat(starting.etaSeconds()).isEqualTo(-1);

		step.setEndTime(LocalDateTime.now());
		assertThat(summaryOf(step).phase()).as("an ended step is in no phase").isNull();
	}

	/**
	 * A step started ten seconds ago that wrote nothing yet and reports {@code done} of
	 * {@code total}.
	 */
	private static StepExecution running(long done, long total, boolean estimate) {
		JobExecution job = new JobExecution(1, new JobInstance(1, "verifyRefsJob"), new JobParameters());
		StepExecution step = new StepExecution(2, "verifyStoreStep", job);
		step.setStartTime(LocalDateTime.now().minusSeconds(10));
		step.getExecutionContext().putLong(JobParameterNames.PROGRESS_DONE, done);
		step.getExecutionContext().putLong(JobParameterNames.PROGRESS_TOTAL, total);
		if (estimate) {
			step.getExecutionContext().putString(JobParameterNames.PROGRESS_ESTIMATE, "true");
		}
		job.addStepExecution(step);
		return step;
	}

	private static JobSummary.StepSummary summaryOf(StepExecution step) {
		return JobSummaries.summary(step.getJobExecution()).steps().get(0);
	}

}
