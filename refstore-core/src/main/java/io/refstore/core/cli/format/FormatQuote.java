package io.refstore.core.cli.format;

/**
 * How {@code for-each-ref --shell}, {@code --perl}, {@code --python} and {@code --tcl}
 * quote each value so that the output is a string literal of that language.
 */
enum FormatQuote {

	SHELL, PERL, PYTHON, TCL;

	/** Appends a value (bytes as ISO-8859-1 chars) quoted. */
	void append(StringBuilder out, String value) {
		switch (this) {
			case SHELL -> {
				out.append('\'');
				for (int i = 0; i < value.length(); i++) {
					char c = value.charAt(i);
					if (c == '\'' || c == '!') {
						out.append('\'').append('\\').append(c).append('\'');
					}
					else {
						out.append(c);
					}
				}
				out.append('\'');
			}
			case PERL -> {
				out.append('\'');
				for (int i = 0; i < value.length(); i++) {
					char c = value.charAt(i);
					if (c == '\'' || c == '\\') {
						out.append('\\');
					}
					out.append(c);
				}
				out.append('\'');
			}
			case PYTHON -> {
				out.append('\'');
				for (int i = 0; i < value.length(); i++) {
					char c = value.charAt(i);
					if (c == '\n') {
						out.append("\\n");
						continue;
					}
					if (c == '\'' || c == '\\') {
						out.append('\\');
					}
					out.append(c);
				}
				out.append('\'');
			}
			case TCL -> {
				out.append('"');
				for (int i = 0; i < value.length(); i++) {
					char c = value.charAt(i);
					switch (c) {
						case '[', ']', '{', '}', '$', '\\', '"' -> out.append('\\').append(c);
						case '\f' -> out.append("\\f");
						case '\r' -> out.append("\\r");
						case '\n' -> out.append("\\n");
						case '\t' -> out.append("\\t");
						case 0x0b -> out.append("\\v");
						default -> out.append(c);
					}
				}
				out.append('"');
			}
		}
	}

}
