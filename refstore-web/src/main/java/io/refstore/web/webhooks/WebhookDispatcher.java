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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
 * {@link #nudge()} (each new delivery gives one), a pass claims up to {@code batch} due
 * deliveries no node holds and posts them side by side, each with at most
 * {@code timeout}. A 2xx answer is DELIVERED; any other answer, an error or a timeout
 * waits the back-off and is tried again, up to {@code max-attempts}. Nothing here runs on
 * a job's thread, so no delivery delays a job. The body is the delivery's JSON; the
 * headers are {@code X-Refstore-Event}, {@code X-Refstore-Delivery} (the same on every
 * attempt) and {@code X-Hub-Signature-256} ({@link WebhookSignature}). Redirects are not
 * followed. Counts attempts in {@code refstore.webhook.attempts} by outcome.
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

	/** One pass: claims and sends what is due. */
	void pass() {
		Instant now = Instant.now();
		List<WebhookStore.Due> due = this.store.due(now, this.settings.batch());
		// held long enough for the slowest attempt and its record; a node that dies
		// sending leaves the delivery to another after that
		Instant until = now.plus(this.settings.timeout().multipliedBy(2)).plusSeconds(30);
		List<CompletableFuture<Void>> attempts = new ArrayList<>();
		for (WebhookStore.Due delivery : due) {
			if (this.store.claim(delivery.delivery().id(), this.node, now, until)) {
				attempts.add(attempt(delivery));
			}
		}
		CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new)).join();
		if (due.size() == this.settings.batch()) {
			nudge();
		}
	}

	private CompletableFuture<Void> attempt(WebhookStore.Due due) {
		Delivery delivery = due.delivery();
		Instant start = Instant.now();
		if (!due.active() && !delivery.event().equals(WebhookEvents.PING)) {
			record(delivery, null, "the webhook is switched off", start, true);
			return CompletableFuture.completedFuture(null);
		}
		URI uri = URI.create(due.url());
		String refusal = this.settings.allowLocal() ? null : WebhookTargets.localRefusal(uri);
		if (refusal != null) {
			record(delivery, null, "refused: " + refusal, start, true);
			return CompletableFuture.completedFuture(null);
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
						record(delivery, null, describe(failure), start, false);
					}
					else {
						record(delivery, response.statusCode(), response.body(), start, false);
					}
				}
				catch (RuntimeException ex) {
					log.warn("Could not record the attempt of webhook delivery {}", delivery.id(), ex);
				}
				return null;
			});
	}

	/** Records an attempt; {@code last} makes a failed one final. */
	private void record(Delivery delivery, Integer status, String response, Instant start, boolean last) {
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
