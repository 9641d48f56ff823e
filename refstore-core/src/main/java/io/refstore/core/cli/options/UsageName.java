package io.refstore.core.cli.options;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The name usage texts give the command. They are written for {@code refstore}; a wrapper
 * that stands in for another command names that one in {@value #VARIABLE} (git's test
 * scripts, run through a {@code git} that calls refstore, read
 * {@code usage: git for-each-ref}). The synopsis lines are renamed and their continuation
 * lines moved to stay under the options they continue.
 */
public final class UsageName {

	/** The environment variable naming the command in usage texts. */
	static final String VARIABLE = "REFSTORE_USAGE_NAME";

	private static final String OWN = "refstore";

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	/** How a synopsis line opens: {@code usage: } or {@code    or: }. */
	private static final int LEAD = "usage: ".length();

	private UsageName() {
	}

	/**
	 * {@code text} with the command named as {@code env} says; unchanged when it names
	 * none, {@code refstore}, or something that is not a command's name.
	 */
	public static String apply(Map<String, String> env, String text) {
		String name = env.get(VARIABLE);
		if (name == null || name.equals(OWN) || !NAME.matcher(name).matches()) {
			return text;
		}
		int shift = name.length() - OWN.length();
		StringBuilder renamed = new StringBuilder(text.length());
		// the column of the first option of the synopsis line being continued: a
		// continuation aligned there moves with the name, one at a fixed indent (git's
		// for-each-ref) stays
		int aligned = -1;
		int start = 0;
		while (start < text.length()) {
			int end = text.indexOf('\n', start);
			end = (end < 0) ? text.length() : end + 1;
			String line = text.substring(start, end);
			if ((line.startsWith("usage: ") || line.startsWith("   or: ")) && line.startsWith(OWN + " ", LEAD)) {
				renamed.append(line, 0, LEAD).append(name).append(line, LEAD + OWN.length(), line.length());
				aligned = firstOption(line);
			}
			else if (line.startsWith("usage: '" + OWN + " ")) {
				// a usage error that quotes the command ("usage: 'git refs verify' takes
				// no arguments")
				renamed.append(line, 0, LEAD + 1).append(name).append(line, LEAD + 1 + OWN.length(), line.length());
				aligned = -1;
			}
			else if (aligned > 0 && blanks(line) > LEAD) {
				int blanks = blanks(line);
				renamed.append(" ".repeat((blanks == aligned) ? blanks + shift : blanks))
					.append(line, blanks, line.length());
			}
			else {
				renamed.append(line);
				aligned = -1;
			}
			start = end;
		}
		return renamed.toString();
	}

	/**
	 * Where the first word after the command's name and subcommands opens: an option, an
	 * argument or a group ({@code -}, {@code <}, {@code [}, {@code (}).
	 */
	private static int firstOption(String line) {
		int at = LEAD + OWN.length() + 1;
		while (at < line.length() && "-<[(".indexOf(line.charAt(at)) < 0) {
			int space = line.indexOf(' ', at);
			if (space < 0) {
				return -1;
			}
			at = space + 1;
		}
		return (at < line.length()) ? at : -1;
	}

	private static int blanks(String line) {
		int count = 0;
		while (count < line.length() && line.charAt(count) == ' ') {
			count++;
		}
		return count;
	}

}
