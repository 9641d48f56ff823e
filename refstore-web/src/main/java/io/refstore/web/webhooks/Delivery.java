package io.refstore.web.webhooks;

import java.time.Instant;

/**
 * One event's delivery to one webhook, and its last attempt.
 *
 * @param id its id
 * @param webhookId the webhook's id
 * @param guid the {@code X-Refstore-Delivery} header, the same on every attempt
 * @param event the event type
 * @param repository the repository concerned, or {@code null}
 * @param payload the JSON body
 * @param createdAt when the event was recorded
 * @param state where it stands
 * @param attempts attempts made
 * @param nextAttemptAt when the next attempt is due ({@code PENDING}), or {@code null}
 * @param statusCode the last attempt's HTTP status, or {@code null} if none came
 * @param response the start of the last answer's body, or the error that stopped the
 * attempt
 * @param durationMillis how long the last attempt took, or {@code null}
 * @param attemptedAt when the last attempt was made, or {@code null}
 */
public record Delivery(long id, long webhookId, String guid, String event, String repository, String payload,
		Instant createdAt, State state, int attempts, Instant nextAttemptAt, Integer statusCode, String response,
		Long durationMillis, Instant attemptedAt) {

	/** Where a delivery stands. */
	public enum State {

		/** Waiting for its first or next attempt. */
		PENDING,
		/** A 2xx answer came. */
		DELIVERED,
		/** Its last attempt failed too, or its webhook was switched off. */
		FAILED

	}

}
