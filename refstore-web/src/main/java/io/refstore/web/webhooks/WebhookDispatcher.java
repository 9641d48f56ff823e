package io.refstore.web.webhooks;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.net.ssl.SSLException;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.RefJobs;
import io.refstore.web.system.Passes;

/**
 * Sends the due deliveries: every {@code refstore.webhooks.poll}, and soon after a
 * {@link #nudge()} (each new delivery gives one), a pass takes up to {@code batch} due
 * deliveries no node holds and posts them, each with at most {@code timeout}: the
 * webhooks side by side, and each webhook's in the order of their events while its
 * receiver accepts them (a delivery being tried again may come after later ones, as with
 * GitHub's webhooks; the payload's time orders them). A 2xx answer is DELIVERED; any
 * other answer, an error or a timeout waits the back-off and is tried again, up to
 * {@code max-attempts}. Nothing here runs on a job's thread, so no delivery delays a job.
 * The body is the delivery's JSON; the headers are {@code X-Refstore-Event},
 * {@code X-Refstore-Delivery} (the same on every attempt) and {@code X-Hub-Signature-256}
 * ({@link WebhookSignature}). Redirects are not followed. Counts attempts in
 * {@code refstore.webhook.attempts} by outcome.
 */
@Component
class WebhookDispatcher implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(WebhookDispatcher.class);

	/** How much of an answer's body is kept for the delivery log. */
	private static final int EXCERPT = 1024;

	private final WebhookStore store;

	private final WebhookProperties settings;

	private final String node;

	private final String userAgent;

	private final HttpClient http;

	private final Passes passes;

	private final MeterRegistry meters;

	WebhookDispatcher(WebhookStore store, WebhookProperties settings, RefJobs jobs, TaskScheduler scheduler,
			ObjectProvider<BuildProperties> build, MeterRegistry meters) {
		this.store = store;
		this.settings = settings;
		this.node = jobs.instanceId();
		BuildProperties properties = build.getIfAvailable();
		this.userAgent = "refstore-webhooks/" + ((properties != null) ? properties.getVersion() : "dev");
		this.http = HttpClient.newBuilder()
			.connectTimeout(settings.timeout())
			.followRedirects(HttpClient.Redirect.NEVER)
			.build();
		this.passes = new Passes("webhooks", settings.poll(), this::pass, scheduler);
		this.meters = meters;
	}

	@Override
	public void start() {
		this.passes.start();
	}

	@Override
	public void stop() {
		this.passes.stop();
	}

	@Override
	public boolean isRunning() {
		return this.passes.isRunning();
	}

	/** Asks for a pass soon, off the caller's thread. */
	void nudge() {
		this.passes.nudge();
	}

	/**
	 * One pass: sends what is due, each webhook's deliveries one after another in the
	 * order of their events and the webhooks side by side. A webhook's run stops at an
	 * attempt that fails, or once the pass has run for {@code timeout}: what is left
	 * stays due for the next pass, which comes at once.
	 */
	void pass() {
		Instant start = Instant.now();
		List<WebhookStore.Due> due = this.store.due(start, this.settings.batch());
		Map<Long, List<WebhookStore.Due>> byWebhook = new LinkedHashMap<>();
		for (WebhookStore.Due delivery : due) {
			byWebhook.computeIfAbsent(delivery.delivery().webhookId(), (id) -> new ArrayList<>()).add(delivery);
		}
		Instant end = start.plus(this.settings.timeout());
		AtomicBoolean left = new AtomicBoolean(due.size() == this.settings.batch());
		List<CompletableFuture<Void>> runs = new ArrayList<>();
		for (List<WebhookStore.Due> deliveries : byWebhook.values()) {
			runs.add(send(deliveries.iterator(), end, left));
		}
		CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).join();
		if (left.get()) {
			nudge();
		}
	}

	/**
	 * Sends the next of one webhook's deliveries, then the one after while they succeed.
	 */
	private CompletableFuture<Void> send(Iterator<WebhookStore.Due> deliveries, Instant end, AtomicBoolean left) {
		if (!deliveries.hasNext()) {
			return CompletableFuture.completedFuture(null);
		}
		if (Instant.now().isAfter(end)) {
			left.set(true);
			return CompletableFuture.completedFuture(null);
		}
		WebhookStore.Due delivery = deliveries.next();
		Instant now = Instant.now();
		// held long enough for the slowest attempt and its record; a node that dies
		// sending leaves the delivery to another after that
		Instant until = now.plus(this.settings.timeout().multipliedBy(2)).plusSeconds(30);
		if (!this.store.claim(delivery.delivery().id(), this.node, now, until)) {
			return send(deliveries, end, left);
		}
		return attempt(delivery).thenCompose((delivered) -> {
			if (!delivered) {
				left.set(left.get() || deliveries.hasNext());
				return CompletableFuture.completedFuture(null);
			}
			return send(deliveries, end, left);
		});
	}

	/** One attempt at a claimed delivery: true if it was delivered. */
	private CompletableFuture<Boolean> attempt(WebhookStore.Due due) {
		Delivery delivery = due.delivery();
		Instant start = Instant.now();
		if (!due.active() && !delivery.event().equals(WebhookEvents.PING)) {
			record(delivery, null, "the webhook is switched off", start, true);
			return CompletableFuture.completedFuture(true);
		}
		URI uri = URI.create(due.url());
		String refusal = this.settings.allowLocal() ? null : WebhookTargets.localRefusal(uri);
		if (refusal != null) {
			record(delivery, null, "refused: " + refusal, start, true);
			return CompletableFuture.completedFuture(true);
		}
		byte[] body = delivery.payload().getBytes(StandardCharsets.UTF_8);
		HttpRequest request = HttpRequest.newBuilder(uri)
			.timeout(this.settings.timeout())
			.header("Content-Type", "application/json")
			.header("User-Agent", this.userAgent)
			.header("X-Refstore-Event", delivery.event())
			.header("X-Refstore-Delivery", delivery.guid())
			.header(WebhookSignature.HEADER, WebhookSignature.of(due.secret(), body))
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build();
		return this.http.sendAsync(request, (info) -> new Excerpt())
			.orTimeout(this.settings.timeout().toMillis() * 2, TimeUnit.MILLISECONDS)
			.handle((response, failure) -> {
				try {
					if (failure != null) {
						return record(delivery, null, describe(failure), start, false);
					}
					return record(delivery, response.statusCode(), response.body(), start, false);
				}
				catch (RuntimeException ex) {
					log.warn("Could not record the attempt of webhook delivery {}", delivery.id(), ex);
					return false;
				}
			});
	}

	/**
	 * Records an attempt; {@code last} makes a failed one final. True if it was
	 * delivered.
	 */
	private boolean record(Delivery delivery, Integer status, String response, Instant start, boolean last) {
		Instant now = Instant.now();
		int attempts = delivery.attempts() + 1;
		boolean delivered = status != null && status >= 200 && status < 300;
		Delivery.State state = delivered ? Delivery.State.DELIVERED
				: (last || attempts >= this.settings.maxAttempts()) ? Delivery.State.FAILED : Delivery.State.PENDING;
		Instant next = (state == Delivery.State.PENDING) ? now.plus(this.settings.backoffAfter(attempts)) : null;
		this.store.attempted(delivery.id(), this.node, state, next, status, response,
				Duration.between(start, now).toMillis(), start);
		String outcome = delivered ? "delivered" : (state == Delivery.State.FAILED) ? "failed" : "retry";
		Counter.builder("refstore.webhook.attempts")
			.description("Webhook delivery attempts, by outcome: delivered (2xx), retry (tried again later), failed"
					+ " (the last)")
			.tag("outcome", outcome)
			.register(this.meters)
			.increment();
		if (!delivered) {
			log.info("Webhook delivery {} ({}) attempt {}: {} {}", delivery.id(), delivery.event(), attempts,
					(status != null) ? status : "no answer", (state == Delivery.State.FAILED) ? "(gave up)" : "");
		}
		return delivered;
	}

	/** What stopped an attempt, in words without class names. */
	private String describe(Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
			return "no answer within " + this.settings.timeout().toMillis() + " ms";
		}
		if (cause instanceof ConnectException) {
			return "could not connect";
		}
		if (cause instanceof SSLException) {
			return "TLS failed" + ((cause.getMessage() != null) ? ": " + cause.getMessage() : "");
		}
		if (cause instanceof IOException) {
			return "connection failed" + ((cause.getMessage() != null) ? ": " + cause.getMessage() : "");
		}
		return "failed";
	}

	/**
	 * An answer's body up to {@value #EXCERPT} bytes, as text: the rest is not read (the
	 * stream is cancelled), so an endless answer costs nothing.
	 */
	private static final class Excerpt implements HttpResponse.BodySubscriber<String> {

		private final CompletableFuture<String> body = new CompletableFuture<>();

		private final ByteBuffer kept = ByteBuffer.allocate(EXCERPT);

		private Flow.Subscription subscription;

		@Override
		public CompletionStage<String> getBody() {
			return this.body;
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			this.subscription = subscription;
			subscription.request(1);
		}

		@Override
		public void onNext(List<ByteBuffer> buffers) {
			for (ByteBuffer buffer : buffers) {
				int n = Math.min(buffer.remaining(), this.kept.remaining());
				this.kept.put(buffer.slice(buffer.position(), n));
			}
			if (this.kept.hasRemaining()) {
				this.subscription.request(1);
			}
			else {
				this.subscription.cancel();
				onComplete();
			}
		}

		@Override
		public void onError(Throwable failure) {
			onComplete();
		}

		@Override
		public void onComplete() {
			this.body.complete(new String(this.kept.array(), 0, this.kept.position(), StandardCharsets.UTF_8));
		}

	}

}
