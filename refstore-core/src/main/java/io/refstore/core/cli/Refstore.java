package io.refstore.core.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.cli.env.Trace2;
import io.refstore.core.cli.options.GlobalOptions;
import io.refstore.core.cli.options.UsageName;
import io.refstore.core.journal.WriterKind;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.repo.ConfigValueException;
import io.refstore.core.repo.GitHooks;

/**
 * The {@code refstore} command: git's ref plumbing ({@code show-ref},
 * {@code for-each-ref}, {@code update-ref}, {@code symbolic-ref}, {@code pack-refs}) on
 * refstore's engine, with git's syntax, output bytes and exit codes.
 *
 * <pre>
 * refstore [-C &lt;path&gt;] [-c &lt;name&gt;=&lt;value&gt;] [--git-dir=&lt;path&gt;] ... &lt;command&gt; [&lt;args&gt;]
 * </pre>
 *
 * <p>
 * Errors end in a {@code fatal:} or {@code error:} line naming the culprit, never a stack
 * trace (set {@code REFSTORE_TRACE=1} in the environment to get one). Exit codes: 0
 * success, 1 "nothing matched" or a failed deletion, 128 fatal errors, 129 usage errors,
 * 141 when standard output was closed early.
 *
 * <p>
 * {@link #run} holds no state between calls and may be called by several threads at once.
 */
public final class Refstore {

	private static final Map<String, Supplier<Command>> COMMANDS = Map.of("show-ref", ShowRef::new, "for-each-ref",
			ForEachRef::new, "update-ref", UpdateRef::new, "symbolic-ref", SymbolicRefCommand::new, "pack-refs",
			PackRefs::new, "refs", Refs::new, "delete-refs", DeleteRefs::delete, "restore-refs", DeleteRefs::restore,
			"journal", JournalCommand::new);

	private static final String USAGE = """
			usage: refstore [-C <path>] [-c <name>=<value>] [--config-env=<name>=<envvar>]
			                [--git-dir=<path>] [--work-tree=<path>] [--namespace=<name>] [--bare]
			                [--version]
			                <command> [<args>]

			   show-ref       list refs and their object ids
			   for-each-ref   print refs in a given format
			   update-ref     update, create or delete refs, one or many in a transaction
			   symbolic-ref   read, write or delete a symbolic ref
			   pack-refs      move loose refs into packed-refs
			   refs           migrate between ref formats, roll back, verify the ref store
			   delete-refs    delete many refs in chunks, recording a manifest
			   restore-refs   restore the refs a delete-refs manifest recorded
			   journal        record every ref change (a git hook) and list them
			""";

	/**
	 * Exit code when standard output was closed early: what a shell reports for death by
	 * SIGPIPE.
	 */
	private static final int CLOSED_OUTPUT = 141;

	private Refstore() {
	}

	/**
	 * Runs a command in this process's working directory, environment and standard
	 * streams, and exits with its exit code.
	 */
	public static void main(String[] args) {
		// the journal's hook names the command as the writer of its changes, unless the
		// caller named another
		Map<String, String> env = new HashMap<>(System.getenv());
		env.putIfAbsent(GitHooks.WRITER_KIND, WriterKind.REFSTORE_CLI.word());
		int code = run(Path.of("").toAbsolutePath(), env, System.in, new FileOutputStream(FileDescriptor.out),
				new PrintStream(new FileOutputStream(FileDescriptor.err)), args);
		System.exit(code);
	}

	/**
	 * Runs a command in-process, without touching the process's streams or exiting.
	 * @param cwd the working directory: the repository is searched for from here
	 * @param env the environment (config locations, committer identity and date,
	 * {@code TZ})
	 * @param in standard input (read only by {@code update-ref --stdin})
	 * @param out standard output
	 * @param err standard error
	 * @param args the command line after {@code refstore}
	 * @return the exit code
	 */
	public static int run(Path cwd, Map<String, String> env, InputStream in, OutputStream out, OutputStream err,
			String... args) {
		Trace2 trace = Trace2.start(env, err, Arrays.asList(args));
		int code = runCommand(cwd, env, in, out, err, args);
		if (trace != null) {
			trace.exit(code);
		}
		return code;
	}

	private static int runCommand(Path cwd, Map<String, String> env, InputStream in, OutputStream out, OutputStream err,
			String[] args) {
		OutBuffer stdout = new OutBuffer(out);
		int code;
		try {
			code = dispatch(cwd, env, in, stdout, err, Arrays.asList(args));
			stdout.flush();
		}
		catch (CommandFailure failure) {
			code = failure.exitCode();
			flushQuietly(stdout);
			print(failure.toStdout() ? out : err, UsageName.apply(env, failure.text()));
		}
		catch (IOException | RuntimeException ex) {
			flushQuietly(stdout);
			if (stdout.failed()) {
				return CLOSED_OUTPUT;
			}
			code = CommandFailure.FATAL;
			String message = (ex instanceof ConfigValueException value)
					? value.message((file) -> configFileAsGitNamesIt(cwd, env, file)) : describe(ex);
			print(err, "fatal: " + message + "\n");
			if (env.containsKey("REFSTORE_TRACE")) {
				ex.printStackTrace(new PrintStream(err, true, StandardCharsets.UTF_8));
			}
		}
		flushQuietly(stdout);
		return stdout.failed() ? CLOSED_OUTPUT : code;
	}

