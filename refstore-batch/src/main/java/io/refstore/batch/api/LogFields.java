package io.refstore.batch.api;

/**
 * The keys of what the application puts in the log's MDC besides the request's
 * correlation id, for structured (JSON) logs to carry as fields: the web layer while it
 * handles a request, a job's thread while the job runs.
 */
public final class LogFields {

	/** Who: the authenticated user, or the actor who launched the job. */
	public static final String USER = "user";

	/** The repository the request or job is about, by the name it was given. */
	public static final String REPOSITORY = "repository";

	/** The job execution a line was logged by. */
	public static final String JOB_EXECUTION = "jobExecutionId";

	private LogFields() {
	}

}
