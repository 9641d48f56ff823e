package io.refstore.core.cli.format;

import java.util.Set;

import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.format.FormatTemplate.Control;
import io.refstore.core.cli.format.FormatTemplate.Rich;
import io.refstore.core.cli.format.FormatTemplate.Segment;

/**
 * Parses the atoms of {@code for-each-ref --format} beyond the few that stream
 * ({@link FormatTemplate}): object fields, people and dates, messages, upstream and push
 * names, and the control atoms ({@code %(if)}, {@code %(align)} ...), checking their
 * arguments as git does. Stateless.
 */
final class FormatAtoms {

	private static final Set<String> PEOPLE = Set.of("author", "committer", "tagger");

	private static final Set<String> PLAIN = Set.of("objecttype", "tree", "parent", "numparent", "object", "type",
			"tag", "HEAD", "deltabase", "worktreepath", "creator", "body", "rest", "ahead-behind", "is-base",
			"signature");

	private static final Set<String> SIGNATURE_OPTIONS = Set.of("signer", "grade", "key", "fingerprint",
			"primarykeyfingerprint", "trustlevel");

	private FormatAtoms() {
	}

	/**
	 * Parses one atom.
	 * @param text the text between {@code %(} and {@code )}
	 * @throws CommandFailure naming an unknown atom or a bad argument
	 */
	static Segment parse(String text) throws CommandFailure {
		int colon = text.indexOf(':');
		String name = (colon < 0) ? text : text.substring(0, colon);
		String arg = (colon < 0) ? null : text.substring(colon + 1);
		switch (name) {
			case "if", "then", "else", "end", "align" -> {
				return control(name, arg);
			}
			case "color" -> {
				if (arg == null) {
					throw CommandFailure.fatal("expected format: %(color:<color>)");
				}
				return new Rich(name, arg, false, GitColors.parse(arg));
			}
			default -> {
			}
		}
		boolean deref = name.startsWith("*");
		String base = deref ? name.substring(1) : name;
		Object parsed = check(base, arg, text);
		return new Rich(base, arg, deref, parsed);
	}

	private static Object check(String name, String arg, String text) throws CommandFailure {
		for (String who : PEOPLE) {
			if (name.startsWith(who)) {
				String field = name.substring(who.length());
				switch (field) {
					case "" -> {
						return noArg(name, arg);
					}
					case "name" -> {
						if (arg != null && !arg.equals("mailmap")) {
							throw unrecognized(name, arg);
						}
						return null;
					}
					case "email" -> {
						return emailOptions(name, arg);
					}
					case "date" -> {
						return GitDateFormat.parse(arg);
					}
					default -> {
					}
				}
			}
		}
		return switch (name) {
			case "refname", "symref", "upstream", "push" -> NameModifier.parse(name, arg);
			case "objectname", "tree", "parent", "object", "*objectname" -> ObjectNameArg.parse(name, arg, text);
			case "creatordate" -> GitDateFormat.parse(arg);
			case "subject" -> {
				if (arg != null && !arg.equals("sanitize")) {
					throw unrecognized(name, arg);
				}
				yield null;
			}
			case "contents" -> contentsArg(arg);
			case "trailers" -> TrailerOptions.parse(arg);
			case "raw" -> {
				if (arg != null && !arg.equals("size")) {
					throw unrecognized(name, arg);
				}
				yield null;
			}
			case "objectsize" -> {
				if (arg != null && !arg.equals("disk")) {
					throw unrecognized(name, arg);
				}
				yield null;
			}
			case "HEAD" -> {
				if (arg != null) {
					throw CommandFailure.fatal("%(HEAD) does not take arguments");
				}
				yield null;
			}
			case "rest" -> throw CommandFailure.fatal("this command reject atom %(rest)");
			case "describe" -> DescribeAtom.parse(arg);
			case "signature" -> {
				if (arg != null && !SIGNATURE_OPTIONS.contains(arg)) {
					throw unrecognized(name, arg);
				}
				yield arg;
			}
			default -> {
				if (!PLAIN.contains(name)) {
					throw CommandFailure.fatal("unknown field name: " + text.substring(0, textNameLength(text)));
				}
				yield arg;
			}
		};
	}

	private static int textNameLength(String text) {
		int colon = text.indexOf(':');
		return (colon < 0) ? text.length() : colon;
	}

	private static Object noArg(String name, String arg) throws CommandFailure {
		if (arg != null) {
			throw unrecognized(name, arg);
		}
		return null;
	}

