package io.refstore.web.webhooks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.core.ref.Wildmatch;
import io.refstore.web.system.Notification;
import io.refstore.web.system.Redaction;

/**
 * Turns events into deliveries: a {@link Notification}, or a job's launch, restart or end
 * ({@link RefJobEvent}: {@code job.started}, {@code job.finished}, {@code job.failed},
 * {@code job.stopped}), becomes one PENDING delivery for each active webhook that wants
 * its type and whose repository glob matches its repository, then a nudge of the
 * {@link WebhookDispatcher}. It runs on the thread that published the event (a job's own,
 * at its end) and only writes rows: a failure is logged, never thrown back. Security
 * events of one type come at most once per {@value #SECURITY_QUIET_SECONDS} s, the next
 * one counting those left out ({@code suppressed}), so that a flood of refused requests
 * is not a flood of deliveries.
 */
@Component
class WebhookNotifier {

	private static final Logger log = LoggerFactory.getLogger(WebhookNotifier.class);

	static final int SECURITY_QUIET_SECONDS = 10;

	/** The refused node credentials: anyone can send them, as fast as they like. */
	private static final String NODE_REFUSED = "security.node-refused";

	private final WebhookStore store;

	private final WebhookDispatcher dispatcher;

	private final JsonMapper json;

	private final Map<String, Instant> lastSecurity = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> suppressed = new ConcurrentHashMap<>();

	WebhookNotifier(WebhookStore store, WebhookDispatcher dispatcher, JsonMapper json) {
		this.store = store;
		this.dispatcher = dispatcher;
		this.json = json;
	}

	@EventListener
	void on(Notification notification) {
		if (notification.event().equals(NODE_REFUSED) && quiet(notification)) {
			return;
		}
		deliver(notification);
	}

	@EventListener
	void on(RefJobEvent event) {
		ofJob(event).ifPresent(this::deliver);
	}

	/** Enqueues a test delivery to one webhook; returns its id. */
	long ping(Webhook webhook, String actor) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("webhook", webhook.name());
		details.put("zen", "Sent from refstore's console or API to test this webhook.");
		long id = enqueue(webhook, Notification.of(WebhookEvents.PING, null, actor, details));
		this.dispatcher.nudge();
		return id;
	}

	/** Asks the dispatcher for a pass soon. */
	void nudge() {
		this.dispatcher.nudge();
	}

	/** A job event as a notification, if webhooks tell of it. */
	static Optional<Notification> ofJob(RefJobEvent event) {
		String type;
		if ((event.action() == RefJobEvent.Action.LAUNCH || event.action() == RefJobEvent.Action.RESTART)
				&& event.result() == RefJobEvent.Result.ACCEPTED && event.executionId() != null) {
			type = "job.started";
		}
		else if (event.action() == RefJobEvent.Action.FINISH && event.status() != null) {
			type = (event.status() == JobStatus.COMPLETED) ? "job.finished"
					: (event.status() == JobStatus.STOPPED) ? "job.stopped" : "job.failed";
		}
		else {
			return Optional.empty();
		}
		Map<String, Object> job = new LinkedHashMap<>();
		job.put("type", event.job());
		job.put("execution", event.executionId());
		job.put("status", (event.status() != null) ? event.status().name() : "STARTED");
		if (event.action() == RefJobEvent.Action.FINISH && event.outcome() != null) {
			job.put("outcome", Redaction.message(event.outcome()));
		}
		job.put("parameters", Redaction.parameters(event.parameters()));
		job.put("url", "/jobs/" + event.executionId());
		return Optional.of(new Notification(type, event.time(), event.repository(), event.actor(), Map.of("job", job)));
	}

	private void deliver(Notification notification) {
		try {
			int enqueued = 0;
			for (WebhookStore.WithSecret hook : this.store.wanting(notification.event())) {
				if (wants(hook.webhook(), notification.repository())) {
					enqueue(hook.webhook(), notification);
					enqueued++;
				}
			}
			if (enqueued > 0) {
				this.dispatcher.nudge();
			}
		}
		catch (RuntimeException ex) {
			log.warn("Could not record the webhook deliveries of {}", notification.event(), ex);
		}
	}

	/** Whether {@code webhook} wants the events of {@code repository}. */
	static boolean wants(Webhook webhook, String repository) {
		if (repository == null || webhook.repositories().equals("*")) {
			return true;
		}
		byte[] name = repository.getBytes(StandardCharsets.UTF_8);
		return Wildmatch.matches(webhook.repositories().getBytes(StandardCharsets.UTF_8), name, name.length);
	}

	private long enqueue(Webhook webhook, Notification notification) {
		String guid = UUID.randomUUID().toString();
		Map<String, Object> payload = new LinkedHashMap<>();
		payload.put("event", notification.event());
		payload.put("delivery", guid);
		payload.put("at", notification.at().toString());
		payload.put("repository", notification.repository());
		payload.put("actor", notification.actor());
		payload.putAll(notification.details());
		return this.store.enqueue(webhook.id(), guid, notification.event(), notification.repository(),
				this.json.writeValueAsString(payload));
	}

	/**
	 * Whether a refused node credential comes too soon after the last one (and is counted
	 * as suppressed); otherwise it is let through with the count so far.
	 */
	private boolean quiet(Notification notification) {
		Instant now = notification.at();
		Instant last = this.lastSecurity.get(notification.event());
		AtomicLong counter = this.suppressed.computeIfAbsent(notification.event(), (type) -> new AtomicLong());
		if (last != null && Duration.between(last, now).getSeconds() < SECURITY_QUIET_SECONDS) {
			counter.incrementAndGet();
			return true;
		}
		this.lastSecurity.put(notification.event(), now);
		long left = counter.getAndSet(0);
		if (left > 0) {
			Map<String, Object> details = new LinkedHashMap<>(notification.details());
			details.put("suppressed", left);
			deliver(new Notification(notification.event(), now, notification.repository(), notification.actor(),
					details));
			return true;
		}
		return false;
	}

}
