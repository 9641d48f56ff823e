package io.refstore.core.cli.format;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.format.SignatureCheck.Run;
import io.refstore.core.ref.ObjectId;

/**
 * {@code %(describe[:tags,abbrev=<n>,match=<pattern>,exclude=<pattern>])}: the object
 * described as {@code git describe} would describe it. git's own {@code for-each-ref}
 * runs {@code git describe} for this atom, so refstore does too: the names it finds
 * depend on describe's whole walk and its tie-breaking, which only describe itself gives
 * byte for byte. A failed description is empty, its message dropped, as in git.
 * Stateless.
 */
final class DescribeAtom {

	private DescribeAtom() {
	}

	/**
	 * The {@code git describe} options an atom's argument asks for.
	 * @param arg the text after {@code describe:}, or {@code null}
	 * @throws CommandFailure naming the first option it does not know, with the rest
	 */
	static List<String> parse(String arg) throws CommandFailure {
		List<String> options = new ArrayList<>();
		String rest = (arg != null) ? arg : "";
		while (!rest.isEmpty()) {
			int comma = rest.indexOf(',');
			String part = (comma < 0) ? rest : rest.substring(0, comma);
			int eq = part.indexOf('=');
			String key = (eq < 0) ? part : part.substring(0, eq);
			String value = (eq < 0) ? null : part.substring(eq + 1);
			switch (key) {
				case "tags" -> {
					Boolean tags = (value == null) ? Boolean.TRUE : bool(value);
					if (tags == null) {
						throw FormatAtoms.unrecognized("describe", rest);
					}
					options.add(tags ? "--tags" : "--no-tags");
				}
				case "abbrev" -> options.add("--abbrev=" + abbrev(value));
				case "match", "exclude" -> {
					if (value == null || value.isEmpty()) {
						throw CommandFailure.fatal("value expected describe:" + key + "=");
					}
					options.add("--" + key + "=" + value);
				}
				default -> throw FormatAtoms.unrecognized("describe", rest);
			}
			rest = (comma < 0) ? "" : rest.substring(comma + 1);
		}
		return List.copyOf(options);
	}

	private static String abbrev(String value) throws CommandFailure {
		if (value == null || value.isEmpty()) {
			throw CommandFailure.fatal("argument expected for describe:abbrev");
		}
		int end = (value.startsWith("-") || value.startsWith("+")) ? 1 : 0;
		while (end < value.length() && Character.isDigit(value.charAt(end))) {
			end++;
		}
		if (value.startsWith("-") && end > 1) {
			throw CommandFailure.fatal("positive value expected describe:abbrev=" + value);
		}
		if (end != value.length() || end == 0) {
			throw CommandFailure.fatal("cannot fully parse describe:abbrev=" + value);
		}
		return value;
	}

	/** git's boolean words and numbers; {@code null} for anything else. */
	private static Boolean bool(String value) {
		switch (value.toLowerCase(Locale.ROOT)) {
			case "true", "yes", "on" -> {
				return Boolean.TRUE;
			}
			case "false", "no", "off", "" -> {
				return Boolean.FALSE;
			}
			default -> {
			}
		}
		try {
			return Integer.parseInt(value) != 0;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * Runs {@code git describe <options> <object>} where the command runs.
	 * @return its output without trailing blanks, empty if it failed
	 */
	@SuppressWarnings("unchecked")
	static String describe(RefContext context, Object options, ObjectId id) throws IOException {
		List<String> command = new ArrayList<>();
		command.add("git");
		command.add("describe");
		command.addAll((List<String>) options);
		command.add(id.name());
		CommandContext run = context.command();
		Run result = Run.of(command, new byte[0], run.env(), run.cwd());
		if (result == null) {
			run.message("error: failed to run 'describe'");
			return "";
		}
		// the output's bytes, one char each, as the other atoms' values
		return result.stdout().stripTrailing();
	}

}
