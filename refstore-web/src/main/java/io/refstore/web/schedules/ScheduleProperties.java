package io.refstore.web.schedules;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The schedules' settings, {@code refstore.schedules.*}.
 *
 * @param minInterval the shortest time a schedule's cron may leave between two fires
 * (default one minute): a schedule firing more often is refused, so that nobody can
 * launch a job over a whole fleet every second
 */
@ConfigurationProperties("refstore.schedules")
public record ScheduleProperties(Duration minInterval) {

	/** The default minimum interval. */
	public static final Duration DEFAULT_MIN_INTERVAL = Duration.ofMinutes(1);

	public ScheduleProperties {
		minInterval = (minInterval == null) ? DEFAULT_MIN_INTERVAL : minInterval;
		if (minInterval.isNegative()) {
			throw new IllegalArgumentException("refstore.schedules.min-interval must not be negative: " + minInterval);
		}
	}

}
