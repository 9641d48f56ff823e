package io.refstore.web.console.system;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import org.springframework.stereotype.Component;

/**
 * Numbers, sizes, durations and times as the console's templates print them
 * ({@code ${@fmt.bytes(n)}}). Stateless and thread-safe.
 */
@Component("fmt")
public class ConsoleFormat {

	private static final String[] UNITS = { "B", "KiB", "MiB", "GiB", "TiB" };

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT)
		.withZone(ZoneId.systemDefault());

	/** A count with thousands separators: {@code 1,000,000}. */
	public String count(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

	/**
	 * A size in binary units with one decimal: {@code 12.3 MiB}; plain bytes below 1 KiB.
	 */
	public String bytes(long value) {
		if (value < 1024) {
			return value + " B";
		}
		double scaled = value;
		int unit = 0;
		while (scaled >= 1024 && unit < UNITS.length - 1) {
			scaled /= 1024;
			unit++;
		}
		return String.format(Locale.ROOT, "%.1f %s", scaled, UNITS[unit]);
	}

	/**
	 * A duration as {@code 1h 02m 03s}, {@code 2m 03s} or {@code 4.2s}; an empty string
	 * for {@code null}.
	 */
	public String duration(Duration duration) {
		if (duration == null) {
			return "";
		}
		long seconds = duration.getSeconds();
		if (seconds < 60) {
			return String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
		}
		if (seconds < 3600) {
			return String.format(Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
		}
		return String.format(Locale.ROOT, "%dh %02dm %02ds", seconds / 3600, (seconds / 60) % 60, seconds % 60);
	}

	/** A rate of items per second, without decimals above 10: {@code 12,345/s}. */
	public String rate(double perSecond) {
		if (perSecond < 10) {
			return String.format(Locale.ROOT, "%.1f/s", perSecond);
		}
		return String.format(Locale.ROOT, "%,d/s", Math.round(perSecond));
	}

	/** A point in time in the server's zone; an empty string for {@code null}. */
	public String time(Instant instant) {
		return (instant == null) ? "" : TIME.format(instant);
	}

	/** A percentage without decimals, from a fraction in {@code [0, 1]}. */
	public String percent(double fraction) {
		return Math.round(Math.max(0, Math.min(1, fraction)) * 100) + "%";
	}

}
