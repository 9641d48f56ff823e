package io.refstore.web.webhooks;

import java.util.List;

/**
 * A webhook as the API and the console's form send it.
 *
 * @param name its name (letters, digits, {@code . _ -}, at most 100)
 * @param url an {@code http} or {@code https} URL
 * @param secret the HMAC-SHA256 key (at least 16 characters); on an update, {@code null}
 * or empty keeps the one it has
 * @param events the event types it wants
 * @param repositories a glob on repository names ({@code null}: {@code *})
 * @param active whether it is delivered to ({@code null}: yes)
 */
public record WebhookRequest(String name, String url, String secret, List<String> events, String repositories,
		Boolean active) {

}
