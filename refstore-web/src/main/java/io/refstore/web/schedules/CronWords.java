package io.refstore.web.schedules;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.quartz.CronExpression;
import org.springframework.stereotype.Component;

/**
 * When a schedule fires, in words, for the console's pages
 * ({@code @cronWords.words(schedule)}): {@code every day at 02:00 UTC},
 * {@code every 15 minutes}, {@code every Monday to Friday at 06:30 Europe/Paris},
 * {@code once at 2026-12-24 06:00 UTC}. No library that does this is at hand (cron-utils
 * is not among the project's dependencies), so this reads the common forms of Quartz's
 * cron (seconds first) itself: fixed times of the day, steps of seconds, minutes and
 * hours, an hour window, days of the week, days of the month and months. Any other form
 * ({@code W}, {@code #}, years, steps that do not start at zero) has no words:
 * {@code null}, and the page shows the expression alone, which it shows beside the words
 * anyway. Stateless and thread-safe.
 */
@Component("cronWords")
public class CronWords {

	private static final DateTimeFormatter ONCE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	private static final String[] DAYS = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
			"Saturday" };

	private static final String[] MONTHS = { "January", "February", "March", "April", "May", "June", "July", "August",
			"September", "October", "November", "December" };

	private static final List<String> DAY_NAMES = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

	private static final List<String> MONTH_NAMES = List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG",
			"SEP", "OCT", "NOV", "DEC");

	/**
	 * A step from the start of the field's range: {@code 0/15} (or with a star) is every
	 * 15.
	 */
	private static final Pattern STEP = Pattern.compile("(?:\\*|0)/(\\d+)");

	private static final Pattern RANGE = Pattern.compile("(\\w+)-(\\w+)");

	/** The schedule's fires in words, or {@code null} for a form this does not read. */
	public String words(Schedule schedule) {
		if (schedule.cron() == null) {
			return (schedule.onceAt() != null) ? once(schedule.onceAt()) : null;
		}
		return words(schedule.cron(), schedule.timeZone());
	}

	/** A one-off fire in words: {@code once at 2026-12-24 06:00 UTC}. */
	public String once(Instant at) {
		return "once at " + ONCE.format(at);
	}

	/**
	 * A Quartz cron expression read in {@code zone}, in words; {@code null} for an
	 * invalid expression or a form this does not read.
	 */
	public String words(String cron, String zone) {
		if (cron == null || !CronExpression.isValidExpression(cron)) {
			return null;
		}
		String[] fields = cron.strip().toUpperCase(Locale.ROOT).split("\\s+");
		if (fields.length == 7 && !any(fields[6])) {
			return null;
		}
		try {
			return describe(fields[0], fields[1], fields[2], days(fields[3], fields[4], fields[5]),
					(zone == null || zone.isBlank()) ? "UTC" : zone.strip());
		}
		catch (Unreadable ex) {
			return null;
		}
	}

	private static String describe(String second, String minute, String hour, Days days, String zone) {
		List<Integer> seconds = numbers(second, 59);
		List<Integer> minutes = numbers(minute, 59);
		List<Integer> hours = numbers(hour, 23);
		// fixed times of the day: 02:00, or 02:00 and 14:30
		if (seconds != null && seconds.size() == 1 && minutes != null && hours != null
				&& minutes.size() * hours.size() <= 6) {
			List<String> times = new ArrayList<>();
			for (int h : hours) {
				for (int m : minutes) {
					times.add(String.format(Locale.ROOT, "%02d:%02d", h, m)
							+ ((seconds.get(0) != 0) ? String.format(Locale.ROOT, ":%02d", seconds.get(0)) : ""));
				}
			}
			return ((days != null) ? days.before() : "every day") + " at " + joined(times) + " " + zone;
		}
		String often = often(second, minute, hour, seconds, minutes, hours, zone);
		return (days != null) ? often + " " + days.after() : often;
	}

	/** How often it fires within a day, and in which hours. */
	private static String often(String second, String minute, String hour, List<Integer> seconds, List<Integer> minutes,
			List<Integer> hours, String zone) {
		if (!any(minute) || !any(hour)) {
			if (any(second) || STEP.matcher(second).matches()) {
				throw new Unreadable();
			}
		}
		if (any(second)) {
			return "every second";
		}
		Integer secondStep = step(second);
		if (secondStep != null) {
			return "every " + secondStep + " seconds";
		}
		if (seconds == null || seconds.size() != 1) {
			throw new Unreadable();
		}
		int at = seconds.get(0);
		if (any(minute) || step(minute) != null) {
			String every = any(minute) ? "every minute" : "every " + step(minute) + " minutes";
			if (at != 0) {
				every = (any(minute) ? "at second " + at + " of every minute"
						: every + " at second " + at + " of the minute");
			}
			return every + hourWindow(hour, hours, zone);
		}
		if (minutes == null || minutes.size() != 1) {
			throw new Unreadable();
		}
		int past = minutes.get(0);
		String every;
		if (any(hour)) {
			every = "every hour";
		}
		else if (step(hour) != null) {
			every = "every " + step(hour) + " hours";
		}
		else if (RANGE.matcher(hour).matches() && hours != null) {
			return String.format(Locale.ROOT, "every hour from %02d:%02d to %02d:%02d %s", hours.get(0), past,
					hours.get(hours.size() - 1), past, zone);
		}
		else {
			throw new Unreadable();
		}
		if (past != 0 || at != 0) {
			every += " at minute " + past + ((at != 0) ? ", second " + at : "");
		}
		return every + ((step(hour) != null) ? String.format(Locale.ROOT, " from 00:%02d %s", past, zone) : "");
	}

	/** The hours a fire every minute or so keeps to: all, or one window of them. */
	private static String hourWindow(String hour, List<Integer> hours, String zone) {
		if (any(hour)) {
			return "";
		}
		if (hours != null && (hours.size() == 1 || RANGE.matcher(hour).matches())) {
			return String.format(Locale.ROOT, " from %02d:00 to %02d:59 %s", hours.get(0), hours.get(hours.size() - 1),
					zone);
		}
		throw new Unreadable();
	}

	/**
	 * Which days, or {@code null} for every day.
	 *
	 * @param before the words before fixed times ({@code every Monday to Friday},
	 * {@code on day 1 of every month}, {@code every day in January})
	 * @param after the words after a frequency ({@code on Monday to Friday},
	 * {@code on day 1 of every month}, {@code in January})
	 */
	private record Days(String before, String after) {
	}

	private static Days days(String dayOfMonth, String month, String dayOfWeek) {
		String months = any(month) ? null : named(month, MONTH_NAMES, 1, MONTHS);
		if (!any(dayOfWeek)) {
			String weekDays = named(dayOfWeek, DAY_NAMES, 1, DAYS) + ((months != null) ? " in " + months : "");
			return new Days("every " + weekDays, "on " + weekDays);
		}
		String ofMonth = (months != null) ? months : "every month";
		if ("L".equals(dayOfMonth)) {
			return new Days("on the last day of " + ofMonth, "on the last day of " + ofMonth);
		}
		if (!any(dayOfMonth)) {
			List<Integer> dates = numbers(dayOfMonth, 31);
			if (dates == null || dates.size() > 4) {
				throw new Unreadable();
			}
			String on = ((dates.size() == 1) ? "on day " : "on days ")
					+ joined(dates.stream().map(String::valueOf).toList()) + " of " + ofMonth;
			return new Days(on, on);
		}
		return (months != null) ? new Days("every day in " + months, "in " + months) : null;
	}

	/**
	 * Days of the week or months as words: one ({@code Monday}), a range
	 * ({@code Monday to Friday}) or a list ({@code Monday, Wednesday and Friday}).
	 * @param first the number of the first name (1 for both: {@code SUN} and {@code JAN})
	 */
	private static String named(String field, List<String> names, int first, String[] words) {
		Matcher range = RANGE.matcher(field);
		if (range.matches()) {
			return words[index(range.group(1), names, first)] + " to " + words[index(range.group(2), names, first)];
		}
		List<String> each = new ArrayList<>();
		for (String part : field.split(",")) {
			each.add(words[index(part, names, first)]);
		}
		return joined(each);
	}

	private static int index(String part, List<String> names, int first) {
		int at = names.indexOf(part);
		if (at >= 0) {
			return at;
		}
		if (part.matches("\\d{1,2}")) {
			int number = Integer.parseInt(part) - first;
			if (number >= 0 && number < names.size()) {
				return number;
			}
		}
		throw new Unreadable();
	}

	/**
	 * The values of a field that lists numbers ({@code 2}, {@code 2,14}, {@code 8-18}),
	 * or {@code null} for one that does not ({@code *}, a step).
	 */
	private static List<Integer> numbers(String field, int max) {
		if (any(field) || field.contains("/")) {
			return null;
		}
		List<Integer> values = new ArrayList<>();
		for (String part : field.split(",")) {
			Matcher range = RANGE.matcher(part);
			if (range.matches() && range.group(1).matches("\\d+") && range.group(2).matches("\\d+")) {
				int from = Integer.parseInt(range.group(1));
				int to = Integer.parseInt(range.group(2));
				if (from > to) {
					throw new Unreadable();
				}
				for (int v = from; v <= to; v++) {
					values.add(v);
				}
			}
			else if (part.matches("\\d{1,2}") && Integer.parseInt(part) <= max) {
				values.add(Integer.parseInt(part));
			}
			else {
				throw new Unreadable();
			}
		}
		return values;
	}

	private static Integer step(String field) {
		Matcher step = STEP.matcher(field);
		if (!step.matches()) {
			return null;
		}
		int every = Integer.parseInt(step.group(1));
		if (every == 0) {
			throw new Unreadable();
		}
		return every;
	}

	private static boolean any(String field) {
		return "*".equals(field) || "?".equals(field);
	}

	/** {@code a}, {@code a and b}, {@code a, b and c}. */
	private static String joined(List<String> items) {
		if (items.size() == 1) {
			return items.get(0);
		}
		return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
	}

	/** A form this does not put in words. */
	private static final class Unreadable extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Unreadable() {
			super(null, null, false, false);
		}

	}

}
