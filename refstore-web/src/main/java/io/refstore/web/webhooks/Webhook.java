package io.refstore.web.webhooks;

import java.time.Instant;
import java.util.List;

/**
 * A webhook: where refstore posts which events. Its secret is never shown again once set.
 *
 * @param id its id
 * @param name its name, unique
 * @param url where deliveries are posted
 * @param events the event types it wants
 * @param repositories a glob on repository names: the repositories whose events it wants
 * ({@code *}: every one); events of no repository (security events) ignore it
 * @param active whether events are delivered to it
 * @param createdAt when it was created
 * @param createdBy who created it
 */
public record Webhook(long id, String name, String url, List<String> events, String repositories, boolean active,
		Instant createdAt, String createdBy) {

	public Webhook {
		events = List.copyOf(events);
	}

}
