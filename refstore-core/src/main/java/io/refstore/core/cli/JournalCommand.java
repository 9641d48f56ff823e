package io.refstore.core.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.options.Options;
import io.refstore.core.journal.JournalEntry;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.journal.JournalReader;
import io.refstore.core.repo.Repository;

/**
 * {@code refstore journal}: {@code install} the {@code reference-transaction} hook that
 * records every ref change git commits in the repository's journal, {@code uninstall} it,
 * and {@code log} the journal's entries, newest first (docs/journal.md).
 */
final class JournalCommand implements Command {

	private static final String USAGE = """
			usage: refstore journal install [--writer-env=<variable>...]
			   or: refstore journal uninstall
			   or: refstore journal log [--ref <name>] [<pattern>...]

			""";

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'")
		.withZone(ZoneOffset.UTC);

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		String subcommand = Command.subcommand(args, USAGE);
		List<String> rest = args.subList(1, args.size());
		return switch (subcommand) {
			case "install" -> install(context, rest);
			case "uninstall" -> uninstall(context, rest);
			case "log" -> log(context, rest);
			default -> throw Command.unknownSubcommand(subcommand, USAGE);
		};
	}

	private static int install(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore journal install [--writer-env=<variable>...]").value((char) 0,
				"writer-env", "variable",
				"an environment variable naming who writes, tried in the order given (default: "
						+ String.join(", ", JournalHook.DEFAULT_WRITER_ENV) + ")");
		Options.Parsed parsed = options.parse(args);
		if (!parsed.args().isEmpty()) {
			throw CommandFailure.usage("install takes no arguments", options.usage());
		}
		List<String> writerEnv = parsed.given("writer-env") ? parsed.values("writer-env")
				: JournalHook.DEFAULT_WRITER_ENV;
		Repository repository = context.repository();
		JournalHook.Outcome outcome;
		try {
			outcome = JournalHook.install(repository, writerEnv);
		}
		catch (IllegalArgumentException ex) {
			throw CommandFailure.usage(ex.getMessage(), options.usage());
		}
		Path hook = JournalHook.hookFile(repository);
		context.out().write(switch (outcome) {
			case CHAINED -> "installed the journal hook at '" + hook + "'; it runs the hook that was there, now '"
					+ JournalHook.CHAINED + "'\n";
			case REINSTALLED -> "reinstalled the journal hook at '" + hook + "'\n";
			default -> "installed the journal hook at '" + hook + "'\n";
		});
		return 0;
	}

	private static int uninstall(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore journal uninstall");
		if (!options.parse(args).args().isEmpty()) {
			throw CommandFailure.usage("uninstall takes no arguments", options.usage());
		}
		Repository repository = context.repository();
		JournalHook.Outcome outcome = JournalHook.uninstall(repository);
		Path hook = JournalHook.hookFile(repository);
		context.out().write(switch (outcome) {
			case RESTORED -> "removed the journal hook; '" + hook + "' is the hook that was there before again\n";
			case NOT_INSTALLED -> "the journal hook is not installed at '" + hook + "'\n";
			default -> "removed the journal hook at '" + hook + "'\n";
		});
		return 0;
	}

	private static int log(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore journal log [--ref <name>] [<pattern>...]").value((char) 0, "ref",
				"name", "only the entries of this ref");
		Options.Parsed parsed = options.parse(args);
		String ref = parsed.value("ref");
		RefPatterns patterns = parsed.args().isEmpty() ? null : RefPatterns.of(parsed.args());
		List<JournalEntry> entries = new ArrayList<>();
		long skipped;
		try (JournalReader reader = JournalReader.open(JournalHook.journalFile(context.repository()))) {
			for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
				if ((ref == null || ref.equals(entry.refName())) && (patterns == null || matches(patterns, entry))) {
					entries.add(entry);
				}
			}
			skipped = reader.skipped();
		}
		if (skipped > 0) {
			context.warning("skipped " + skipped + " damaged line" + ((skipped == 1) ? "" : "s") + " of the journal");
		}
		for (int i = entries.size() - 1; i >= 0; i--) {
			context.out().write(line(entries.get(i)));
		}
		return 0;
	}

	private static boolean matches(RefPatterns patterns, JournalEntry entry) {
		byte[] name = entry.refName().getBytes(StandardCharsets.UTF_8);
		return patterns.matchesPath(name, name.length);
	}

	/**
	 * {@code <time> <old> -> <new> <ref> <writer>[ <identity>]}, the time in UTC to the
	 * millisecond.
	 */
	static String line(JournalEntry entry) {
		StringBuilder line = new StringBuilder(TIME.format(entry.time())).append("  ")
			.append(entry.oldValue())
			.append(" -> ")
			.append(entry.newValue())
			.append("  ")
			.append(entry.refName())
			.append("  ")
			.append(entry.writer().word());
		if (!entry.identity().isEmpty()) {
			line.append(' ').append(printable(entry.identity()));
		}
		return line.append('\n').toString();
	}

	/** An identity with its control characters shown as {@code ?}, on one line. */
	private static String printable(String identity) {
		StringBuilder text = new StringBuilder(identity.length());
		identity.codePoints().forEach((c) -> text.appendCodePoint((c < 0x20 || c == 0x7f) ? '?' : c));
		return text.toString();
	}

}
