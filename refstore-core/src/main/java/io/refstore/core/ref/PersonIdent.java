package io.refstore.core.ref;

import java.util.Objects;

/**
 * Who made a ref update and when, as recorded in a reflog entry.
 *
 * @param name the committer's name
 * @param email the e-mail address, without angle brackets
 * @param epochSeconds seconds since the epoch
 * @param tzOffset the time zone as git writes it, read as a signed decimal {@code HHMM}
 * number: {@code +0530} is 530, {@code -0800} is -800 (this is also how git's reftable
 * backend stores it)
 */
public record PersonIdent(String name, String email, long epochSeconds, int tzOffset) {

	public PersonIdent {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(email, "email");
	}

	/** The time zone as git prints it, such as {@code +0530} or {@code -0800}. */
	public String tzText() {
		// by hand, not String.format: a reflog line is written with it, and a million
		// lines spent 12% of a migration to files in the formatter
		String digits = Long.toString(Math.abs((long) this.tzOffset));
		StringBuilder text = new StringBuilder(5).append((this.tzOffset < 0) ? '-' : '+');
		for (int i = digits.length(); i < 4; i++) {
			text.append('0');
		}
		return text.append(digits).toString();
	}

	/** The time zone offset in minutes east of UTC. */
	public int tzMinutes() {
		int abs = Math.abs(this.tzOffset);
		int minutes = (abs / 100) * 60 + abs % 100;
		return (this.tzOffset < 0) ? -minutes : minutes;
	}

	/**
	 * Parses git's {@code +HHMM} or {@code -HHMM} time zone text.
	 * @throws IllegalArgumentException if the text is not a sign followed by four digits
	 */
	public static int parseTz(String text) {
		if (text.length() != 5 || (text.charAt(0) != '+' && text.charAt(0) != '-')) {
			throw new IllegalArgumentException("not a time zone offset: '" + text + "'");
		}
		int value = 0;
		for (int i = 1; i < 5; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				throw new IllegalArgumentException("not a time zone offset: '" + text + "'");
			}
			value = value * 10 + (c - '0');
		}
		return (text.charAt(0) == '-') ? -value : value;
	}

}
