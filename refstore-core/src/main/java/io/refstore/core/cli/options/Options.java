package io.refstore.core.cli.options;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.refstore.core.cli.env.CommandFailure;

/**
 * A command's options, parsed the way git's parse-options does: long options with
 * {@code =value} or a separate value, unique abbreviations of long names, {@code --no-}
 * negation, bundled short flags ({@code -dq}), a short option's value stuck on or
 * separate, options and arguments in any order, and {@code --} ending the options.
 * {@code -h} prints the usage text on standard output and exits 129.
 *
 * <p>
 * Built once per command run; not thread-safe.
 */
public final class Options {

	/** How an option takes a value. */
	enum Kind {

		/** No value; {@code --no-name} turns it off. */
		FLAG,
		/**
		 * A required value: {@code --name=v}, {@code --name v}, {@code -xv},
		 * {@code -x v}.
		 */
		VALUE,
		/** An optional value, only stuck on: {@code --name=v} or {@code -xv}. */
		OPTIONAL_VALUE

	}

	private record Spec(char shortName, String longName, Kind kind, String argName, String help) {

		String key() {
			return (this.longName != null) ? this.longName : String.valueOf(this.shortName);
		}

	}

	/** git's exit code for a command line it cannot parse. */
	private static final int USAGE_ERROR = 129;

	private final List<String> synopsis;

	private final List<Spec> specs = new ArrayList<>();

	private final Set<String> hidden = new HashSet<>();

	private final Set<String> fixed = new HashSet<>();

	private final Map<String, String> shown = new HashMap<>();

	/**
	 * @param synopsis the usage lines without the leading {@code usage: }, such as
	 * {@code "refstore pack-refs [--all] [--no-prune]"}; a line opening with a blank
	 * continues the line before
	 */
	public Options(String... synopsis) {
		this.synopsis = List.of(synopsis);
	}

	/** Declares a flag; {@code shortName} 0 for none, {@code longName} null for none. */
	public Options flag(char shortName, String longName, String help) {
		this.specs.add(new Spec(shortName, longName, Kind.FLAG, null, help));
		return this;
	}

	/** Declares an option with a required value. */
	public Options value(char shortName, String longName, String argName, String help) {
		this.specs.add(new Spec(shortName, longName, Kind.VALUE, argName, help));
		return this;
	}

	/** Declares an option with an optional value. */
	public Options optionalValue(char shortName, String longName, String argName, String help) {
		this.specs.add(new Spec(shortName, longName, Kind.OPTIONAL_VALUE, argName, help));
		return this;
	}

	/**
	 * Leaves a declared option out of the usage text (git's hidden options, such as a
	 * deprecated spelling kept working).
	 */
	public Options hide(String longName) {
		this.hidden.add(longName);
		return this;
	}

	/**
	 * Starts a group of options: a blank line in the usage text, as git's
	 * {@code OPT_GROUP("")}.
	 */
	public Options group() {
		this.specs.add(new Spec((char) 0, null, Kind.FLAG, null, null));
		return this;
	}

	/**
	 * Shows a long option in the usage as {@code text} (git shows
	 * {@code --merged <commit>} for an option whose value may be left off at the end).
	 */
	public Options showAs(String longName, String text) {
		this.shown.put(longName, text);
		return this;
	}

	/**
	 * Makes a long option one that {@code --no-} does not negate (git's
	 * {@code PARSE_OPT_NONEG}, such as {@code refs migrate --ref-format}); the others
	 * show as {@code --[no-]name} in the usage, as git's do.
	 */
	public Options noNegation(String longName) {
		this.fixed.add(longName);
		return this;
	}

