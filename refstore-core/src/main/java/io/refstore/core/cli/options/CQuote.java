package io.refstore.core.cli.options;

import java.io.ByteArrayOutputStream;

/**
 * git's C-style quoting of fields: {@code "..."} with the escapes
 * {@code \\ \" \a \b \f \n \r \t \v} and three octal digits {@code \000}-{@code \377}.
 * Stateless and thread-safe.
 */
final class CQuote {

	/**
	 * An unquoted field.
	 *
	 * @param bytes the field's bytes
	 * @param end the index just after the closing quote
	 */
	record Unquoted(byte[] bytes, int end) {
	}

	private CQuote() {
	}

	/**
	 * Unquotes the field starting with the double quote at {@code buf[start]}.
	 * @param buf the text
	 * @param start the index of the opening quote
	 * @param limit the end of the text
	 * @return the field, or {@code null} if the quoting is bad (unknown escape, no
	 * closing quote, a NUL inside)
	 */
	static Unquoted unquote(byte[] buf, int start, int limit) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int i = start + 1;
		while (i < limit) {
			byte c = buf[i++];
			if (c == '"') {
				return new Unquoted(out.toByteArray(), i);
			}
			if (c == 0) {
				return null;
			}
			if (c != '\\') {
				out.write(c);
				continue;
			}
			if (i == limit) {
				return null;
			}
			byte e = buf[i++];
			int decoded = escape(e);
			if (decoded >= 0) {
				out.write(decoded);
			}
			else if (e >= '0' && e <= '3' && i + 1 < limit && isOctal(buf[i]) && isOctal(buf[i + 1])) {
				out.write(((e - '0') << 6) | ((buf[i] - '0') << 3) | (buf[i + 1] - '0'));
				i += 2;
			}
			else {
				return null;
			}
		}
		return null;
	}

	private static int escape(byte e) {
		return switch (e) {
			case '\\', '"' -> e;
			case 'a' -> 0x07;
			case 'b' -> 0x08;
			case 'f' -> 0x0c;
			case 'n' -> 0x0a;
			case 'r' -> 0x0d;
			case 't' -> 0x09;
			case 'v' -> 0x0b;
			default -> -1;
		};
	}

	private static boolean isOctal(byte b) {
		return b >= '0' && b <= '7';
	}

}
