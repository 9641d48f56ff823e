package io.refstore.core.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.options.Options;
import io.refstore.core.delete.ChunkListener;
import io.refstore.core.delete.DeleteOptions;
import io.refstore.core.delete.DeleteResult;
import io.refstore.core.delete.DryRun;
import io.refstore.core.delete.InvalidSelectionException;
import io.refstore.core.delete.Manifest;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.delete.RefDeleter;
import io.refstore.core.delete.RefRestorer;
import io.refstore.core.delete.RefSelection;
import io.refstore.core.delete.RestoreResult;
import io.refstore.core.io.LockOwner;
import io.refstore.core.migrate.MigrationProgress;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.repo.RefusedJobInputException;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.repo.RepositoryInputs;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.store.RefStores;

/**
 * {@code refstore delete-refs} and {@code refstore restore-refs}: mass deletion in
 * chunked compare-and-swap transactions with a manifest, and its exact undo (see
 * {@link RefDeleter} and {@link RefRestorer}). Both formats are served, through
 * {@link RefStores}.
 *
 * <p>
 * A relative {@code --manifest} is taken from the top of the working tree (the git
 * directory of a bare repository). Without {@code --manifest}, a deletion writes
 * {@code <git-common-dir>/refstore/delete-<UTC
 * time>.manifest}. Refs under {@code refs/keep-around/}, Gerrit's
 * {@code refs/changes/.../meta}, {@code refs/notes/}, {@code refs/meta/} and
 * {@code HEAD}'s branch are kept whatever the selection ({@link ProtectedRefs}); the
 * output says how many were kept. {@code --protect} adds a pattern,
 * {@code --no-default-protect} drops the defaults. Exit codes: 0 success, 1 a chunk
 * failed (the earlier ones are applied, it and the later ones not), 128 a bad value, a
 * manifest that exists already, or a restore refused because a ref exists with another
 * value; 129 an unknown option.
 */
final class DeleteRefs implements Command {

	private final boolean restore;

	private DeleteRefs(boolean restore) {
		this.restore = restore;
	}

	/** {@code delete-refs}. */
	static DeleteRefs delete() {
		return new DeleteRefs(false);
	}

	/** {@code restore-refs}. */
	static DeleteRefs restore() {
		return new DeleteRefs(true);
	}

	private static Options deleteOptions() {
		return new Options("refstore delete-refs [--dry-run] [--sample=<n>] [--chunk-size=<n>] [--manifest=<file>]"
				+ " [--prefix=<p>]... [--glob=<g>]... [--exclude=<glob>]... [--protect=<glob>]..."
				+ " [--no-default-protect] [--stdin] [-q | --[no-]progress]")
			.flag('n', "dry-run", "count and show what would be deleted, change nothing")
			.value((char) 0, "sample", "n", "how many of the first names to show (default 10)")
			.value((char) 0, "chunk-size", "n", "refs per transaction (default 1000)")
			.value((char) 0, "manifest", "file", "where to record what is deleted")
			.value((char) 0, "prefix", "p", "delete refs whose names start with <p>")
			.value((char) 0, "glob", "g", "delete refs matching the for-each-ref pattern <g>")
			.value((char) 0, "exclude", "glob", "keep refs matching the for-each-ref pattern <glob>")
			.value((char) 0, "protect", "glob", "also protect refs matching <glob> (or HEAD: its branch)")
			.flag((char) 0, "default-protect",
					"protect " + String.join(", ", ProtectedRefs.DEFAULT_PATTERNS)
							+ " (default; --no-default-protect deletes them too)")
			.flag((char) 0, "stdin", "delete the refs named on standard input, one per line")
			.flag('q', "quiet", "show no progress")
			.flag((char) 0, "progress", "show progress (default on a terminal)");
	}