	private static int dispatch(Path cwd, Map<String, String> env, InputStream in, OutBuffer out, OutputStream err,
			List<String> args) throws CommandFailure, IOException {
		Path dir = cwd;
		GlobalOptions globals = new GlobalOptions(env);
		int i = 0;
		for (; i < args.size() && args.get(i).startsWith("-"); i++) {
			String arg = args.get(i);
			if (arg.equals("-C")) {
				if (++i == args.size()) {
					throw CommandFailure.usage("no directory given for -C", USAGE);
				}
				dir = changeDirectory(dir, args.get(i));
			}
			else if (arg.equals("-h") || arg.equals("--help")) {
				out.write(UsageName.apply(env, USAGE));
				return 0;
			}
			else if (arg.equals("--version") || arg.equals("-v")) {
				out.write(GlobalOptions.version());
				return 0;
			}
			else {
				i = globals.parse(args, i, USAGE);
			}
		}
		env = globals.environment();
		if (i == args.size()) {
			out.write(UsageName.apply(env, USAGE));
			return 1;
		}
		Supplier<Command> command = COMMANDS.get(args.get(i));
		if (command == null) {
			throw CommandFailure.usage("'" + args.get(i) + "' is not a refstore command", USAGE);
		}
		try (CommandContext context = new CommandContext(args.get(i), dir, env, in, out, err)) {
			return command.get().run(context, args.subList(i + 1, args.size()));
		}
	}

	private static Path changeDirectory(Path dir, String to) throws CommandFailure {
		if (to.isEmpty()) {
			return dir;
		}
		Path target = dir.resolve(to).normalize();
		if (!Files.isDirectory(target)) {
			throw CommandFailure.fatal("cannot change to '" + to + "': "
					+ (Files.exists(target) ? "Not a directory" : "No such file or directory"));
		}
		return target;
	}

	/**
	 * A repository's config file as git names it in a message: below the git directory as
	 * {@code GIT_DIR} gave it, {@code .git/config} from a working tree (git works from
	 * its top), {@code ./config} in the git directory itself; any other file by its path.
	 */
	static String configFileAsGitNamesIt(Path cwd, Map<String, String> env, Path file) {
		Path gitDir = file.getParent();
		if (gitDir == null || !file.getFileName().toString().equals("config")) {
			return file.toString();
		}
		String given = env.get("GIT_DIR");
		if (given != null && !given.isEmpty()) {
			return given + "/config";
		}
		try {
			Path here = cwd.toRealPath();
			if (gitDir.equals(here)) {
				return "./config";
			}
			Path top = gitDir.getParent();
			if (gitDir.getFileName().toString().equals(".git") && top != null && here.startsWith(top)
					&& !here.startsWith(gitDir)) {
				return ".git/config";
			}
		}
		catch (IOException ex) {
			// the directory is gone: name the file by its path
		}
		return file.toString();
	}

	/**
	 * A one-line description of an unexpected failure, naming the file where there is
	 * one.
	 */
	static String describe(Throwable ex) {
		Throwable cause = (ex instanceof UncheckedIOException unchecked) ? unchecked.getCause() : ex;
		if (cause instanceof CorruptRefStoreException corrupt && corrupt.gitMessage() != null) {
			return corrupt.gitMessage();
		}
		if (cause instanceof FileSystemException fs) {
			String reason = fs.getReason();
			String what = switch (fs.getClass().getSimpleName()) {
				case "NoSuchFileException" -> "no such file or directory";
				case "AccessDeniedException" -> "permission denied";
				case "FileAlreadyExistsException" -> "file exists";
				case "NotDirectoryException" -> "not a directory";
				case "DirectoryNotEmptyException" -> "directory not empty";
				default -> (reason != null) ? reason : fs.getClass().getSimpleName();
			};
			return fs.getFile() + ": " + what + ((fs.getOtherFile() != null) ? " (" + fs.getOtherFile() + ")" : "");
		}
		String message = cause.getMessage();
		if (cause instanceof IOException || cause instanceof IllegalArgumentException) {
			return (message != null) ? message : cause.getClass().getSimpleName();
		}
		return "internal error: " + cause.getClass().getName() + ((message != null) ? ": " + message : "")
				+ " (run with REFSTORE_TRACE=1 for details)";
	}

	private static void flushQuietly(OutBuffer stdout) {
		try {
			stdout.flush();
		}
		catch (IOException ex) {
			// recorded by the buffer: the exit code says output was lost
		}
	}

	private static void print(OutputStream stream, String text) {
		try {
			stream.write(text.getBytes(StandardCharsets.UTF_8));
			stream.flush();
		}
		catch (IOException ex) {
			// nowhere left to report it
		}
	}

}
