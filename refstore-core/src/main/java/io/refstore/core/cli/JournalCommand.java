package io.refstore.core.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.options.Options;
import io.refstore.core.journal.DeletedRefs;
import io.refstore.core.journal.JournalBase;
import io.refstore.core.journal.JournalEntry;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.journal.JournalReader;
import io.refstore.core.journal.PointInTime;
import io.refstore.core.journal.RefRewinder;
import io.refstore.core.journal.RewindPlan;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.ref.UpdateResult;
import io.refstore.core.input.RefusedInputException;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;

/**
 * {@code refstore journal}: {@code install} the {@code reference-transaction} hook that
 * records every ref change git commits in the repository's journal, {@code uninstall} it,
 * {@code log} the journal's entries, newest first, list the refs it shows {@code deleted}
 * and {@code restore} them at their last values, and {@code rewind} the refs under a
 * prefix to a past moment (point-in-time restore) or undo such a rewind
 * (docs/journal.md). They read the journal file and the one the application last set
 * aside.
 */
final class JournalCommand implements Command {

	private static final String USAGE = """
			usage: refstore journal install [--writer-env=<variable>...]
			   or: refstore journal uninstall
			   or: refstore journal log [--ref <name>] [<pattern>...]
			   or: refstore journal deleted [<pattern>...]
			   or: refstore journal restore [-n | --dry-run] <ref>...
			   or: refstore journal rewind [-n | --dry-run] --at <time> [<prefix>]
			   or: refstore journal rewind --undo <plan>

			""";

	/** How many refs one transaction of a rewind sets. */
	private static final int REWIND_CHUNK = 1000;