	private static Options restoreOptions() {
		return new Options("refstore restore-refs --manifest=<file> [-q | --[no-]progress]")
			.value((char) 0, "manifest", "file", "the manifest of the deletion to undo")
			.flag('q', "quiet", "show no progress")
			.flag((char) 0, "progress", "show progress (default on a terminal)");
	}

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = this.restore ? restoreOptions() : deleteOptions();
		Options.Parsed parsed = options.parse(args);
		if (!parsed.args().isEmpty()) {
			throw CommandFailure.usage("unexpected argument '" + parsed.args().get(0) + "'", options.usage());
		}
		return this.restore ? restore(context, parsed, options) : delete(context, parsed);
	}

	private static int delete(CommandContext context, Options.Parsed parsed) throws CommandFailure, IOException {
		RefSelection selection = selection(context, parsed);
		int sample = number(parsed, "sample", DeleteOptions.DEFAULT_SAMPLE_SIZE, 0);
		int chunkSize = number(parsed, "chunk-size", DeleteOptions.DEFAULT_CHUNK_SIZE, 1);
		Repository repository = context.repository();
		// a dry run takes no lock: it leaves no record either
		try (LockOwner owner = parsed.flag("dry-run") ? null : claimLocks(context, "delete-refs");
				StoreGate.Run announced = parsed.flag("dry-run") ? null : beginRun(repository);
				RefStore store = RefStores.open(repository, repository.reflogPolicy(), owner)) {
			RefDeleter deleter = new RefDeleter(store);
			if (parsed.flag("dry-run")) {
				DryRun dry = deleter.dryRun(selection, sample);
				context.out().write("would delete " + dry.matched() + " refs\n");
				printSample(context, dry.sample(), dry.matched());
				printMissing(context, dry.missing(), "do");
				printKept(context, dry.kept());
				return 0;
			}
			Path manifest = (parsed.value("manifest") != null) ? resolve(repository, parsed.value("manifest"))
					: defaultManifest(repository);
			ChunkProgress shown = new ChunkProgress(Refs.progress(context, parsed), "Deleting refs");
			DeleteOptions run = DeleteOptions.to(manifest)
				.withChunkSize(chunkSize)
				.withSampleSize(sample)
				.withRepository(repository.gitDir(), RepositoryId.of(repository))
				.withListener(shown);
			DeleteResult result;
			try {
				result = deleter.delete(selection, run);
			}
			catch (FileAlreadyExistsException ex) {
				throw CommandFailure.fatal("manifest '" + manifest + "' already exists");
			}
			finally {
				shown.stop();
			}
			context.out().write("deleted " + result.deleted() + " refs in " + result.chunks() + " chunks\n");
			printSample(context, result.sample(), Long.MAX_VALUE);
			printMissing(context, result.missing(), "did");
			printKept(context, result.kept());
			context.out().write("manifest: " + result.manifest() + "\n");
			if (result.failure() != null) {
				context.out().flush();
				throw CommandFailure.error(result.failure().describe(), 1);
			}
			return 0;
		}
	}

	/**
	 * Clears the locks that runs of refstore which died (killed, or cut off by a power
	 * loss) left in the repository, then records this run as the owner of the locks it
	 * takes, so that a rerun clears its own.
	 */
	private static LockOwner claimLocks(CommandContext context, String command) throws IOException {
		// where the refs are: the locks link to the owner record, on the same file system
		Path commonDir = context.repository().refsCommonDir();
		LockOwner.Released released = LockOwner.releaseAbandoned(commonDir, null);
		if (released.locks() > 0) {
			context.warning("removed " + released.locks() + " lock file(s) left by a refstore run that died");
		}
		return LockOwner.claim(commonDir, command, null);
	}

	/**
	 * Announces the run to every refstore process (the application, another node): no
	 * swap or other run begins until it ends, and each of its chunks keeps their writers
	 * waiting rather than meeting its locks.
	 */
	private static StoreGate.Run beginRun(Repository repository) throws IOException {
		return StoreGate.of(repository.commonDir()).beginRun(StoreGate.WRITER_WAIT);
	}

	private static RefSelection selection(CommandContext context, Options.Parsed parsed)
			throws CommandFailure, IOException {
		RefSelection.Builder builder = RefSelection.builder();
		try {
			parsed.values("prefix").forEach(builder::prefix);
			parsed.values("glob").forEach(builder::glob);
			parsed.values("exclude").forEach(builder::exclude);
			List<String> protect = new ArrayList<>();
			if (parsed.flag("default-protect", true)) {
				protect.addAll(ProtectedRefs.DEFAULT_PATTERNS);
			}
			protect.addAll(parsed.values("protect"));
			builder.protect(ProtectedRefs.of(protect));
		}
		catch (InvalidSelectionException ex) {
			throw CommandFailure.fatal("--" + ex.getMessage());
		}
		if (parsed.flag("stdin")) {
			readNames(context, builder);
		}
		try {
			return builder.build();
		}
		catch (InvalidSelectionException ex) {
			throw CommandFailure.fatal("nothing to delete: give --prefix, --glob or --stdin");
		}
	}

	/** Adds the names on standard input, one per line; empty lines are skipped. */
	private static void readNames(CommandContext context, RefSelection.Builder builder)
			throws CommandFailure, IOException {
		BufferedReader lines = new BufferedReader(new InputStreamReader(context.in(), StandardCharsets.UTF_8));
		int number = 0;
		for (String line = lines.readLine(); line != null; line = lines.readLine()) {
			number++;
			if (line.isEmpty()) {
				continue;
			}
			try {
				builder.name(line);
			}
			catch (InvalidSelectionException ex) {
				throw CommandFailure.fatal("stdin line " + number + " '" + ex.value() + "': " + ex.problem());
			}
		}
	}

	private static int number(Options.Parsed parsed, String option, int dflt, int minimum) throws CommandFailure {
		String value = parsed.value(option);
		if (value == null) {
			return dflt;
		}
		try {
			int n = Integer.parseInt(value);
			if (n >= minimum) {
				return n;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw CommandFailure.fatal("--" + option + " '" + value + "': not a number of at least " + minimum);
	}

	private static void printSample(CommandContext context, List<String> sample, long total) throws IOException {
		for (String name : sample) {
			context.out().write("  " + name + "\n");
		}
		if (total != Long.MAX_VALUE && total > sample.size() && !sample.isEmpty()) {
			context.out().write("  ... and " + (total - sample.size()) + " more\n");
		}
	}

	private static void printMissing(CommandContext context, long missing, String verb) throws IOException {
		if (missing > 0) {
			context.out().write(missing + " listed names " + verb + " not exist\n");
		}
	}

	/**
	 * The protected refs the selection picked but kept: how many, by which entry, and the
	 * first names.
	 */
	private static void printKept(CommandContext context, ProtectedRefs.Report kept) throws IOException {
		if (kept.count() == 0) {
			return;
		}
		StringBuilder line = new StringBuilder("kept " + kept.count() + " protected refs (");
		for (Map.Entry<String, Long> entry : kept.byPattern().entrySet()) {
			line.append((line.charAt(line.length() - 1) == '(') ? "" : ", ")
				.append(entry.getValue())
				.append(' ')
				.append(entry.getKey());
		}
		context.out().write(line.append(")\n").toString());
		for (ProtectedRefs.Report.Kept ref : kept.sample()) {
			context.out().write("  " + ref.name() + " (" + ref.pattern() + ")\n");
		}
		if (kept.count() > kept.sample().size() && !kept.sample().isEmpty()) {
			context.out().write("  ... and " + (kept.count() - kept.sample().size()) + " more\n");
		}
	}

	private static int restore(CommandContext context, Options.Parsed parsed, Options options)
			throws CommandFailure, IOException {
		String file = parsed.value("manifest");
		if (file == null) {
			throw CommandFailure.usage("--manifest is required", options.usage());
		}
		Repository repository = context.repository();
		Path manifest = resolve(repository, file);
		if (!Files.isRegularFile(manifest)) {
			throw CommandFailure.fatal("manifest '" + manifest + "' does not exist");
		}
		checkManifest(repository, manifest, file);
		try (LockOwner owner = claimLocks(context, "restore-refs");
				StoreGate.Run announced = beginRun(repository);
				RefStore store = RefStores.open(repository, ReflogPolicy.EXISTING_ONLY, owner)) {
			ChunkProgress shown = new ChunkProgress(Refs.progress(context, parsed), "Restoring refs");
			RestoreResult result;
			try {
				result = new RefRestorer(store).restore(manifest, shown);
			}
			finally {
				shown.stop();
			}
			if (result.conflict() != null) {
				throw CommandFailure.fatal(result.conflict().message() + "; nothing was restored");
			}
			context.out()
				.write("restored " + result.restored() + " refs (" + result.reflogEntries() + " reflog entries) in "
						+ result.chunks() + " chunks\n");
			if (result.present() > 0) {
				context.out().write(result.present() + " refs were already present\n");
			}
			if (result.skippedChunks() > 0) {
				context.out().write(result.skippedChunks() + " chunks were skipped: nothing of them was deleted\n");
			}
			if (result.failure() != null) {
				context.out().flush();
				throw CommandFailure.error(result.failure().describe(), 1);
			}
			return 0;
		}
	}

	/**
	 * Refuses a manifest that is a symbolic link, reached through one below the top of
	 * the repository, or written in another repository, as git refuses a bad argument.
	 */
	private static void checkManifest(Repository repository, Path manifest, String file)
			throws CommandFailure, IOException {
		Path top = repository.workTree().orElse(repository.gitDir());
		try {
			if (manifest.startsWith(top)) {
				RepositoryInputs.check("--manifest", top, ".", top.relativize(manifest).toString(),
						RepositoryInputs.Kind.FILE);
			}
			else if (Files.isSymbolicLink(manifest)) {
				throw new RefusedJobInputException("--manifest", file, "it is a symbolic link");
			}
			Optional<RepositoryId> recorded;
			try {
				recorded = Manifest.repositoryOf(manifest);
			}
			catch (IOException ex) {
				// not a manifest this refstore reads: the restore says why, line and all
				return;
			}
			RepositoryInputs.checkOwner("--manifest", file, recorded, repository);
		}
		catch (RefusedJobInputException ex) {
			throw CommandFailure.fatal("manifest '" + file + "' refused: " + ex.reason());
		}
	}

	/**
	 * A path given on the command line, relative to the top of the working tree (or the
	 * bare git directory).
	 */
	private static Path resolve(Repository repository, String file) {
		return repository.workTree().orElse(repository.gitDir()).resolve(file).normalize();
	}

	/**
	 * {@code <git-common-dir>/refstore/delete-<UTC time>.manifest}, numbered if that
	 * exists already.
	 */
	private static Path defaultManifest(Repository repository) {
		String time = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").format(ZonedDateTime.now(ZoneOffset.UTC));
		Path dir = repository.commonDir().resolve("refstore");
		Path path = dir.resolve("delete-" + time + ".manifest");
		for (int n = 2; Files.exists(path); n++) {
			path = dir.resolve("delete-" + time + "-" + n + ".manifest");
		}
		return path;
	}

	/**
	 * Shows the refs of each committed chunk as git-style progress (a count: how many a
	 * run will touch is known only as it goes).
	 */
	private static final class ChunkProgress implements ChunkListener {

		private final MigrationProgress progress;

		private long refs;

		ChunkProgress(MigrationProgress progress, String title) {
			this.progress = progress;
			progress.start(title, 0);
		}

		@Override
		public void afterCommit(int chunk, List<Ref> committed) {
			this.refs += committed.size();
			this.progress.update(this.refs);
		}

		void stop() {
			this.progress.stop();
		}

	}

}
