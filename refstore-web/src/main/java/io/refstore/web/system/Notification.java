package io.refstore.web.system;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Something an operator may want to hear about, published as an application event for the
 * webhooks (docs/operators.md, "Webhooks"): a campaign or a schedule's fire started,
 * ended or failed, a lock-out, a refused node credential. Jobs are told by their own
 * events ({@code RefJobEvent}), which the webhooks map alike.
 *
 * @param event its type, {@code area.what}: {@code campaign.finished},
 * {@code schedule.failed}, {@code security.lockout}...
 * @param at when it happened
 * @param repository the repository concerned, or {@code null}
 * @param actor who caused it ({@code system} when nobody did)
 * @param details what the payload says of it besides, as JSON-ready values
 */
public record Notification(String event, Instant at, String repository, String actor, Map<String, Object> details) {

	public Notification {
		Objects.requireNonNull(event, "event");
		Objects.requireNonNull(at, "at");
		Objects.requireNonNull(actor, "actor");
		details = Map.copyOf(details);
	}

	/** A notification of now. */
	public static Notification of(String event, String repository, String actor, Map<String, Object> details) {
		return new Notification(event, Instant.now(), repository, actor, details);
	}

}
