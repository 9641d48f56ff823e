package io.refstore.web.jobs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobSummary;
import io.refstore.web.system.Redaction;

/**
 * A job as anyone may see it, in the API, the console and the audit log: exit messages
 * without stack frames or exception classes, no {@code repositoryPath} (the repository's
 * name is shown), paths under a repository's {@value JobResults#PLANS_DIR} (plans,
 * manifests) relative to it, as a launch takes them ({@code 0f3c…/plan}, not a bare
 * {@code plan} that says nothing), and other paths (backups) cut to their names. Spring
 * Batch keeps the full text, and the log has it.
 */
final class JobRedaction {

	private JobRedaction() {
	}

	/** {@code job} with what it must not show taken out. */
	public static JobSummary redacted(JobSummary job) {
		Map<String, String> parameters = parameters(job.parameters());
		Map<String, String> results = new LinkedHashMap<>();
		job.results().forEach((name, value) -> results.put(name, Redaction.paths(planRelative(value))));
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

	/** A job's parameters as anyone may see them: {@link Redaction#parameters}. */
	static Map<String, String> parameters(Map<String, String> parameters) {
		Map<String, String> relative = new LinkedHashMap<>();
		parameters.forEach((name, value) -> relative.put(name, planRelative(value)));
		return Redaction.parameters(relative);
	}

	/**
	 * An absolute path under a repository's {@value JobResults#PLANS_DIR}, relative to
	 * that directory; any other value as it is.
	 */
	static String planRelative(String value) {
		String dir = "/" + JobResults.PLANS_DIR + "/";
		int at = (value != null && value.startsWith("/") && value.indexOf('\n') < 0) ? value.lastIndexOf(dir) : -1;
		return (at < 0 || at + dir.length() == value.length()) ? value : value.substring(at + dir.length());
	}

}
