package io.refstore.web.jobs;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;

/**
 * A job execution as the API shows it: identity, status, who launched it with which
 * parameters, what it kept (plan counts, digests, backup paths), and its progress: per
 * step the items done and in all, chunks committed, rate and ETA, and for the whole job
 * the step it is at. Times are the server's local time, as the job repository keeps them.
 *
 * @param id the execution id
 * @param instanceId its job instance (a restart is a new execution of the same instance)
 * @param job the job name ({@code migrateRefsJob}, ...)
 * @param type the job type in lower case ({@code migrate}, {@code delete}, ...)
 * @param status the batch status
 * @param running whether it has not ended
 * @param exitCode the exit code
 * @param exitMessage the exit description, an error's first line for a failure
 * @param repository the repository name as given
 * @param user who launched it
 * @param parameters every parameter as text
 * @param results what the job kept in its context
 * @param created when it was created
 * @param started when it started, or {@code null}
 * @param ended when it ended, or {@code null}
 * @param durationSeconds seconds from start to end (or now), or {@code null} before the
 * start
 * @param progress where it is now
 * @param steps its steps in the order they ran
 * @param links {@code self}, and {@code restart} or {@code stop} when they apply
 */
public record JobView(long id, long instanceId, String job, String type, String status, boolean running,
		String exitCode, String exitMessage, String repository, String user, Map<String, String> parameters,
		Map<String, String> results, LocalDateTime created, LocalDateTime started, LocalDateTime ended,
		Double durationSeconds, Progress progress, List<JobSummary.StepSummary> steps, Map<String, String> links) {

	/**
	 * The step an execution is at (the running one, else the last), with its counts.
	 *
	 * @param step the step's name, or {@code null} before the first step
	 * @param done items done
	 * @param total items in all, -1 if unknown
	 * @param percent done as a percentage of total (100 once the job completed), or
	 * {@code null} if unknown
	 * @param ratePerSecond items per second
	 * @param etaSeconds seconds left at that rate, -1 if unknown
	 */
	public record Progress(String step, long done, long total, Double percent, double ratePerSecond, long etaSeconds) {

	}

	/** The view of {@code job}, {@linkplain JobRedaction#redacted redacted}. */
	public static JobView of(JobSummary summary) {
		JobSummary job = JobRedaction.redacted(summary);
		String self = "/api/jobs/" + job.executionId();
		Map<String, String> links = job.running() ? Map.of("self", self, "stop", self + "/stop")
				: job.status().restartable() ? Map.of("self", self, "restart", self + "/restart")
						: Map.of("self", self);
		Double duration = (job.started() == null) ? null
				: Duration.between(job.started(), (job.ended() != null) ? job.ended() : LocalDateTime.now()).toMillis()
						/ 1000.0;
		return new JobView(job.executionId(), job.instanceId(), job.job(), typeName(job.type()), job.status().name(),
				job.running(), job.exitCode(), job.exitMessage(), job.repository(), job.actor(), job.parameters(),
				job.results(), job.created(), job.started(), job.ended(), duration, progress(job), job.steps(), links);
	}

	private static String typeName(RefJobType type) {
		return (type == null) ? null : type.name().toLowerCase(java.util.Locale.ROOT);
	}

	private static Progress progress(JobSummary job) {
		List<JobSummary.StepSummary> steps = job.steps();
		if (steps.isEmpty()) {
			return new Progress(null, 0, -1, null, 0, -1);
		}
		JobSummary.StepSummary at = steps.stream()
			.filter((step) -> step.ended() == null)
			.findFirst()
			.orElse(steps.get(steps.size() - 1));
		Double percent = null;
		if (job.status() == JobStatus.COMPLETED || at.total() == 0) {
			percent = 100.0;
		}
		else if (at.total() > 0) {
			percent = Math.min(100.0, 100.0 * at.done() / at.total());
		}
		return new Progress(at.name(), at.done(), at.total(), percent, at.ratePerSecond(), at.etaSeconds());
	}

}
