package io.refstore.core.repo;

import java.util.Locale;

/**
 * Git's rules for reading config values as booleans and integers. Stateless.
 */
final class ConfigValues {

	private static final long KIB = 1024;

	private ConfigValues() {
	}

	static boolean toBoolean(GitConfig.Entry entry) {
		if (entry.value() == null) {
			return true;
		}
		Boolean word = booleanWord(entry.value());
		if (word != null) {
			return word;
		}
		Long number = parseSigned(entry.value());
		// git reads numeric booleans as a C int
		if (number == null || number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
			// git's words, which name no file
			throw new IllegalArgumentException(
					"bad boolean config value '" + entry.value() + "' for '" + entry.name() + "'");
		}
		return number != 0;
	}

	/**
	 * {@code true}/{@code yes}/{@code on}, {@code false}/{@code no}/{@code off}/empty,
	 * else {@code null}.
	 */
	static Boolean booleanWord(String value) {
		String word = value.toLowerCase(Locale.ROOT);
		return switch (word) {
			case "true", "yes", "on" -> Boolean.TRUE;
			case "", "false", "no", "off" -> Boolean.FALSE;
			default -> null;
		};
	}

	/**
	 * A signed number as git's {@code git_config_int64} reads it.
	 * @throws ConfigValueException in git's words, for a malformed value (or none) or one
	 * out of range
	 */
	static long toLong(GitConfig.Entry entry) {
		Long number = (entry.value() != null) ? parseSigned(entry.value()) : null;
		if (number == null || number == Long.MIN_VALUE) {
			throw new ConfigValueException(entry.value(), entry.name(), entry.source(), number != null);
		}
		return number;
	}

	/**
	 * An unsigned number as git's {@code git_config_ulong} reads it: a {@code -} anywhere
	 * makes it malformed.
	 * @throws ConfigValueException in git's words
	 */
	static long toUnsignedLong(GitConfig.Entry entry) {
		if (entry.value() != null && entry.value().indexOf('-') >= 0) {
			throw new ConfigValueException(entry.value(), entry.name(), entry.source(), false);
		}
		return toLong(entry);
	}

	/**
	 * Parses like C's {@code strtoimax(value, &end, 0)} followed by a unit: leading
	 * blanks, a sign, then hex ({@code 0x}), octal (leading {@code 0}) or decimal digits,
	 * then nothing or one of {@code kKmMgG}.
	 * @return the value, {@code null} if malformed, or {@link Long#MIN_VALUE} if out of
	 * range
	 */
	static Long parseSigned(String value) {
		int i = 0;
		while (i < value.length() && isBlank(value.charAt(i))) {
			i++;
		}
		boolean negative = false;
		if (i < value.length() && (value.charAt(i) == '+' || value.charAt(i) == '-')) {
			negative = value.charAt(i++) == '-';
		}
		int radix = 10;
		if (value.startsWith("0x", i) || value.startsWith("0X", i)) {
			if (i + 2 < value.length() && Character.digit(value.charAt(i + 2), 16) >= 0) {
				radix = 16;
				i += 2;
			}
		}
		else if (value.startsWith("0", i)) {
			radix = 8;
		}
		int start = i;
		while (i < value.length() && Character.digit(value.charAt(i), radix) >= 0 && value.charAt(i) < 128) {
			i++;
		}
		if (i == start) {
			return null;
		}
		long factor = unit(value.substring(i));
		if (factor == 0) {
			return null;
		}
		return scale(value.substring(start, i), radix, negative, factor);
	}

	private static Long scale(String digits, int radix, boolean negative, long factor) {
		try {
			long magnitude = Long.parseLong(digits, radix);
			// git allows magnitudes up to Long.MAX_VALUE only, for either sign
			long scaled = Math.multiplyExact(magnitude, factor);
			return negative ? -scaled : scaled;
		}
		catch (NumberFormatException | ArithmeticException ex) {
			return Long.MIN_VALUE;
		}
	}

	private static long unit(String suffix) {
		return switch (suffix) {
			case "" -> 1;
			case "k", "K" -> KIB;
			case "m", "M" -> KIB * KIB;
			case "g", "G" -> KIB * KIB * KIB;
			default -> 0;
		};
	}

	private static boolean isBlank(char c) {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
	}

}
