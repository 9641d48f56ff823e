package io.refstore.core.repo;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the date formats git accepts in {@code GIT_COMMITTER_DATE} and
 * {@code GIT_AUTHOR_DATE}: git's internal {@code <seconds> <tz>} (optionally with a
 * leading {@code @}; {@code @<seconds>} and a number of nine or more digits alone are
 * seconds shown in the local zone), ISO 8601 ({@code 2005-04-07T22:13:13+0200},
 * {@code 2005-04-07 22:13:13 +02:00}) and RFC 2822
 * ({@code Thu, 07 Apr 2005 22:13:13 +0200}); zones may also be written {@code +02:00},
 * {@code +02}, {@code Z}, {@code UTC} or {@code GMT}. A date without a zone is read in
 * the local zone. Stricter than git: its "approxidate" forms ({@code yesterday}) are
 * refused, and so are impossible dates ({@code 2005-02-30}, hour 25, zone {@code +0260})
 * that git silently bends into something else. Stateless.
 */
final class GitDates {

	/** A point in time with the zone offset to show it in. */
	record Stamp(long epochSeconds, int tzOffset) {
	}

	private static final String TZ = "(?<tz>Z|UTC|GMT|UT|[+-]\\d{2}(?::?\\d{2})?)";

	private static final Pattern RAW = Pattern.compile("(?<at>@)?(?<secs>\\d+)(?:\\s+(?<tz>[+-]\\d{4}))?");

	private static final Pattern ISO = Pattern.compile("(?<y>\\d{4})-(?<mo>\\d{2})-(?<d>\\d{2})[T ](?<h>\\d{2}):"
			+ "(?<mi>\\d{2})(?::(?<s>\\d{2})(?:\\.\\d+)?)?\\s*" + TZ + "?");

	private static final Pattern RFC2822 = Pattern.compile("(?:(?<dow>[A-Za-z]{3}),?\\s+)?(?<d>\\d{1,2})\\s+"
			+ "(?<mo>[A-Za-z]{3})\\s+(?<y>\\d{4})\\s+(?<h>\\d{1,2}):(?<mi>\\d{2})(?::(?<s>\\d{2}))?\\s*" + TZ + "?");

	private static final String MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec";

	private GitDates() {
	}

	/**
	 * Parses a date.
	 * @param variable the environment variable the text came from, for messages
	 * @param text the value
	 * @param env the environment, whose {@code TZ} gives the local zone (the JVM's zone
	 * if unset or unknown)
	 * @return the time and zone
	 * @throws IllegalArgumentException naming the variable and value if the text is not a
	 * supported date
	 */
	static Stamp parse(String variable, String text, Map<String, String> env) {
		String value = text.strip();
		try {
			Matcher m = RAW.matcher(value);
			// without '@', a number is taken as seconds only if it is too large to be a
			// date part, as git does
			if (m.matches() && (m.group("at") != null || Long.parseLong(m.group("secs")) >= 100_000_000L)) {
				long seconds = Long.parseLong(m.group("secs"));
				int tz = (m.group("tz") != null) ? checkedTz(m.group("tz"))
						: toHhmm(localZone(env).getRules().getOffset(Instant.ofEpochSecond(seconds)));
				return new Stamp(seconds, tz);
			}
			m = ISO.matcher(value);
			if (m.matches()) {
				return civil(m, Integer.parseInt(m.group("mo")), env);
			}
			m = RFC2822.matcher(value);
			if (m.matches()) {
				int month = MONTHS.indexOf(m.group("mo").toLowerCase(Locale.ROOT));
				if (month >= 0 && month % 4 == 0) {
					return civil(m, month / 4 + 1, env);
				}
			}
		}
		catch (DateTimeException | NumberFormatException ex) {
			throw bad(variable, text, ex.getMessage());
		}
		throw bad(variable, text, "expected '@<seconds> <+hhmm>', ISO 8601 or RFC 2822");
	}

	private static Stamp civil(Matcher m, int month, Map<String, String> env) {
		String seconds = m.group("s");
		LocalDateTime local = LocalDateTime.of(Integer.parseInt(m.group("y")), month, Integer.parseInt(m.group("d")),
				Integer.parseInt(m.group("h")), Integer.parseInt(m.group("mi")),
				(seconds != null) ? Integer.parseInt(seconds) : 0);
		String tz = m.group("tz");
		ZoneOffset offset = (tz != null) ? offsetOf(tz) : localZone(env).getRules().getOffset(local);
		return new Stamp(local.toEpochSecond(offset), toHhmm(offset));
	}

	private static ZoneOffset offsetOf(String tz) {
		if (Character.isLetter(tz.charAt(0))) {
			return ZoneOffset.UTC;
		}
		String digits = tz.substring(1).replace(":", "");
		int hours = Integer.parseInt(digits.substring(0, 2));
		int minutes = (digits.length() > 2) ? Integer.parseInt(digits.substring(2)) : 0;
		if (minutes > 59) {
			throw new DateTimeException("bad time zone '" + tz + "'");
		}
		int sign = (tz.charAt(0) == '-') ? -1 : 1;
		return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
	}

	private static int checkedTz(String tz) {
		offsetOf(tz);
		return Integer.parseInt(tz);
	}

	/** A zone offset as git's signed decimal {@code HHMM} number. */
	static int toHhmm(ZoneOffset offset) {
		int total = offset.getTotalSeconds() / 60;
		int abs = Math.abs(total);
		int hhmm = (abs / 60) * 100 + abs % 60;
		return (total < 0) ? -hhmm : hhmm;
	}

	/** The zone named by {@code TZ} in the environment, else the JVM's default zone. */
	static ZoneId localZone(Map<String, String> env) {
		String tz = env.get("TZ");
		if (tz != null && !tz.isBlank()) {
			try {
				return ZoneId.of(tz.startsWith(":") ? tz.substring(1) : tz);
			}
			catch (DateTimeException ex) {
				// POSIX rules such as EST5EDT are not all known to java.time: fall back
				// like an unset TZ
			}
		}
		return ZoneId.systemDefault();
	}

	private static IllegalArgumentException bad(String variable, String text, String reason) {
		return new IllegalArgumentException("invalid date format in " + variable + ": '" + text + "' (" + reason + ")");
	}

}
