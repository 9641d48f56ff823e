package io.refstore.batch.api;

import java.time.Instant;
import java.util.Map;

/**
 * An audit record published as a Spring application event for every launch, stop, restart
 * and end of a refstore job. The web layer persists them.
 *
 * @param time when it happened
 * @param actor who did it ({@code system} for an end or a recovery at startup)
 * @param action what happened
 * @param job the job name
 * @param executionId the execution concerned ({@code null} for a refused launch)
 * @param repository the repository name as given
 * @param parameters the job's parameters as text
 * @param outcome the result in words: {@code ACCEPTED}, {@code NOT RUNNING},
 * {@code REFUSED: ...}, or the end's status and exit message
 * @param result the result
 * @param status for {@link Result#ENDED}, the status the execution ended with; otherwise
 * {@code null}
 */
public record RefJobEvent(Instant time, String actor, Action action, String job, Long executionId, String repository,
		Map<String, String> parameters, String outcome, Result result, JobStatus status) {

	public RefJobEvent {
		parameters = Map.copyOf(parameters);
	}

	/** What an event records. */
	public enum Action {

		/** A job was launched (or refused). */
		LAUNCH,
		/** A stop was requested. */
		STOP,
		/** A stopped or failed execution was restarted. */
		RESTART,
		/** An execution ended (or was marked dead at startup). */
		FINISH

	}

	/** How what an event records turned out. */
	public enum Result {

		/** A launch, stop or restart was accepted. */
		ACCEPTED,
		/** A stop found the execution no longer running. */
		NOT_RUNNING,
		/** A launch, stop or restart was refused. */
		REFUSED,
		/** An execution ended (or was marked dead), with {@link RefJobEvent#status()}. */
		ENDED

	}

}
