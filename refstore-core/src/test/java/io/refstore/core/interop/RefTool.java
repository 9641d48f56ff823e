package io.refstore.core.interop;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.refstore.core.cli.Refstore;
import io.refstore.core.testing.GitCli;

/**
 * A program that runs ref commands ({@code update-ref}, {@code symbolic-ref},
 * {@code pack-refs}, {@code show-ref}, {@code for-each-ref}) in a repository: git, the
 * refstore command in this JVM, or the refstore command as its own process from the cli
 * jar. All three answer with a {@link GitCli.Result}, so a test can hold two of them side
 * by side. Implementations are stateless and thread-safe.
 */
interface RefTool {

	/** A short name for messages. */
	String name();

	/**
	 * Runs one command and waits for it.
	 * @param dir the working directory (a working tree, or a bare repository)
	 * @param stdin the standard input
	 * @param args the arguments after the program name
	 * @return what it printed and its exit code
	 */
	GitCli.Result run(Path dir, byte[] stdin, List<String> args);

	/**
	 * This tool, adding the wall-clock time of every run to {@code clock} (nanoseconds),
	 * for the report of where a test spends its time.
	 */
	default RefTool timed(AtomicLong clock) {
		RefTool tool = this;
		return new RefTool() {

			@Override
			public String name() {
				return tool.name();
			}

			@Override
			public GitCli.Result run(Path dir, byte[] stdin, List<String> args) {
				long start = System.nanoTime();
				try {
					return tool.run(dir, stdin, args);
				}
				finally {
					clock.addAndGet(System.nanoTime() - start);
				}
			}

		};
	}

	/** git itself. */
	static RefTool git(GitCli git) {
		return new RefTool() {

			@Override
			public String name() {
				return "git";
			}

			@Override
			public GitCli.Result run(Path dir, byte[] stdin, List<String> args) {
				return git.run(dir, stdin, args.toArray(String[]::new));
			}

		};
	}

	/**
	 * The refstore command from the cli jar, one JVM per command (process-level
	 * behaviour).
	 */
	static RefTool refstoreJar() {
		GitCli refstore = GitCli.refstore();
		return new RefTool() {

			@Override
			public String name() {
				return "refstore (jar)";
			}

			@Override
			public GitCli.Result run(Path dir, byte[] stdin, List<String> args) {
				return refstore.run(dir, stdin, args.toArray(String[]::new));
			}

		};
	}

	/**
	 * The refstore command in this JVM through {@link Refstore#run}, with the same fixed
	 * environment {@code git} gets.
	 */
	static RefTool refstoreInProcess(Map<String, String> env) {
		return new RefTool() {

			@Override
			public String name() {
				return "refstore (in-process)";
			}

			@Override
			public GitCli.Result run(Path dir, byte[] stdin, List<String> args) {
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				ByteArrayOutputStream err = new ByteArrayOutputStream();
				int exit;
				try {
					exit = Refstore.run(dir, env, new ByteArrayInputStream(stdin), out, err,
							args.toArray(String[]::new));
				}
				catch (RuntimeException ex) {
					throw new AssertionError("refstore " + args + " in " + dir + " threw instead of reporting an error",
							ex);
				}
				List<String> command = new ArrayList<>(List.of("refstore"));
				command.addAll(args);
				return new GitCli.Result(command, exit, out.toByteArray(), err.toByteArray());
			}

		};
	}

}
