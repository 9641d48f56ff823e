package io.refstore.core.cli.format;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

import io.refstore.core.cli.env.CommandFailure;

/**
 * git's date formats for {@code for-each-ref}'s date atoms ({@code %(authordate:iso)}
 * ...): {@code default}, {@code relative}, {@code short}, {@code local}, {@code iso}
 * ({@code iso8601}), {@code iso-strict}, {@code rfc} ({@code rfc2822}), {@code raw},
 * {@code unix}, {@code human} and {@code format:<strftime>}, each with a {@code -local}
 * variant that shows the time in the local zone ({@code TZ}) instead of the one recorded.
 * Immutable.
 */
final class GitDateFormat {

	private static final String[] DAYS = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };

	/** The widest offset {@link ZoneOffset} takes. */
	private static final int OFFSET_MAX_MINUTES = 18 * 60;

	private static final String[] MONTHS = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
			"Nov", "Dec" };

	private final String mode;

	private final boolean local;

	private final String strftime;

	private GitDateFormat(String mode, boolean local, String strftime) {
		this.mode = mode;
		this.local = local;
		this.strftime = strftime;
	}

	/**
	 * Parses a date atom's argument.
	 * @param arg the argument, or {@code null} for git's default
	 * @throws CommandFailure {@code unknown date format} for anything else
	 */
	static GitDateFormat parse(String arg) throws CommandFailure {
		if (arg == null) {
			return new GitDateFormat("default", false, null);
		}
		if (arg.startsWith("format:") || arg.startsWith("format-local:")) {
			boolean local = arg.startsWith("format-local:");
			return new GitDateFormat("format", local, arg.substring(arg.indexOf(':') + 1));
		}
		boolean local = arg.endsWith("-local");
		String base = local ? arg.substring(0, arg.length() - 6) : arg;
		String mode = switch (base) {
			case "default", "short", "relative", "raw", "unix", "human" -> base;
			case "local" -> local ? null : "local";
			case "iso", "iso8601" -> "iso";
			case "iso-strict", "iso8601-strict" -> "iso-strict";
			case "rfc", "rfc2822" -> "rfc";
			default -> null;
		};
		if (mode == null) {
			throw CommandFailure.fatal("unknown date format " + arg);
		}
		return mode.equals("local") ? new GitDateFormat("default", true, null) : new GitDateFormat(mode, local, null);
	}

	/**
	 * Formats a recorded time.
	 * @param seconds seconds since the epoch
	 * @param zoneMinutes the recorded zone, minutes east of UTC
	 */
	String format(long seconds, int zoneMinutes) {
		if (!this.local && seconds >= 0) {
			String fast = recordedZone(seconds, zoneMinutes);
			if (fast != null) {
				return fast;
			}
		}
		// java.time takes offsets of up to 18 hours; git shows a wider recorded one
		// (+2500)
		// with the time shifted by it, which is done here by hand
		boolean wide = !this.local && Math.abs(zoneMinutes) > OFFSET_MAX_MINUTES;
		ZoneId zone = this.local ? ZoneId.systemDefault()
				: wide ? ZoneOffset.UTC : ZoneOffset.ofTotalSeconds(zoneMinutes * 60);
		ZonedDateTime t = ZonedDateTime.ofInstant(Instant.ofEpochSecond(wide ? seconds + zoneMinutes * 60L : seconds),
				zone);
		int shown = wide ? zoneMinutes : t.getOffset().getTotalSeconds() / 60;
		String tz = offset(shown, false);
		return switch (this.mode) {
			case "unix" -> Long.toString(seconds);
			case "raw" -> seconds + " " + tz;
			case "short" -> date(t);
			case "iso" -> date(t) + " " + time(t) + " " + tz;
			case "iso-strict" -> date(t) + "T" + time(t) + ((shown == 0) ? "Z" : offset(shown, true));
			case "rfc" ->
				day(t) + ", " + t.getDayOfMonth() + " " + month(t) + " " + t.getYear() + " " + time(t) + " " + tz;
			case "relative" -> relative(System.currentTimeMillis() / 1000 - seconds);
			case "human" -> human(t, seconds);
			case "format" -> strftime(this.strftime, t, this.local);
			default -> day(t) + " " + month(t) + " " + t.getDayOfMonth() + " " + time(t) + " " + t.getYear()
					+ (this.local ? "" : " " + tz);
		};
	}

	/**
	 * The formats a listing of many refs prints, in the recorded zone, worked out from
	 * the epoch day and the second of the day into one string: through
	 * {@link ZonedDateTime} they cost several objects and strings per ref, more than
	 * reading the commit.
	 * @return the text, or {@code null} for the other formats
	 */
	private String recordedZone(long seconds, int zoneMinutes) {
		long local = seconds + zoneMinutes * 60L;
		LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(local, 86_400L));
		int second = (int) Math.floorMod(local, 86_400L);
		StringBuilder out = new StringBuilder(32);
		switch (this.mode) {
			case "unix" -> out.append(seconds);
			case "raw" -> zone(out.append(seconds).append(' '), zoneMinutes, false);
			case "short" -> date(out, date);
			case "iso" -> zone(time(date(out, date).append(' '), second).append(' '), zoneMinutes, false);
			case "iso-strict" -> {
				time(date(out, date).append('T'), second);
				if (zoneMinutes == 0) {
					out.append('Z');
				}
				else {
					zone(out, zoneMinutes, true);
				}
			}
			case "rfc" -> zone(time(out.append(DAYS[date.getDayOfWeek().ordinal()])
				.append(", ")
				.append(date.getDayOfMonth())
				.append(' ')
				.append(MONTHS[date.getMonthValue() - 1])
				.append(' ')
				.append(date.getYear())
				.append(' '), second).append(' '), zoneMinutes, false);
			case "default" -> zone(time(out.append(DAYS[date.getDayOfWeek().ordinal()])
				.append(' ')
				.append(MONTHS[date.getMonthValue() - 1])
				.append(' ')
				.append(date.getDayOfMonth())
				.append(' '), second).append(' ').append(date.getYear()).append(' '), zoneMinutes, false);
			default -> {
				return null;
			}
		}
		return out.toString();
	}

	/** {@code YYYY-MM-DD}, the year at least four digits. */
	private static StringBuilder date(StringBuilder out, LocalDate date) {
		int year = date.getYear();
		if (year >= 0 && year <= 9999) {
			two(two(out, year / 100), year % 100);
		}
		else {
			padded(out, year, 4);
		}
		return two(two(out.append('-'), date.getMonthValue()).append('-'), date.getDayOfMonth());
	}

	/** {@code hh:mm:ss} of a second of the day. */
	private static StringBuilder time(StringBuilder out, int second) {
		two(out, second / 3600).append(':');
		return two(two(out, second / 60 % 60).append(':'), second % 60);
	}

	/** {@code +hhmm}, or {@code +hh:mm}. */
	private static StringBuilder zone(StringBuilder out, int minutes, boolean colon) {
		int abs = Math.abs(minutes);
		two(out.append((minutes < 0) ? '-' : '+'), abs / 60);
		return two(colon ? out.append(':') : out, abs % 60);
	}

	/** A number of at least two digits ({@code %02d}) that is not negative. */
	private static StringBuilder two(StringBuilder out, int value) {
		return (value >= 100) ? out.append(value)
				: out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
	}

	private static String day(ZonedDateTime t) {
		return DAYS[t.getDayOfWeek().getValue() - 1];
	}

	private static String month(ZonedDateTime t) {
		return MONTHS[t.getMonthValue() - 1];
	}

	private static String offset(int minutes, boolean colon) {
		return zone(new StringBuilder(6), minutes, colon).toString();
	}

	private static String date(ZonedDateTime t) {
		return date(new StringBuilder(10), t.toLocalDate()).toString();
	}

	private static String time(ZonedDateTime t) {
		return time(new StringBuilder(8), t.toLocalTime().toSecondOfDay()).toString();
	}

	/** Appends {@code value} zero-padded to {@code width}, as {@code %0<width>d}. */
	private static StringBuilder padded(StringBuilder out, long value, int width) {
		String digits = Long.toString(Math.abs(value));
		int pad = width - digits.length() - ((value < 0) ? 1 : 0);
		if (value < 0) {
			out.append('-');
		}
		for (int i = 0; i < pad; i++) {
			out.append('0');
		}
		return out.append(digits);
	}

	/** git's {@code relative} format: the rounded distance from now. */
	static String relative(long diff) {
		if (diff < 0) {
			return "in the future";
		}
		if (diff < 90) {
			return plural(diff, "second") + " ago";
		}
		long minutes = (diff + 30) / 60;
		if (minutes < 90) {
			return plural(minutes, "minute") + " ago";
		}
		long hours = (minutes + 30) / 60;
		if (hours < 36) {
			return plural(hours, "hour") + " ago";
		}
		long days = (hours + 12) / 24;
		if (days < 14) {
			return plural(days, "day") + " ago";
		}
		if (days < 70) {
			return plural((days + 3) / 7, "week") + " ago";
		}
		if (days < 365) {
			return plural((days + 15) / 30, "month") + " ago";
		}
		if (days < 1825) {
			long totalMonths = (days * 12 * 2 + 365) / (365 * 2);
			long years = totalMonths / 12;
			long months = totalMonths % 12;
			return (months != 0) ? plural(years, "year") + ", " + plural(months, "month") + " ago"
					: plural(years, "year") + " ago";
		}
		return plural((days + 183) / 365, "year") + " ago";
	}

	private static String plural(long n, String unit) {
		return n + " " + unit + ((n == 1) ? "" : "s");
	}

	/**
	 * git's {@code human} format: recent dates relative, older ones without what is the
	 * same as today (the year, the zone).
	 */
	private static String human(ZonedDateTime t, long seconds) {
		long now = System.currentTimeMillis() / 1000;
		long diff = now - seconds;
		if (diff >= 0 && diff < 12 * 3600) {
			return relative(diff);
		}
		ZonedDateTime today = ZonedDateTime.now(ZoneId.systemDefault());
		boolean sameZone = today.getOffset().equals(t.getOffset());
		boolean sameYear = today.getYear() == t.getYear();
		if (!sameYear || diff > 365L * 86400) {
			return month(t) + " " + t.getDayOfMonth() + " " + t.getYear();
		}
		String text = (diff < 5L * 86400) ? day(t) + " " + String.format("%02d:%02d", t.getHour(), t.getMinute())
				: day(t) + " " + month(t) + " " + t.getDayOfMonth() + " "
						+ String.format("%02d:%02d", t.getHour(), t.getMinute());
		return sameZone ? text : text + " " + offset(t.getOffset().getTotalSeconds() / 60, false);
	}

	/** The C library's strftime conversions git passes on, in the C locale. */
	static String strftime(String format, ZonedDateTime t, boolean local) {
		StringBuilder out = new StringBuilder();
		for (int i = 0; i < format.length(); i++) {
			char c = format.charAt(i);
			if (c != '%' || i + 1 == format.length()) {
				out.append(c);
				continue;
			}
			char conv = format.charAt(++i);
			switch (conv) {
				case 'a' -> out.append(day(t));
				case 'A' -> out.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ROOT));
				case 'b', 'h' -> out.append(month(t));
				case 'B' -> out.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ROOT));
				case 'c' -> out.append(String.format("%s %s %2d %02d:%02d:%02d %d", day(t), month(t), t.getDayOfMonth(),
						t.getHour(), t.getMinute(), t.getSecond(), t.getYear()));
				case 'C' -> out.append(String.format("%02d", t.getYear() / 100));
				case 'd' -> out.append(String.format("%02d", t.getDayOfMonth()));
				case 'D' -> out
					.append(String.format("%02d/%02d/%02d", t.getMonthValue(), t.getDayOfMonth(), t.getYear() % 100));
				case 'e' -> out.append(String.format("%2d", t.getDayOfMonth()));
				case 'F' ->
					out.append(String.format("%04d-%02d-%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth()));
				case 'H' -> out.append(String.format("%02d", t.getHour()));
				case 'I' -> out.append(String.format("%02d", (t.getHour() + 11) % 12 + 1));
				case 'j' -> out.append(String.format("%03d", t.getDayOfYear()));
				case 'k' -> out.append(String.format("%2d", t.getHour()));
				case 'l' -> out.append(String.format("%2d", (t.getHour() + 11) % 12 + 1));
				case 'm' -> out.append(String.format("%02d", t.getMonthValue()));
				case 'M' -> out.append(String.format("%02d", t.getMinute()));
				case 'n' -> out.append('\n');
				case 'p' -> out.append((t.getHour() < 12) ? "AM" : "PM");
				case 'R' -> out.append(String.format("%02d:%02d", t.getHour(), t.getMinute()));
				case 's' -> out.append(t.toEpochSecond());
				case 'S' -> out.append(String.format("%02d", t.getSecond()));
				case 't' -> out.append('\t');
				case 'T' -> out.append(String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond()));
				case 'u' -> out.append(t.getDayOfWeek().getValue());
				case 'w' -> out.append(t.getDayOfWeek().getValue() % 7);
				case 'y' -> out.append(String.format("%02d", t.getYear() % 100));
				case 'Y' -> out.append(t.getYear());
				case 'z' -> out.append(offset(t.getOffset().getTotalSeconds() / 60, false));
				// git knows no name for a recorded zone; the local one has the C
				// library's
				case 'Z' -> out.append(local ? t.getZone().getDisplayName(TextStyle.SHORT, Locale.ROOT) : "");
				case '%' -> out.append('%');
				default -> out.append('%').append(conv);
			}
		}
		return out.toString();
	}

}
