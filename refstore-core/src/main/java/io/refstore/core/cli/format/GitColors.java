package io.refstore.core.cli.format;

import io.refstore.core.cli.env.CommandFailure;

/**
 * git's color names for {@code %(color:...)}: a foreground and background among
 * {@code normal}, {@code black} ... {@code white} (with {@code bright}), 0-255 or
 * {@code #rrggbb}, attributes ({@code bold}, {@code dim}, {@code italic}, {@code ul},
 * {@code blink}, {@code reverse}, {@code strike}, each with {@code no}), and
 * {@code reset}. Stateless.
 */
final class GitColors {

	private static final String[] NAMES = { "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white" };

	private static final String[] ATTRIBUTES = { "bold", "dim", "italic", "ul", "blink", "", "reverse", "", "strike" };

	private GitColors() {
	}

	/**
	 * The escape sequence for a color description.
	 * @throws CommandFailure {@code unable to parse format} for an unknown word
	 */
	static String parse(String value) throws CommandFailure {
		if (value.equals("reset")) {
			return "\033[m";
		}
		StringBuilder codes = new StringBuilder();
		int colors = 0;
		for (String word : value.strip().split("\\s+")) {
			if (word.isEmpty()) {
				continue;
			}
			String code = color(word, colors == 0);
			if (code != null) {
				colors++;
				if (colors > 2) {
					throw bad(value);
				}
				append(codes, code);
				continue;
			}
			code = attribute(word);
			if (code == null) {
				throw bad(value);
			}
			append(codes, code);
		}
		return (codes.length() == 0) ? "" : "\033[" + codes + "m";
	}

	private static void append(StringBuilder codes, String code) {
		if (!code.isEmpty()) {
			if (codes.length() > 0) {
				codes.append(';');
			}
			codes.append(code);
		}
	}

	private static String color(String word, boolean foreground) {
		int base = foreground ? 30 : 40;
		if (word.equals("normal")) {
			return "";
		}
		if (word.equals("default")) {
			return Integer.toString(base + 9);
		}
		boolean bright = word.startsWith("bright");
		String name = bright ? word.substring(6) : word;
		for (int i = 0; i < NAMES.length; i++) {
			if (NAMES[i].equals(name)) {
				return Integer.toString((bright ? base + 60 : base) + i);
			}
		}
		if (word.matches("#[0-9a-fA-F]{6}")) {
			return (base + 8) + ";2;" + Integer.parseInt(word.substring(1, 3), 16) + ";"
					+ Integer.parseInt(word.substring(3, 5), 16) + ";" + Integer.parseInt(word.substring(5, 7), 16);
		}
		if (word.matches("-?[0-9]+")) {
			int n = Integer.parseInt(word);
			if (n == -1) {
				return "";
			}
			if (n >= 0 && n < 8) {
				return Integer.toString(base + n);
			}
			if (n >= 0 && n < 256) {
				return (base + 8) + ";5;" + n;
			}
		}
		return null;
	}

	private static String attribute(String word) {
		boolean negate = word.startsWith("no");
		String name = negate ? word.substring(word.startsWith("no-") ? 3 : 2) : word;
		if (name.equals("underline")) {
			name = "ul";
		}
		for (int i = 0; i < ATTRIBUTES.length; i++) {
			if (!ATTRIBUTES[i].isEmpty() && ATTRIBUTES[i].equals(name)) {
				int code = i + 1;
				return Integer.toString(negate ? ((code == 1) ? 22 : 20 + code) : code);
			}
		}
		return null;
	}

	private static CommandFailure bad(String value) {
		return CommandFailure
			.error("invalid color value: " + value + "\nfatal: unrecognized color: %(color:" + value + ")", 128);
	}

}