	/**
	 * {@code trim}, {@code localpart}, {@code mailmap}, comma-separated, as bits 1, 2, 4.
	 */
	private static Integer emailOptions(String name, String arg) throws CommandFailure {
		if (arg == null) {
			return 0;
		}
		int options = 0;
		int pos = 0;
		while (true) {
			String rest = arg.substring(pos);
			int bit = rest.startsWith("trim") ? 1
					: rest.startsWith("localpart") ? 2 : rest.startsWith("mailmap") ? 4 : 0;
			if (bit == 0) {
				throw unrecognized(name, rest);
			}
			options |= bit;
			pos += (bit == 1) ? 4 : (bit == 2) ? 9 : 7;
			if (pos == arg.length()) {
				return options;
			}
			if (arg.charAt(pos) != ',') {
				throw unrecognized(name, arg.substring(pos));
			}
			pos++;
		}
	}

	private static Object contentsArg(String arg) throws CommandFailure {
		if (arg == null || arg.equals("subject") || arg.equals("body") || arg.equals("signature")
				|| arg.equals("size")) {
			return arg;
		}
		if (arg.startsWith("lines=")) {
			String value = arg.substring(6);
			// git reads an unsigned number: a sign is no number
			if (value.startsWith("-") || value.startsWith("+")) {
				throw CommandFailure.fatal("positive value expected contents:lines=" + value);
			}
			try {
				return Integer.parseInt(value);
			}
			catch (NumberFormatException ex) {
				throw CommandFailure.fatal("positive value expected contents:lines=" + value);
			}
		}
		if (arg.equals("trailers") || arg.startsWith("trailers:")) {
			return TrailerOptions.parse(arg.equals("trailers") ? null : arg.substring(9));
		}
		throw unrecognized("contents", arg);
	}

	static CommandFailure unrecognized(String name, String arg) {
		return CommandFailure.fatal("unrecognized %(" + name + ") argument: " + arg);
	}

	private static Control control(String name, String arg) throws CommandFailure {
		switch (name) {
			case "if" -> {
				if (arg != null && !arg.startsWith("equals=") && !arg.startsWith("notequals=")) {
					throw CommandFailure.fatal("unrecognized %(if) argument: " + arg);
				}
				return new Control(name, arg, 0, 0);
			}
			case "align" -> {
				return align(arg);
			}
			default -> {
				if (arg != null) {
					throw CommandFailure.fatal("%(" + name + ") does not take arguments");
				}
				return new Control(name, null, 0, 0);
			}
		}
	}

	/** {@code %(align:<width>,<position>)}: position 0 left, 1 middle, 2 right. */
	private static Control align(String arg) throws CommandFailure {
		if (arg == null) {
			throw CommandFailure.fatal("expected format: %(align:<width>,<position>)");
		}
		int width = -1;
		int position = 0;
		for (String part : arg.split(",")) {
			String value = part.strip();
			if (value.startsWith("width=")) {
				width = parseWidth(value.substring(6), value);
			}
			else if (value.startsWith("position=")) {
				position = position(value.substring(9));
				if (position < 0) {
					throw unrecognized("align", value);
				}
			}
			else if (position(value) >= 0) {
				position = position(value);
			}
			else {
				width = parseWidth(value, value);
			}
		}
		if (width < 0) {
			throw CommandFailure.fatal("positive width expected with the %(align) atom");
		}
		return new Control("align", arg, width, position);
	}

	private static int parseWidth(String digits, String part) throws CommandFailure {
		try {
			return Integer.parseUnsignedInt(digits);
		}
		catch (NumberFormatException ex) {
			throw unrecognized("align", part);
		}
	}

	private static int position(String s) {
		return switch (s) {
			case "left" -> 0;
			case "middle" -> 1;
			case "right" -> 2;
			default -> -1;
		};
	}

	/** An object name atom's abbreviation: 0 full, -1 the default, else digits. */
	record ObjectNameArg(int digits) {

		static ObjectNameArg parse(String name, String arg, String text) throws CommandFailure {
			if (arg == null) {
				return new ObjectNameArg(0);
			}
			if (arg.equals("short")) {
				return new ObjectNameArg(-1);
			}
			if (arg.startsWith("short=")) {
				int n = -1;
				try {
					n = Integer.parseInt(arg.substring(6));
				}
				catch (NumberFormatException ex) {
					// reported below
				}
				if (n <= 0) {
					throw CommandFailure.fatal("positive value expected '" + arg.substring(6) + "' in %(" + text + ")");
				}
				return new ObjectNameArg(n);
			}
			throw unrecognized(name, arg);
		}

	}

}
