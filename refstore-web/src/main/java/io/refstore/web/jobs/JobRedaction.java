package io.refstore.web.jobs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.refstore.batch.api.JobSummary;
import io.refstore.web.system.Redaction;

/**
 * A job as anyone may see it, in the API and the console: exit messages without stack
 * frames or exception classes, no {@code repositoryPath} (the repository's name is
 * shown), and paths in parameters and results (plans, manifests, backups) cut to their
 * names. Spring Batch keeps the full text, and the log has it.
 */
final class JobRedaction {

	private JobRedaction() {
	}

	/** {@code job} with what it must not show taken out. */
	public static JobSummary redacted(JobSummary job) {
		Map<String, String> parameters = Redaction.parameters(job.parameters());
		Map<String, String> results = new LinkedHashMap<>();
		job.results().forEach((name, value) -> results.put(name, Redaction.paths(value)));
		List<JobSummary.StepSummary> steps = job.steps()
			.stream()
			.map((step) -> new JobSummary.StepSummary(step.stepExecutionId(), step.name(), step.status(),
					Redaction.message(step.exitMessage()), step.done(), step.total(), step.commits(),
					step.ratePerSecond(), step.etaSeconds(), step.started(), step.ended(), step.estimate(),
					step.phase()))
			.toList();
		return new JobSummary(job.executionId(), job.instanceId(), job.job(), job.type(), job.status(), job.exitCode(),
				Redaction.message(job.exitMessage()), job.repository(), job.actor(), parameters, results, job.created(),
				job.started(), job.ended(), steps, job.interrupted());
	}

}