	/**
	 * ISO-8601 date and time, with a space or a T between them, with or without an
	 * offset.
	 */
	private static final DateTimeFormatter MOMENT = new DateTimeFormatterBuilder().parseCaseInsensitive()
		.append(DateTimeFormatter.ISO_LOCAL_DATE)
		.optionalStart()
		.appendLiteral('T')
		.optionalEnd()
		.optionalStart()
		.appendLiteral(' ')
		.optionalEnd()
		.append(DateTimeFormatter.ISO_LOCAL_TIME)
		.optionalStart()
		.appendOffsetId()
		.optionalEnd()
		.toFormatter();

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
			case "rewind" -> rewind(context, rest);
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
		try (JournalReader reader = JournalReader.open(journalFiles(context))) {
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
			// forced whatever core.fsync says, as restore-refs does: what it reports
			// restored
			// survives a power cut
			result = transaction.message("refstore: restored from the journal").forceSync().commit();
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

	/**
	 * Puts the refs under a prefix back as the journal shows them at a moment, or undoes
	 * such a rewind: the plan and the plan that undoes it are written first (in
	 * {@value RewindPlan#DIR}), then applied in chunks of compare-and-swap updates; a ref
	 * another writer changed since is left alone and named.
	 */
	private static int rewind(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options(
				"refstore journal rewind [-n | --dry-run] --at <time> [<prefix>]\n   or: refstore journal rewind --undo <plan>")
			.flag('n', "dry-run", "only say what would change")
			.value((char) 0, "at", "time",
					"the moment: an ISO-8601 time such as 2026-12-06T14:03:00Z (UTC if it names no offset),"
							+ " or @<seconds since 1970>")
			.value((char) 0, "undo", "plan",
					"undo the rewind that wrote this plan (its name in " + RewindPlan.DIR + ")");
		Options.Parsed parsed = options.parse(args);
		Repository repository = context.repository();
		if (parsed.given("undo")) {
			if (parsed.given("at") || !parsed.args().isEmpty()) {
				throw CommandFailure.usage("--undo takes no --at and no prefix: the plan names them", options.usage());
			}
			String given = parsed.value("undo");
			if (!RewindPlan.isPlanName(given)) {
				throw CommandFailure.usage(
						"'" + given + "' is not the name of a rewind's plan (rewind-<time>-<hex>.plan)",
						options.usage());
			}
			Path file;
			try {
				file = RewindPlan.checkInput("--undo", repository, RewindPlan.DIR, RewindPlan.undoName(given));
			}
			catch (RefusedInputException ex) {
				throw CommandFailure.fatal(ex.getMessage());
			}
			RewindPlan undo = RewindPlan.read(file);
			if (parsed.flag("dry-run")) {
				for (RewindPlan.Step step : undo.steps()) {
					context.out().write(step(step));
				}
				return 0;
			}
			return apply(context, undo, file.getFileName().toString(), null);
		}
		if (!parsed.given("at")) {
			throw CommandFailure.usage("name the moment to rewind to with --at", options.usage());
		}
		if (parsed.args().size() > 1) {
			throw CommandFailure.usage("name at most one prefix", options.usage());
		}
		Instant at = moment(parsed.value("at"), options.usage());
		String prefix = parsed.args().isEmpty() ? "refs/" : parsed.args().get(0);
		PointInTime.Read read = PointInTime.around(journalFiles(context), at, prefix);
		warnSkipped(context, read.skipped());
		Optional<JournalBase> base = JournalBase.read(repository.commonDir());
		List<String> report = new ArrayList<>();
		List<RewindPlan.Step> steps = PointInTime.sort(read.around(), at, base, context.refs(), context.objects(),
				new PointInTime.Sink() {

					@Override
					public void create(String ref, String target) {
						report.add("create " + ref + " " + target + "\n");
					}

					@Override
					public void delete(String ref, String current) {
						report.add("delete " + ref + " " + current + "\n");
					}

					@Override
					public void move(String ref, String current, String target) {
						report.add("move " + ref + " " + current + " -> " + target + "\n");
					}

					@Override
					public void missing(String ref, String current, String target) {
						context.warning("leaving '" + ref + "' alone: object " + target
								+ " that it held then no longer exists");
					}

					@Override
					public void unknown(String ref) {
						context.warning("leaving '" + ref + "' alone: the journal cannot tell what it held then");
					}

					@Override
					public void unchanged(String ref) {
						// back at its value then: nothing to say
					}

				});
		for (String line : report) {
			context.out().write(line);
		}
		if (steps.isEmpty()) {
			context.message("nothing to rewind: the refs under '" + prefix
					+ "' the journal can tell about hold their values of " + at + " already");
			return 0;
		}
		if (parsed.flag("dry-run")) {
			return 0;
		}
		RewindPlan plan = new RewindPlan(context.refs().hashAlgorithm(), RepositoryId.find(repository).orElse(null), at,
				prefix, steps);
		String name = plan.saveIn(repository.gitDir().resolve(RewindPlan.DIR));
		return apply(context, plan, name, name);
	}

	/**
	 * Applies a rewind plan and says what it did.
	 * @param undoable the plan's name if a rewind wrote it (its undo plan is beside it),
	 * {@code null} for an undo
	 */
	private static int apply(CommandContext context, RewindPlan plan, String name, String undoable)
			throws IOException, CommandFailure {
		RefRewinder.Result result = new RefRewinder(context.refs(),
				"refstore: rewind to " + plan.at() + " (" + name + ")")
			.apply(plan, REWIND_CHUNK, (done) -> {
			});
		context.out()
			.write("rewound " + result.applied() + " ref" + ((result.applied() == 1) ? "" : "s") + " to " + plan.at()
					+ ((result.present() > 0) ? " (" + result.present() + " held that value already)" : "") + "\n");
		if (undoable != null) {
			context.out().write("undo with: refstore journal rewind --undo " + undoable + "\n");
		}
		if (result.conflicts() > 0) {
			throw CommandFailure.fatal(result.conflicts() + " ref" + ((result.conflicts() == 1) ? "" : "s")
					+ " changed by another writer since the plan, left alone: " + String.join(" ", result.named()));
		}
		return 0;
	}

	/** A plan's step as the dry run of an undo shows it. */
	private static String step(RewindPlan.Step step) {
		if (step.creates()) {
			return "create " + step.name() + " " + step.to().name() + "\n";
		}
		if (step.deletes()) {
			return "delete " + step.name() + " " + step.from().name() + "\n";
		}
		return "move " + step.name() + " " + step.from().name() + " -> " + step.to().name() + "\n";
	}

	/**
	 * A moment as {@code --at} gives it: an ISO-8601 instant or date and time (UTC if it
	 * names no offset), or {@code @<seconds>}; never one to come.
	 */
	static Instant moment(String given, String usage) throws CommandFailure {
		Instant at;
		try {
			if (given.startsWith("@")) {
				at = Instant.ofEpochSecond(Long.parseLong(given.substring(1)));
			}
			else {
				TemporalAccessor parsed = MOMENT.parseBest(given, OffsetDateTime::from, LocalDateTime::from);
				at = (parsed instanceof OffsetDateTime offset) ? offset.toInstant()
						: ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
			}
		}
		catch (DateTimeException | NumberFormatException ex) {
			throw CommandFailure.usage("--at '" + given
					+ "' is not a moment: give an ISO-8601 time such as 2026-12-06T14:03:00Z, or @<seconds since 1970>",
					usage);
		}
		if (at.isAfter(Instant.now())) {
			throw CommandFailure.usage("--at '" + given + "' is still to come", usage);
		}
		return at;
	}

	private static List<Path> journalFiles(CommandContext context) throws IOException {
		return JournalHook.journalFiles(context.repository().commonDir());
	}

	/** The refs the journal shows deleted that do not exist now. */
	private static List<DeletedRefs.Deleted> deletedNow(CommandContext context) throws IOException {
		List<DeletedRefs.Deleted> all;
		long skipped;
		try (JournalReader reader = JournalReader.open(journalFiles(context))) {
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
