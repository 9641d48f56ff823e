package io.refstore.batch.support;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameter;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.ExecutionContext;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;

/**
 * Job executions read back as {@link JobSummary} records: parameters and results as text,
 * steps with their progress, rate and estimated time left. Stateless.
 */
final class JobSummaries {

	private JobSummaries() {
	}

	/** An execution's parameters as text. */
	static Map<String, String> text(JobExecution execution) {
		Map<String, String> out = new TreeMap<>();
		for (JobParameter<?> parameter : execution.getJobParameters()) {
			out.put(parameter.name(), String.valueOf(parameter.value()));
		}
		return out;
	}

	static JobSummary summary(JobExecution execution) {
		List<JobSummary.StepSummary> steps = execution.getStepExecutions()
			.stream()
			.sorted(Comparator.comparingLong(StepExecution::getId))
			.map(JobSummaries::step)
			.toList();
		Map<String, String> parameters = text(execution);
		String name = execution.getJobInstance().getJobName();
		JobStatus status = status(execution.getStatus());
		String exitMessage = exitMessage(execution);
		return new JobSummary(execution.getId(), execution.getJobInstanceId(), name, RefJobType.ofJobName(name), status,
				execution.getExitStatus().getExitCode(), exitMessage, parameters.get(JobParameterNames.REPOSITORY),
				parameters.get(JobParameterNames.ACTOR), parameters, results(execution.getExecutionContext()),
				execution.getCreateTime(), execution.getStartTime(), execution.getEndTime(), steps,
				status == JobStatus.FAILED && exitMessage.contains(StartupRecovery.INTERRUPTED));
	}

	/** Spring Batch's status as the API's, by the same name. */
	static JobStatus status(BatchStatus status) {
		return JobStatus.valueOf(status.name());
	}

	/**
	 * The job's exit description or, when it has none, the first line of the first failed
	 * step's (Spring Batch keeps the stack trace there; its first line is the error and
	 * its message).
	 */
	private static String exitMessage(JobExecution execution) {
		String own = execution.getExitStatus().getExitDescription();
		if (own != null && !own.isBlank()) {
			return own;
		}
		return execution.getStepExecutions()
			.stream()
			.filter((step) -> step.getStatus() == BatchStatus.FAILED)
			.map((step) -> step.getExitStatus().getExitDescription().lines().findFirst().orElse(""))
			.findFirst()
			.orElse("");
	}

	private static Map<String, String> results(ExecutionContext context) {
		Map<String, String> out = new LinkedHashMap<>();
		for (Map.Entry<String, Object> entry : context.entrySet()) {
			if (!entry.getKey().startsWith("batch.")) {
				out.put(entry.getKey(), String.valueOf(entry.getValue()));
			}
		}
		return out;
	}

	private static JobSummary.StepSummary step(StepExecution step) {
		ExecutionContext context = step.getExecutionContext();
		long done = context.containsKey(JobParameterNames.PROGRESS_DONE)
				? context.getLong(JobParameterNames.PROGRESS_DONE) : step.getWriteCount();
		long total = context.containsKey(JobParameterNames.PROGRESS_TOTAL)
				? context.getLong(JobParameterNames.PROGRESS_TOTAL) : -1;
		boolean estimate = step.getEndTime() == null && "true".equals(context.get(JobParameterNames.PROGRESS_ESTIMATE));
		if (total >= 0 && done >= total && estimate) {
			// the count passed an estimate: no total until the step knows the real one,
			// rather than 100% while the count climbs
			total = -1;
		}
		// the items written in this execution, or while a step's one long call runs
		// (nothing is written before it returns), the ones it reports done
		long counted = (step.getWriteCount() > 0) ? step.getWriteCount() : done;
		// a phase of a step's one long call counts from its own start
		String phase = (step.getEndTime() == null) ? context.getString(JobParameterNames.PROGRESS_PHASE, null) : null;
		double rate = 0;
		long eta = -1;
		double seconds = 0;
		if (phase != null && context.containsKey(JobParameterNames.PROGRESS_PHASE_STARTED)) {
			seconds = (System.currentTimeMillis() - context.getLong(JobParameterNames.PROGRESS_PHASE_STARTED)) / 1e3;
			counted = done;
		}
		else if (step.getStartTime() != null) {
			LocalDateTime until = (step.getEndTime() != null) ? step.getEndTime() : LocalDateTime.now();
			seconds = Duration.between(step.getStartTime(), until).toNanos() / 1e9;
		}
		if (step.getStartTime() != null && counted > 0) {
			rate = counted / Math.max(0.001, seconds);
			eta = (total >= done) ? Math.round((total - done) / rate) : -1;
		}
		return new JobSummary.StepSummary(step.getId(), step.getStepName(), status(step.getStatus()),
				step.getExitStatus().getExitDescription(), done, total, step.getCommitCount(), rate, eta,
				step.getStartTime(), step.getEndTime(), estimate && total >= 0, phase);
	}

}
