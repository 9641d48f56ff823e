package io.refstore.core.delete;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The times the date criteria of a {@link RefSelection} take: an age counted back from
 * now ({@code 90d}, {@code 12w}, {@code 6m} for months, {@code 1y}), a day
 * ({@code 2026-01-31}, its start in UTC), a moment ({@code 2026-01-31T12:00:00Z} or with
 * an offset) or, as a plan records it once resolved, {@code @<seconds since the epoch>}
 * (git's own notation). A time after now is refused: it would select every dated ref,
 * which is never what a typo meant.
 */
public final class CriterionTime {

	private static final Pattern AGE = Pattern.compile("([0-9]{1,6})([dwmy])");

	private CriterionTime() {
	}

	/**
	 * Reads a time.
	 * @param parameter the criterion's name, for the refusal
	 * @param text the text given
	 * @param now the moment ages count back from
	 * @return seconds since the epoch
	 * @throws InvalidSelectionException naming {@code parameter} if the text is none of
	 * the forms, or after now
	 */
	public static long parse(String parameter, String text, Instant now) {
		String value = text.strip();
		long seconds;
		Matcher age = AGE.matcher(value);
		try {
			if (value.startsWith("@") && value.length() > 1
					&& value.substring(1).chars().allMatch(Character::isDigit)) {
				seconds = Long.parseLong(value.substring(1));
			}
			else if (age.matches()) {
				int n = Integer.parseInt(age.group(1));
				ZonedDateTime from = now.atZone(ZoneOffset.UTC);
				ZonedDateTime back = switch (age.group(2)) {
					case "d" -> from.minusDays(n);
					case "w" -> from.minusWeeks(n);
					case "m" -> from.minusMonths(n);
					default -> from.minusYears(n);
				};
				seconds = back.toEpochSecond();
			}
			else if (value.length() == 10) {
				seconds = LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
			}
			else {
				seconds = OffsetDateTime.parse(value).toEpochSecond();
			}
		}
		catch (DateTimeParseException | NumberFormatException ex) {
			throw new InvalidSelectionException(parameter, text,
					"give an age such as 90d, 12w, 6m or 1y, a day such as 2026-01-31, or a time such as 2026-01-31T12:00:00Z");
		}
		if (seconds > now.getEpochSecond()) {
			throw new InvalidSelectionException(parameter, text, "it is in the future");
		}
		return seconds;
	}

	/** A resolved time as a plan records it: {@code @<seconds>}. */
	static String format(long seconds) {
		return "@" + seconds;
	}

	private static final DateTimeFormatter PEOPLE = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss 'UTC'")
		.withZone(ZoneOffset.UTC);

	/** A time for people: {@code 2026-01-31 12:00:00 UTC}. */
	static String describe(long seconds) {
		return PEOPLE.format(Instant.ofEpochSecond(seconds));
	}

}
