package io.refstore.web.jobs;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A count a user types to confirm a destructive action, read as they read it on the page:
 * the console shows {@code 18,373}, so {@code 18,373} is accepted, and so are
 * {@code 18373} and the groupings other locales write ({@code 18 373} with a space, a
 * no-break or a thin space, {@code 18'373}). A grouping is accepted only when it is
 * regular (one separator, groups of three), so that {@code 1,8373} is not read as 18,373.
 * A period is never a separator, since it reads as a decimal point to most users.
 */
final class TypedCount {

	private static final Pattern GROUPED = Pattern
		.compile("\\d+|\\d{1,3}([,' \u00a0\u2009\u202f])\\d{3}(?:\\1\\d{3})*");

	private TypedCount() {
	}

	/**
	 * Whether {@code typed} (surrounding whitespace ignored) is {@code count}.
	 * @param typed what the user typed, possibly {@code null}
	 */
	static boolean confirms(String typed, long count) {
		if (typed == null) {
			return false;
		}
		String stripped = typed.strip();
		if (!GROUPED.matcher(stripped).matches()) {
			return false;
		}
		String digits = stripped.replaceAll("\\D", "");
		return digits.length() <= 18 && Long.parseLong(digits) == count;
	}

	/** The count as the console shows it: {@code 18,373}. */
	static String shown(long count) {
		return String.format(Locale.ROOT, "%,d", count);
	}

}
