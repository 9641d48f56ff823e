package io.refstore.web.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.core.ref.Wildmatch;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditEntry.Outcome;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.security.Actors;
import io.refstore.web.system.InvalidRequestException;

/**
 * Webhooks for an ADMIN: list, create, change, delete, their delivery log, a test
 * delivery and a redelivery. Every change is audited ({@code webhook.create},
 * {@code webhook.update}, {@code webhook.delete}, {@code webhook.test}); a secret never
 * leaves the application except the one it generates, shown once; the audit log names a
 * webhook's host, not its URL (a chat service's URL is its credential). Thread-safe.
 */
@Service
public class WebhookService {

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

	/** The shortest secret accepted. */
	static final int MIN_SECRET = 16;

	private static final SecureRandom RANDOM = new SecureRandom();

	private final WebhookStore store;

	private final WebhookNotifier notifier;

	private final AuditLog audit;

	WebhookService(WebhookStore store, WebhookNotifier notifier, AuditLog audit) {
		this.store = store;
		this.notifier = notifier;
		this.audit = audit;
	}

	/**
	 * A webhook just created and its secret: the one given, or one generated, which is
	 * shown only this once.
	 *
	 * @param webhook the webhook
	 * @param secret the secret when refstore generated it, else {@code null}
	 */
	public record Created(Webhook webhook, String secret) {

	}

	@PreAuthorize("hasRole('ADMIN')")
	public List<Webhook> list() {
		return this.store.all();
	}

	@PreAuthorize("hasRole('ADMIN')")
	public Webhook find(long id) {
		return this.store.find(id).orElseThrow(() -> new WebhookNotFoundException(id));
	}

	@PreAuthorize("hasRole('ADMIN')")
	public Created create(WebhookRequest request) {
		Checked checked = check(request, true);
		String generated = (checked.secret() == null) ? HexFormat.of().formatHex(bytes(32)) : null;
		long id;
		try {
			id = this.store.insert(checked.name(), checked.url(), (generated != null) ? generated : checked.secret(),
					checked.events(), checked.repositories(), checked.active(), Actors.current());
		}
		catch (DuplicateKeyException ex) {
			throw new InvalidRequestException("name", checked.name(), "another webhook has that name");
		}
		Webhook webhook = find(id);
		record("webhook.create", webhook, Outcome.SUCCESS, null);
		return new Created(webhook, generated);
	}

	@PreAuthorize("hasRole('ADMIN')")
	public Webhook update(long id, WebhookRequest request) {
		find(id);
		Checked checked = check(request, false);
		try {
			if (!this.store.update(id, checked.name(), checked.url(), checked.secret(), checked.events(),
					checked.repositories(), checked.active())) {
				throw new WebhookNotFoundException(id);
			}
		}
		catch (DuplicateKeyException ex) {
			throw new InvalidRequestException("name", checked.name(), "another webhook has that name");
		}
		Webhook webhook = find(id);
		record("webhook.update", webhook, Outcome.SUCCESS, (checked.secret() != null) ? "secret changed" : null);
		return webhook;
	}

	@PreAuthorize("hasRole('ADMIN')")
	public void delete(long id) {
		Webhook webhook = find(id);
		if (!this.store.delete(id)) {
			throw new WebhookNotFoundException(id);
		}
		record("webhook.delete", webhook, Outcome.SUCCESS, null);
	}

	/** Sends a {@code ping} delivery to the webhook, soon; returns the delivery. */
	@PreAuthorize("hasRole('ADMIN')")
	public Delivery test(long id) {
		Webhook webhook = find(id);
		long delivery = this.notifier.ping(webhook, Actors.current());
		record("webhook.test", webhook, Outcome.SUCCESS, null);
		return this.store.delivery(id, delivery).orElseThrow(() -> new DeliveryNotFoundException(id, delivery));
	}

	/** The webhook's deliveries, newest first, below {@code before} if given. */
	@PreAuthorize("hasRole('ADMIN')")
	public List<Delivery> deliveries(long id, Long before, int limit) {
		find(id);
		return this.store.deliveries(id, before, Math.max(1, Math.min(limit, 200)));
	}

	@PreAuthorize("hasRole('ADMIN')")
	public Delivery delivery(long id, long deliveryId) {
		return this.store.delivery(id, deliveryId).orElseThrow(() -> new DeliveryNotFoundException(id, deliveryId));
	}

	/** Sends a delivery's payload again, as a new delivery with the same id header. */
	@PreAuthorize("hasRole('ADMIN')")
	public Delivery redeliver(long id, long deliveryId) {
		Delivery old = delivery(id, deliveryId);
		long again = this.store.enqueue(id, old.guid(), old.event(), old.repository(), old.payload());
		this.notifier.nudge();
		record("webhook.redeliver", find(id), Outcome.SUCCESS, "delivery " + deliveryId);
		return delivery(id, again);
	}

	private record Checked(String name, String url, String secret, List<String> events, String repositories,
			boolean active) {

	}

	private static Checked check(WebhookRequest request, boolean creating) {
		if (request == null) {
			throw new InvalidRequestException("body", null, "a webhook: name, url, events");
		}
		String name = request.name();
		if (name == null || !NAME.matcher(name).matches()) {
			throw new InvalidRequestException("name", name, "1 to 100 letters, digits, '.', '_' or '-'");
		}
		String url = WebhookTargets.checked(request.url()).toString();
		String secret = (request.secret() == null || request.secret().isEmpty()) ? null : request.secret();
		if (secret != null && (secret.length() < MIN_SECRET || secret.length() > 256)) {
			throw new InvalidRequestException("secret", null,
					"a secret of " + MIN_SECRET + " to 256 characters (or none: refstore makes one)");
		}
		List<String> events = WebhookEvents.checked(request.events());
		String repositories = (request.repositories() == null || request.repositories().isBlank()) ? "*"
				: request.repositories().strip();
		String problem = Wildmatch.inputProblem(repositories.getBytes(StandardCharsets.UTF_8));
		if (problem != null) {
			throw new InvalidRequestException("repositories", repositories, "not a glob: " + problem);
		}
		return new Checked(name, url, secret, events, repositories, request.active() == null || request.active());
	}

	private static byte[] bytes(int n) {
		byte[] bytes = new byte[n];
		RANDOM.nextBytes(bytes);
		return bytes;
	}

	private void record(String action, Webhook webhook, Outcome outcome, String detail) {
		Map<String, String> parameters = new LinkedHashMap<>();
		// the host only: a chat service's webhook URL carries its credential in its path
		parameters.put("host", java.net.URI.create(webhook.url()).getHost());
		parameters.put("events", String.join(",", webhook.events()));
		parameters.put("repositories", webhook.repositories());
		parameters.put("active", Boolean.toString(webhook.active()));
		this.audit.record(AuditEntry.of(Actors.current(), action, null, "webhook " + webhook.name(), parameters,
				outcome, detail));
	}

}
