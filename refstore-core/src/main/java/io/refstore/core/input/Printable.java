package io.refstore.core.input;

/**
 * Text a user gave, made safe to show: control characters become {@code \xNN} escapes, so
 * that a refused value cannot garble a log line, a message or a page.
 */
public final class Printable {

	private Printable() {
	}

	/** {@code value} with control characters escaped; {@code "null"} for {@code null}. */
	public static String of(String value) {
		if (value == null) {
			return "null";
		}
		StringBuilder out = new StringBuilder(value.length());
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x20 || c == 0x7f) {
				out.append(String.format("\\x%02x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

}
