package io.refstore.core.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.FsckSettings;
import io.refstore.core.cli.options.Options;
import io.refstore.core.migrate.Backups;
import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.migrate.InterruptedSwap;
import io.refstore.core.migrate.MigrationException;
import io.refstore.core.migrate.MigrationOptions;
import io.refstore.core.migrate.MigrationProgress;
import io.refstore.core.migrate.MigrationReport;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.RefCheck;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.Verification;
import io.refstore.core.repo.RefusedJobInputException;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.ProcessLocks;

/**
 * {@code refstore refs}: {@code migrate} between storage formats (with a report and a
 * backup of the old store), {@code rollback} to that backup, list the {@code backups} and
 * {@code drop-backup} one, {@code verify} the store's consistency, {@code list} refs as
 * {@code for-each-ref} does, ask whether one {@code exists}, and {@code optimize} it as
 * {@code pack-refs} does, as {@code git refs} does plus the checks git lacks. Failures
 * exit 255, as git's {@code refs} does, but for a backup name that names none, which dies
 * as git does (128).
 */
final class Refs implements Command {

	private static final int FAILED = 255;

	/**
	 * git's synopsis of its subcommands, in its order, then refstore's own
	 * ({@code rollback}, {@code backups}, {@code drop-backup}).
	 */
	private static final String USAGE = """
			usage: refstore refs migrate --ref-format=<format> [--no-reflog] [--dry-run] [-v] [-q | --[no-]progress]
			   or: refstore refs verify [--strict] [--verbose] [--deep]
			   or: refstore refs list [--count=<count>] [--shell|--perl|--python|--tcl]
			IND[(--sort=<key>)...] [--format=<format>]
			IND[--include-root-refs] [--points-at=<object>]
			IND[--merged[=<object>]] [--no-merged[=<object>]]
			IND[--contains[=<object>]] [--no-contains[=<object>]]
			IND[(--exclude=<pattern>)...] [--start-after=<marker>]
			IND[ --stdin | (<pattern>...)]
			   or: refstore refs exists <ref>
			   or: refstore refs optimize [--all] [--no-prune] [--auto] [--include <pattern>] [--exclude <pattern>]
			   or: refstore refs rollback [-q | --[no-]progress] <backup>
			   or: refstore refs backups [-v | --verbose]
			   or: refstore refs drop-backup <backup>

			""".replace("IND", " ".repeat(32));

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		String subcommand = Command.subcommand(args, USAGE);
		List<String> rest = args.subList(1, args.size());
		return switch (subcommand) {
			case "migrate" -> migrate(context, rest);
			case "rollback" -> rollback(context, rest);
			case "backups" -> backups(context, rest);
			case "drop-backup" -> dropBackup(context, rest);
			case "verify" -> verify(context, rest);
			case "list" -> new ForEachRef("refstore refs list").run(context, rest);
			case "exists" -> exists(context, rest);
			case "optimize" -> new PackRefs("refstore refs optimize").run(context, rest);
			default -> throw Command.unknownSubcommand(subcommand, USAGE);
		};
	}

	private static int migrate(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options(
				"refstore refs migrate --ref-format=<format> [--no-reflog] [--dry-run] [-v] [-q | --[no-]progress]")
			.value((char) 0, "ref-format", "format", "specify the reference format to convert to")
			.noNegation("ref-format")
			.flag((char) 0, "dry-run", "perform a non-destructive dry-run")
			.flag((char) 0, "reflog", "migrate reflogs (default)")
			.flag('v', "verbose", "report counts, digests, the old store's backup and refs carried over")
			.flag('q', "quiet", "show no progress")
			.flag((char) 0, "progress", "show progress (default on a terminal)");
		Options.Parsed parsed = options.parse(args);
		String format = parsed.value("ref-format");
		if (!parsed.args().isEmpty()) {
			throw CommandFailure.usage(null, "usage: too many arguments\n");
		}
		if (format == null) {
			throw CommandFailure.usage(null, "usage: missing --ref-format=<format>\n");
		}
		RefFormat target;
		try {
			target = RefFormat.fromConfigName(format);
		}
		catch (IllegalArgumentException ex) {
			throw CommandFailure.error("unknown ref storage format '" + format + "'", FAILED);
		}
		MigrationOptions migration = new MigrationOptions(target, parsed.flag("dry-run"), parsed.flag("reflog", true));
		try {
			MigrationReport report = new FormatMigrator(context.repository(), progress(context, parsed))
				.migrate(migration);
			if (report.finishedFirst() != null) {
				context.out().write(finishedFirst(report.finishedFirst(), null));
			}
			if (!report.swapped()) {
				// git's only line, with the path as git shows its git directory
				context.out()
					.write("Finished dry-run migration of refs, the result can be found at '" + context.shownGitDir()
							+ "/" + report.staged().getFileName() + "'\n");
			}
			if (parsed.flag("verbose")) {
				print(context, report, "written by another process during the swap");
			}
			return 0;
		}
		catch (MigrationException ex) {
			throw CommandFailure.error(ex.getMessage(), FAILED);
		}
	}

	private static int exists(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore refs exists <ref>");
		Options.Parsed parsed = options.parse(args);
		if (parsed.args().size() != 1) {
			throw CommandFailure.fatal("'git refs exists' requires a reference");
		}
		return RefExists.check(context, parsed.args().get(0));
	}

	private static int rollback(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore refs rollback [-q | --[no-]progress] <backup>")
			.flag('q', "quiet", "show no progress")
			.flag((char) 0, "progress", "show progress (default on a terminal)");
		Options.Parsed parsed = options.parse(args);
		if (parsed.args().size() != 1) {
			throw CommandFailure.usage("rollback takes the name of one backup, as 'refs backups' lists it",
					options.usage());
		}
		String name = parsed.args().get(0);
		// the name 'refs backups' lists, or the path below the git directory a migration
		// printed (refstore-backup/<name>)
		Path gitDir = context.repository().gitDir();
		Path backup = (name.indexOf('/') < 0) ? gitDir.resolve(FormatMigrator.BACKUP_DIR).resolve(name)
				: gitDir.resolve(name);
		if (!Files.exists(backup, LinkOption.NOFOLLOW_LINKS)) {
			throw CommandFailure.fatal("no backup named '" + name + "'");
		}
		try {
			MigrationReport report = new FormatMigrator(context.repository(), progress(context, parsed))
				.rollback(backup);
			if (report.finishedFirst() != null) {
				context.out().write(finishedFirst(report.finishedFirst(), backup));
			}
			print(context, report, "written since the migration or during the swap, kept");
			return 0;
		}
		catch (MigrationException ex) {
			throw CommandFailure.error(ex.getMessage(), FAILED);
		}
		catch (RefusedJobInputException ex) {
			throw CommandFailure.fatal("backup '" + name + "' refused: " + ex.reason());
		}
	}

	/**
	 * The line on the swap a killed run had begun, which a migration or the rollback of
	 * {@code restored} ({@code null} for a migration) finished first: where that run's
	 * old store is, unless it is the backup the rollback restored (and so removed).
	 */
	private static String finishedFirst(InterruptedSwap finished, Path restored) {
		StringBuilder text = new StringBuilder("finished first the ").append(finished.describe())
			.append(" that a killed run had begun; ");
		if (restored != null
				&& finished.backup().toAbsolutePath().normalize().equals(restored.toAbsolutePath().normalize())) {
			text.append("its backup is the one this rollback restored");
		}
		else {
			text.append("its old store kept at '").append(finished.backup()).append('\'');
		}
		if (finished.rollback()) {
			text.append(", the backup it restored kept at '").append(finished.restored()).append('\'');
		}
		return text.append('\n').toString();
	}

	/**
	 * One line per backup, oldest first, in columns a script can split on spaces:
	 * {@code <name> <format> <refs> <logEntries> <bytes>} ({@code -} for counts a backup
	 * has no record of), and with {@code -v} the recorded digest (or {@code -}).
	 */
	private static int backups(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore refs backups [-v | --verbose]").flag('v', "verbose",
				"add the digest recorded with each backup");
		Options.Parsed parsed = options.parse(args);
		if (!parsed.args().isEmpty()) {
			throw CommandFailure.usage(null, options.usage());
		}
		boolean verbose = parsed.flag("verbose");
		StringBuilder text = new StringBuilder();
		for (Backups.Backup backup : new Backups(context.repository().gitDir()).list()) {
			text.append(backup.name())
				.append(' ')
				.append(backup.format().configName())
				.append(' ')
				.append(orDash(backup.refs()))
				.append(' ')
				.append(orDash(backup.logEntries()))
				.append(' ')
				.append(backup.bytes());
			if (verbose) {
				text.append(' ').append(orDash(backup.digest()));
			}
			text.append('\n');
		}
		context.out().write(text.toString());
		return 0;
	}

	private static int dropBackup(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore refs drop-backup <backup>");
		Options.Parsed parsed = options.parse(args);
		if (parsed.args().size() != 1) {
			throw CommandFailure.usage("drop-backup takes the name of one backup, as 'refs backups' lists it",
					options.usage());
		}
		String name = parsed.args().get(0);
		Backups.Backup dropped;
		try {
			dropped = new Backups(context.repository()).drop(name);
		}
		catch (MigrationException ex) {
			throw CommandFailure.fatal(ex.getMessage());
		}
		if (dropped == null) {
			throw CommandFailure.fatal("no backup named '" + name + "'");
		}
		context.out()
			.write("dropped backup " + dropped.name() + " (" + dropped.format().configName() + " store, "
					+ orDash(dropped.refs()) + " refs, " + orDash(dropped.logEntries()) + " reflog entries, "
					+ dropped.bytes() + " bytes)\n");
		return 0;
	}

	private static String orDash(Object value) {
		return (value != null) ? value.toString() : "-";
	}

	/**
	 * Prints a migration's or rollback's report; {@code carriedWhy} says where the
	 * carried refs came from.
	 */
	private static void print(CommandContext context, MigrationReport report, String carriedWhy) throws IOException {
		StringBuilder text = new StringBuilder();
		if (!report.swapped()) {
			text.append("new store staged at '").append(report.staged()).append("'\n");
		}
		text.append(String.format(Locale.ROOT, "%s %d refs and %d reflog entries from %s to %s in %.3f s%n",
				report.swapped() ? "migrated" : "verified", report.refs(), report.logEntries(),
				report.from().configName(), report.to().configName(), report.elapsed().toNanos() / 1e9));
		text.append("source digest sha256:").append(report.sourceDigest()).append('\n');
		text.append("target digest sha256:").append(report.targetDigest()).append('\n');
		if (report.backup() != null) {
			text.append("old store kept at '").append(report.backup()).append("'\n");
		}
		for (String carried : report.carried()) {
			text.append("carried over ").append(carried).append(" (").append(carriedWhy).append(")\n");
		}
		context.out().write(text.toString());
	}

	/** The progress {@code -q}, {@code --progress} and {@code --no-progress} ask for. */
	static MigrationProgress progress(CommandContext context, Options.Parsed parsed) {
		Boolean forced = parsed.flagGiven("progress") ? parsed.flag("progress") : null;
		return Progress.of(context, forced, parsed.flag("quiet"));
	}

	private static int verify(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = new Options("refstore refs verify [--strict] [--verbose] [--deep]")
			.flag((char) 0, "verbose", "be verbose")
			.flag((char) 0, "strict", "enable strict checking")
			.flag((char) 0, "deep", "also check what git does not: objects, peeled values, every block of every table");
		Options.Parsed parsed = options.parse(args);
		if (!parsed.args().isEmpty()) {
			throw CommandFailure.usage(null, "usage: 'refstore refs verify' takes no arguments\n");
		}
		Map<RefCheck, RefCheck.Severity> severities = FsckSettings.read(context.repository().config());
		Consumer<String> progress = parsed.flag("verbose") ? context::message : (line) -> {
		};
		Verification verification = Verification.of((problem) -> context.message(problem.format()), parsed.flag("deep"))
			.with(severities, parsed.flag("strict"), progress)
			.showingGitDirAs(context.shownGitDir());
		RefStore store;
		try {
			store = context.refs();
		}
		catch (CorruptRefStoreException ex) {
			Repository repository = context.repository();
			if (repository.gitDir().equals(repository.commonDir())) {
				throw ex;
			}
			// this linked worktree's own stack is broken: check from the common
			// directory, whose check reaches every worktree and reports this one's
			// stack as broken, as git's does
			Map<String, String> env = new HashMap<>(context.env());
			env.keySet().removeAll(List.of("GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE"));
			try (Repository main = Repository.open(repository.commonDir(), env);
					ProcessLocks locks = new ProcessLocks("refs verify");
					RefStore mainStore = locks.open(main)) {
				mainStore.verify(verification);
			}
			return (verification.errors() > 0) ? FAILED : 0;
		}
		store.verify(verification);
		return (verification.errors() > 0) ? FAILED : 0;
	}

}
