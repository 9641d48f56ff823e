package io.refstore.core.cli.format;

import java.io.IOException;
import java.util.List;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.options.Options;

/**
 * The options of {@code for-each-ref} that shape its format: {@code --shell},
 * {@code --perl}, {@code --python}, {@code --tcl}, {@code --color}, and whether
 * {@code --sort} needs more than the store's order. Stateless.
 */
public final class FormatOptions {

	private FormatOptions() {
	}

	/** The quoting asked for, or {@code null}; git allows one. */
	public static FormatQuote quote(Options.Parsed parsed, String usage) throws CommandFailure {
		FormatQuote quote = null;
		int count = 0;
		for (FormatQuote candidate : FormatQuote.values()) {
			if (parsed.flag(candidate.name().toLowerCase(java.util.Locale.ROOT))) {
				quote = candidate;
				count++;
			}
		}
		if (count > 1) {
			throw CommandFailure.usage("more than one quoting style?", usage);
		}
		return quote;
	}

	/** Whether the sort keys need collecting and comparing (more than by refname). */
	public static boolean customSort(List<String> keys) {
		return keys.stream().anyMatch((key) -> !key.equals("refname") && !key.equals("-refname"));
	}

	/** Gives the fields the evaluator of rich atoms when the format has some. */
	public static void attach(CommandContext context, Options.Parsed parsed, FormatTemplate template, RefFields fields)
			throws IOException, CommandFailure {
		if (!template.rich() && parsed.values("sort").isEmpty()) {
			return;
		}
		if (template.quote() != null && template.quote() != FormatQuote.PERL
				&& template.segments()
					.stream()
					.anyMatch((s) -> s instanceof FormatTemplate.Rich r && r.name().equals("raw") && r.arg() == null)) {
			throw CommandFailure.fatal("--format=raw cannot be used with --python, --shell, --tcl");
		}
		boolean color = color(context, parsed, template.hasColors());
		RefContext refContext = new RefContext(context, color);
		fields.values(new AtomValues(fields, context.objects(), refContext));
	}

	/**
	 * Whether {@code %(color)} atoms print their colors. Whether the output is a terminal
	 * is asked only of a format that has some: Java finds its console through a service
	 * lookup, a few milliseconds of every command's start.
	 */
	private static boolean color(CommandContext context, Options.Parsed parsed, boolean colors)
			throws IOException, CommandFailure {
		if (parsed.given("color")) {
			String when = parsed.value("color");
			if (when == null || when.equals("always") || when.equals("true")) {
				return true;
			}
			if (when.equals("never") || when.equals("false")) {
				return false;
			}
			if (when.equals("auto")) {
				return colors && System.console() != null;
			}
			throw CommandFailure.fatal("invalid value for '--color': '" + when + "'");
		}
		if (!colors) {
			return false;
		}
		String ui = context.repository().config().getString("color", null, "ui").orElse("auto");
		return !ui.equals("never") && !ui.equals("false") && System.console() != null;
	}

}
