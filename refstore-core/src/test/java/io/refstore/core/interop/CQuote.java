package io.refstore.core.interop;

import java.nio.charset.StandardCharsets;

/**
 * Git's C-style quoting of an argument ({@code "refs/heads/\303\274"}), which
 * {@code update-ref --stdin} accepts in its text form. Stateless.
 */
final class CQuote {

	private CQuote() {
	}

	/**
	 * Quotes every byte outside printable ASCII as an octal escape, and {@code "} and
	 * {@code \} by a backslash.
	 */
	static String quote(String value) {
		StringBuilder quoted = new StringBuilder("\"");
		for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
			int c = b & 0xff;
			if (c == '"' || c == '\\') {
				quoted.append('\\').append((char) c);
			}
			else if (c == '\t') {
				quoted.append("\\t");
			}
			else if (c == '\n') {
				quoted.append("\\n");
			}
			else if (c < 0x20 || c >= 0x7f) {
				quoted.append('\\').append(String.format("%03o", c));
			}
			else {
				quoted.append((char) c);
			}
		}
		return quoted.append('"').toString();
	}

}