	/**
	 * The usage text as git prints it: synopsis, a blank line, one line per option, a
	 * blank line.
	 */
	public String usage() {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < this.synopsis.size(); i++) {
			String line = this.synopsis.get(i);
			// a line opening with a blank continues the one before, as in git's
			// multi-line usage
			String lead = (i == 0) ? "usage: " : line.startsWith(" ") ? "       " : "   or: ";
			text.append(lead).append(line).append('\n');
		}
		text.append('\n');
		for (Spec spec : this.specs) {
			if (spec.longName() != null && this.hidden.contains(spec.longName())) {
				continue;
			}
			if (spec.help() == null) {
				text.append('\n');
				continue;
			}
			String left = "    " + ((spec.longName() != null && this.shown.containsKey(spec.longName()))
					? this.shown.get(spec.longName()) : optionText(spec, !this.fixed.contains(spec.longName())));
			text.append(left);
			if (left.length() <= 25) {
				// git pads to column 26; one a column over still gets its one blank
				text.append(" ".repeat(Math.max(26 - left.length(), 1)));
			}
			else {
				text.append('\n').append(" ".repeat(26));
			}
			text.append(spec.help()).append('\n');
		}
		// git ends the option list with a blank line; a command without options has
		// only the one after its synopsis
		return this.specs.isEmpty() ? text.toString() : text.append('\n').toString();
	}

	private static String optionText(Spec spec, boolean negatable) {
		StringBuilder text = new StringBuilder();
		if (spec.shortName() != 0) {
			text.append('-').append(spec.shortName());
			if (spec.longName() != null) {
				text.append(", ");
			}
		}
		if (spec.longName() != null) {
			text.append((negatable && !spec.longName().startsWith("no-")) ? "--[no-]" : "--").append(spec.longName());
		}
		if (spec.kind() == Kind.VALUE) {
			text.append(" <").append(spec.argName()).append('>');
		}
		else if (spec.kind() == Kind.OPTIONAL_VALUE) {
			text.append((spec.longName() != null) ? "[=<" : "[<").append(spec.argName()).append(">]");
		}
		return text.toString();
	}

	/**
	 * Parses arguments.
	 * @param args the arguments after the command name
	 * @return the options found and the remaining arguments in order
	 * @throws CommandFailure a usage error naming the bad option, or the {@code -h} help
	 */
	public Parsed parse(List<String> args) throws CommandFailure {
		Parsed parsed = new Parsed();
		for (int i = 0; i < args.size(); i++) {
			String arg = args.get(i);
			if (arg.equals("--")) {
				parsed.args.addAll(args.subList(i + 1, args.size()));
				break;
			}
			if (arg.equals("-h")) {
				throw CommandFailure.help(usage());
			}
			if (arg.startsWith("--")) {
				i = parseLong(args, i, parsed);
			}
			else if (arg.startsWith("-") && arg.length() > 1) {
				i = parseShort(args, i, parsed);
			}
			else {
				parsed.args.add(arg);
			}
		}
		return parsed;
	}

	private int parseLong(List<String> args, int i, Parsed parsed) throws CommandFailure {
		String arg = args.get(i).substring(2);
		int eq = arg.indexOf('=');
		String name = (eq < 0) ? arg : arg.substring(0, eq);
		String value = (eq < 0) ? null : arg.substring(eq + 1);
		Spec spec = findLong(name, false);
		boolean negated = false;
		if (spec == null && name.startsWith("no-")) {
			spec = findLong(name.substring(3), true);
			negated = spec != null;
			if (negated && this.fixed.contains(spec.longName())) {
				throw CommandFailure.usage("unknown option `" + name + "'", usage());
			}
		}
		if (spec == null) {
			throw CommandFailure.usage("unknown option `" + name + "'", usage());
		}
		if (negated || spec.kind() == Kind.FLAG) {
			if (value != null) {
				// git names the mistake alone, without the usage
				throw CommandFailure.error("option `" + (negated ? "no-" : "") + spec.longName() + "' takes no value",
						USAGE_ERROR);
			}
			parsed.set(spec, !negated, null);
			return i;
		}
		if (spec.kind() == Kind.VALUE && value == null) {
			if (i + 1 >= args.size()) {
				throw CommandFailure.error("option `" + spec.longName() + "' requires a value", USAGE_ERROR);
			}
			value = args.get(++i);
		}
		parsed.set(spec, true, value);
		return i;
	}

	private Spec findLong(String name, boolean forNegation) throws CommandFailure {
		Spec found = null;
		Spec before = null;
		for (Spec spec : this.specs) {
			if (spec.longName() == null
					|| (forNegation && spec.kind() == Kind.FLAG && spec.longName().startsWith("no-"))) {
				continue;
			}
			if (spec.longName().equals(name)) {
				return spec;
			}
			if (!name.isEmpty() && spec.longName().startsWith(name)) {
				before = found;
				found = spec;
			}
		}
		if (before != null) {
			// git names the last two options the abbreviation fits
			throw CommandFailure.usage("ambiguous option: " + name + " (could be --" + before.longName() + " or --"
					+ found.longName() + ")", usage());
		}
		return found;
	}

	private int parseShort(List<String> args, int i, Parsed parsed) throws CommandFailure {
		String arg = args.get(i);
		for (int pos = 1; pos < arg.length(); pos++) {
			char c = arg.charAt(pos);
			Spec spec = findShort(c);
			if (spec == null) {
				throw CommandFailure.usage("unknown switch `" + c + "'", usage());
			}
			if (spec.kind() == Kind.FLAG) {
				parsed.set(spec, true, null);
				continue;
			}
			String rest = arg.substring(pos + 1);
			if (!rest.isEmpty() || spec.kind() == Kind.OPTIONAL_VALUE) {
				parsed.set(spec, true, rest.isEmpty() ? null : rest);
				return i;
			}
			if (i + 1 >= args.size()) {
				throw CommandFailure.error("switch `" + c + "' requires a value", USAGE_ERROR);
			}
			parsed.set(spec, true, args.get(i + 1));
			return i + 1;
		}
		return i;
	}

	private Spec findShort(char c) {
		for (Spec spec : this.specs) {
			if (spec.shortName() == c) {
				return spec;
			}
		}
		return null;
	}

	/**
	 * Parsed options (by long name, or by the short letter for short-only options) and
	 * arguments.
	 */
	public static final class Parsed {

		private final Map<String, Boolean> flags = new HashMap<>();

		private final Map<String, List<String>> values = new HashMap<>();

		private final List<String> args = new ArrayList<>();

		private void set(Spec spec, boolean on, String value) {
			if (spec.kind() == Kind.FLAG) {
				this.flags.put(spec.key(), on);
			}
			else if (!on) {
				this.values.remove(spec.key());
			}
			else {
				this.values.computeIfAbsent(spec.key(), (k) -> new ArrayList<>()).add(value);
			}
		}

		/** Whether a flag was given (and not negated later). */
		public boolean flag(String key) {
			return this.flags.getOrDefault(key, false);
		}

		/** A flag's value, or {@code dflt} if it was not given. */
		public boolean flag(String key, boolean dflt) {
			return this.flags.getOrDefault(key, dflt);
		}

		/** Whether a flag was given, as itself or negated. */
		public boolean flagGiven(String key) {
			return this.flags.containsKey(key);
		}

		/**
		 * Whether an option with a value was given (for optional values: with or without
		 * a value).
		 */
		public boolean given(String key) {
			return this.values.containsKey(key);
		}

		/**
		 * The last value of an option, or {@code null} if not given or given without a
		 * value.
		 */
		public String value(String key) {
			List<String> list = this.values.get(key);
			return (list == null) ? null : list.get(list.size() - 1);
		}

		/**
		 * The reflog message of {@code -m}, or {@code null} if not given.
		 * @param refusal git's words for an empty message (each command has its own)
		 * @throws CommandFailure if {@code -m} was given empty: git refuses to write such
		 * an entry
		 */
		public String reflogMessage(String refusal) throws CommandFailure {
			String message = value("m");
			if (message != null && message.isEmpty()) {
				throw CommandFailure.fatal(refusal);
			}
			return message;
		}

		/** Every value of a repeatable option, in order; empty if not given. */
		public List<String> values(String key) {
			return this.values.getOrDefault(key, List.of());
		}

		/** The non-option arguments, in order. */
		public List<String> args() {
			return this.args;
		}

	}

}
