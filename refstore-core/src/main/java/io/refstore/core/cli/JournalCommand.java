package io.refstore.core.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.options.Options;
import io.refstore.core.journal.DeletedRefs;
import io.refstore.core.journal.JournalBase;
import io.refstore.core.journal.JournalEntry;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.journal.JournalReader;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateResult;
import io.refstore.core.repo.Repository;

/**
 * {@code refstore journal}: {@code install} the {@code reference-transaction} hook that
 * records every ref change git commits in the repository's journal, {@code uninstall} it,
 * {@code log} the journal's entries, newest first, list the refs it shows {@code deleted}
 * and {@code restore} them at their last values (docs/journal.md).
 */
final class JournalCommand implements Command {

	private static final String USAGE = """
			usage: refstore journal install [--writer-env=<variable>...]
			   or: refstore journal uninstall
			   or: refstore journal log [--ref <name>] [<pattern>...]
			   or: refstore journal deleted [<pattern>...]
			   or: refstore journal restore [-n | --dry-run] <ref>...

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
			case "deleted" -> deleted(context, rest);
			case "restore" -> restore(context, rest);
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
		// the refs as they are from now on, every later change being journaled: a
		// point-in-time restore starts there
		JournalBase.writeIfAbsent(repository.commonDir(), context.refs());
		Path hook = JournalHook.hookFile(repository);
		context.out().write(switch (outcome) {
			case CHAINED -> "installed the journal hook at '" + hook + "'; it runs the hook that was there, now '"
					+ JournalHook.CHAINED + "'\n";
			case REINSTALLED -> "reinstalled the journal hook at '" + hook + "'\n";
			default -> "installed the journal hook at '" + hook + "'\n";
		});
		if (repository.refFormat() == RefFormat.FILES) {
			// measured with git 2.55: 1,000 loose refs packed in 28 s instead of 0.13 s
			context.message("hint: git's pack-refs (run by git gc and by the maintenance after a push) runs this hook");
			context
				.message("hint: three times for each loose ref it prunes, which takes minutes for thousands of them;");
			context.message("hint: pack with 'refstore pack-refs' or refstore's maintenance, which runs no hook, and");
			context.message("hint: consider 'git config gc.packRefs false' (see docs/journal.md)");
		}
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
		warnSkipped(context, skipped);
		for (int i = entries.size() - 1; i >= 0; i--) {
			context.out().write(line(entries.get(i)));
		}
		return 0;
	}

	/**
	 * The refs the journal shows deleted that do not exist now, newest deletion first:
	 * {@code <time>  <last value>  <ref>  <writer>[ <identity>]}, the value
	 * {@code unknown} where the journal knows none and followed by
	 * {@code (object missing)} where the repository no longer has it.
	 */
	private static int deleted(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore journal deleted [<pattern>...]");
		Options.Parsed parsed = options.parse(args);
		RefPatterns patterns = parsed.args().isEmpty() ? null : RefPatterns.of(parsed.args());
		for (DeletedRefs.Deleted ref : deletedNow(context)) {
			if (patterns != null && !matches(patterns, ref.deletion())) {
				continue;
			}
			JournalEntry deletion = ref.deletion();
			StringBuilder line = new StringBuilder(TIME.format(deletion.time())).append("  ")
				.append((ref.lastValue() == null) ? "unknown" : ref.lastValue())
				.append("  ")
				.append(ref.refName())
				.append("  ")
				.append(deletion.writer().word());
			if (!deletion.identity().isEmpty()) {
				line.append(' ').append(printable(deletion.identity()));
			}
			if (ref.lastValue() != null && !exists(context, ref.lastValue())) {
				line.append("  (object missing)");
			}
			context.out().write(line.append('\n').toString());
		}
		return 0;
	}

	/**
	 * Creates deleted refs again at the last value the journal knows, all or none, each
	 * only if it does not exist.
	 */
	private static int restore(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore journal restore [-n | --dry-run] <ref>...").flag('n', "dry-run",
				"only say what would be restored");
		Options.Parsed parsed = options.parse(args);
		if (parsed.args().isEmpty()) {
			throw CommandFailure.usage("name at least one deleted ref to restore", options.usage());
		}
		Map<String, DeletedRefs.Deleted> deleted = new HashMap<>();
		for (DeletedRefs.Deleted ref : deletedNow(context)) {
			deleted.put(ref.refName(), ref);
		}
		HashAlgorithm hash = context.refs().hashAlgorithm();
		List<RefUpdate> updates = new ArrayList<>();
		for (String name : new LinkedHashSet<>(parsed.args())) {
			DeletedRefs.Deleted ref = deleted.get(name);
			if (ref == null) {
				throw CommandFailure
					.fatal("the journal does not show '" + name + "' deleted, or it exists now; nothing was restored");
			}
			ObjectId id = (ref.lastValue() == null) ? null : ObjectId.tryParse(hash, ref.lastValue());
			if (id == null) {
				throw CommandFailure.fatal("the journal knows no object id '" + name
						+ "' held before it was deleted; nothing was restored");
			}
			if (!context.objects().exists(id)) {
				throw CommandFailure
					.fatal("object " + id.name() + " that '" + name + "' held no longer exists; nothing was restored");
			}
			updates.add(RefUpdate.create(name, id));
		}
		if (parsed.flag("dry-run")) {
			for (RefUpdate update : updates) {
				context.out().write("would restore " + update.name() + " at " + update.newId().name() + "\n");
			}
			return 0;
		}
		TransactionResult result;
		try (RefTransaction transaction = context.refs().newTransaction()) {
			for (RefUpdate update : updates) {
				transaction.add(update);
			}
			result = transaction.message("refstore: restored from the journal").commit();
		}
		if (!result.committed()) {
			UpdateResult refused = result.firstRejection().orElseThrow();
			throw CommandFailure.fatal(((refused.message() != null) ? refused.message()
					: "cannot restore '" + refused.update().name() + "': " + refused.rejection())
					+ "; nothing was restored");
		}
		for (RefUpdate update : updates) {
			context.out().write("restored " + update.name() + " at " + update.newId().name() + "\n");
		}
		return 0;
	}

	/** The refs the journal shows deleted that do not exist now. */
	private static List<DeletedRefs.Deleted> deletedNow(CommandContext context) throws IOException {
		List<DeletedRefs.Deleted> all;
		long skipped;
		try (JournalReader reader = JournalReader.open(JournalHook.journalFile(context.repository()))) {
			all = DeletedRefs.of(reader);
			skipped = reader.skipped();
		}
		warnSkipped(context, skipped);
		List<DeletedRefs.Deleted> now = new ArrayList<>(all.size());
		for (DeletedRefs.Deleted ref : all) {
			if (context.refs().exactRef(ref.refName()).isEmpty()) {
				now.add(ref);
			}
		}
		return now;
	}

	private static void warnSkipped(CommandContext context, long skipped) {
		if (skipped > 0) {
			context.warning("skipped " + skipped + " damaged line" + ((skipped == 1) ? "" : "s") + " of the journal");
		}
	}

	private static boolean exists(CommandContext context, String value) throws IOException {
		ObjectId id = ObjectId.tryParse(context.refs().hashAlgorithm(), value);
		return id != null && context.objects().exists(id);
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
