package io.refstore.web.retention;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long the application keeps what it records, {@code refstore.retention.*}: the audit
 * log, the inventory history, the job history, the schedules' runs and the webhooks'
 * deliveries, each by age and by count (either unset: no limit; application.yml sets the
 * defaults below), and how often the sweep runs. The ref journal has its own
 * ({@code refstore.journal.retention.*}).
 *
 * @param audit the audit log's entries (default: 400 days)
 * @param inventory the inventory history, all repositories together (default: 400 days)
 * @param jobs the job history, in job instances (default: 180 days since they ended)
 * @param scheduleRuns the schedules' runs (default: 90 days)
 * @param webhookDeliveries the webhooks' deliveries (default: 30 days)
 * @param interval how long the sweep waits between rounds (default 1h; 0 turns it off)
 */
@ConfigurationProperties("refstore.retention")
public record RetentionProperties(@DefaultValue Limits audit, @DefaultValue Limits inventory, @DefaultValue Limits jobs,
		@DefaultValue Limits scheduleRuns, @DefaultValue Limits webhookDeliveries,
		@DefaultValue("1h") Duration interval) {

	public RetentionProperties {
		if (interval.isNegative()) {
			throw new IllegalArgumentException("refstore.retention.interval must not be negative: " + interval);
		}
	}

	/**
	 * What one kind keeps.
	 *
	 * @param maxAge how old its rows may be, or {@code null} for no limit
	 * @param maxCount how many of its rows are kept, or {@code null} for no limit
	 */
	public record Limits(Duration maxAge, Long maxCount) {

		public Limits {
			if (maxAge != null && (maxAge.isNegative() || maxAge.isZero())) {
				throw new IllegalArgumentException("a retention's max-age must be positive: " + maxAge);
			}
			if (maxCount != null && maxCount < 1) {
				throw new IllegalArgumentException("a retention's max-count must be at least 1: " + maxCount);
			}
		}

	}

}
