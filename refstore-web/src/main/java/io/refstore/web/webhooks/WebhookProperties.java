package io.refstore.web.webhooks;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How webhooks are delivered, {@code refstore.webhooks.*}.
 *
 * @param poll how often a node looks for due deliveries besides the nudge every new one
 * gives (default 5s)
 * @param timeout how long one attempt may take, connection included (default 10s)
 * @param maxAttempts attempts before a delivery is FAILED (default 8)
 * @param backoff the wait after the first failed attempt, doubled after each next one
 * (default 30s)
 * @param maxBackoff the longest wait between attempts (default 1h)
 * @param allowLocal whether a webhook may reach a loopback, private or link-local address
 * (default {@code false}: an administrator's URL cannot probe the servers around
 * refstore)
 * @param batch the most deliveries one pass of a node sends side by side (default 20)
 */
@ConfigurationProperties("refstore.webhooks")
public record WebhookProperties(@DefaultValue("5s") Duration poll, @DefaultValue("10s") Duration timeout,
		@DefaultValue("8") int maxAttempts, @DefaultValue("30s") Duration backoff,
		@DefaultValue("1h") Duration maxBackoff, @DefaultValue("false") boolean allowLocal,
		@DefaultValue("20") int batch) {

	public WebhookProperties {
		if (poll.isNegative() || poll.isZero() || timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("refstore.webhooks.poll and .timeout must be positive");
		}
		if (maxAttempts < 1 || batch < 1) {
			throw new IllegalArgumentException("refstore.webhooks.max-attempts and .batch must be at least 1");
		}
		if (backoff.isNegative() || maxBackoff.compareTo(backoff) < 0) {
			throw new IllegalArgumentException("refstore.webhooks.backoff must be >= 0 and <= max-backoff");
		}
	}

	/** The wait after the {@code attempts}-th failed attempt. */
	Duration backoffAfter(int attempts) {
		Duration wait = this.backoff;
		for (int i = 1; i < attempts && wait.compareTo(this.maxBackoff) < 0; i++) {
			wait = wait.multipliedBy(2);
		}
		return (wait.compareTo(this.maxBackoff) > 0) ? this.maxBackoff : wait;
	}

}
