package io.refstore.web.webhooks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.refstore.web.system.InvalidRequestException;

/**
 * The event types a webhook can want, each with what it tells (docs/operators.md,
 * "Webhooks"), and {@value #PING}, which only "send test" sends.
 */
final class WebhookEvents {

	/** The type of a test delivery. */
	static final String PING = "ping";

	/** Every type a webhook can want, in the console's order, with its description. */
	static final Map<String, String> TYPES = types();

	private WebhookEvents() {
	}

	private static Map<String, String> types() {
		Map<String, String> types = new LinkedHashMap<>();
		types.put("job.started", "a job was launched or restarted");
		types.put("job.finished", "a job completed");
		types.put("job.failed", "a job failed");
		types.put("job.stopped", "a job was stopped on request");
		types.put("campaign.started", "a campaign was created");
		types.put("campaign.finished", "a campaign ended with every repository done");
		types.put("campaign.failed", "a campaign ended with a repository failed");
		types.put("campaign.stopped", "a campaign was cancelled and ended");
		types.put("schedule.fired", "a schedule fired and queued its jobs");
		types.put("schedule.failed", "a schedule fired and could not select its repositories");
		types.put("schedule.paused", "a schedule was paused: it fires no more until resumed");
		types.put("schedule.resumed", "a paused schedule was resumed");
		types.put("schedule.deleted", "a schedule was deleted");
		types.put("security.lockout", "sign-ins were locked out after failed passwords");
		types.put("security.node-refused", "a request with a fleet node's credential was refused");
		return Collections.unmodifiableMap(types);
	}

	/**
	 * {@code events} checked: each a known type, at least one.
	 * @throws InvalidRequestException naming {@code events} otherwise
	 */
	static List<String> checked(List<String> events) {
		if (events == null || events.isEmpty()) {
			throw new InvalidRequestException("events", null,
					"a webhook wants at least one event type: " + String.join(", ", TYPES.keySet()));
		}
		for (String event : events) {
			if (!TYPES.containsKey(event)) {
				throw new InvalidRequestException("events", event,
						"no such event type; the types are " + String.join(", ", TYPES.keySet()));
			}
		}
		return events.stream().distinct().toList();
	}

}
