package io.refstore.core.input;

/**
 * Text a user gave, made safe to show: control characters become {@code \xNN} escapes, so
 * that a refused value cannot garble a log line, a message or a page; and, for messages,
 * an excerpt of bounded length, so that a refused megabyte is neither stored nor echoed
 * whole.
 */
public final class Printable {

	/** The most characters of a value that {@link #excerpt} keeps. */
	public static final int EXCERPT = 200;

	private Printable() {
	}

	/**
	 * {@code value} as {@link #of} makes it, cut after its first {@value #EXCERPT}
	 * characters (escapes counted as they are shown) with an ellipsis and the number of
	 * characters cut: {@code abc… (1048376 more characters)}; {@code "null"} for
	 * {@code null}.
	 */
	public static String excerpt(String value) {
		if (value == null) {
			return "null";
		}
		StringBuilder out = new StringBuilder(Math.min(value.length(), EXCERPT) + 32);
		int i = 0;
		while (i < value.length() && out.length() < EXCERPT) {
			append(out, value.charAt(i++));
		}
		if (i < value.length()) {
			out.append("… (").append(value.length() - i).append(" more characters)");
		}
		return out.toString();
	}

	/** {@code value} with control characters escaped; {@code "null"} for {@code null}. */
	public static String of(String value) {
		if (value == null) {
			return "null";
		}
		StringBuilder out = new StringBuilder(value.length());
		for (int i = 0; i < value.length(); i++) {
			append(out, value.charAt(i));
		}
		return out.toString();
	}

	private static void append(StringBuilder out, char c) {
		if (c < 0x20 || c == 0x7f) {
			out.append(String.format("\\x%02x", (int) c));
		}
		else {
			out.append(c);
		}
	}

}
