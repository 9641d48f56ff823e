package io.refstore.core.interop;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.refstore.core.testing.GitCli;

/**
 * A program that runs ref commands ({@code update-ref}, {@code symbolic-ref}, {@code pack-refs},
 * {@code show-ref}, {@code for-each-ref}) in a repository: git, the refstore command in this JVM, or the
 * refstore command as its own process from the cli jar. All three answer with a {@link GitCli.Result}, so a
 * test can hold two of them side by side. Implementations are stateless and thread-safe.
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

	/** The refstore command from the cli jar, one JVM per command (process-level behaviour). */
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
	 * The refstore command in this JVM through {@code io.refstore.core.cli.Refstore.run}, with the same fixed
	 * environment {@code git} gets.
	 * @throws IllegalStateException if the command is not on the class path
	 */
	static RefTool refstoreInProcess(Map<String, String> env) {
		Method entry = InProcess.entry();
		return new RefTool() {

			@Override
			public String name() {
				return "refstore (in-process)";
			}

			@Override
			public GitCli.Result run(Path dir, byte[] stdin, List<String> args) {
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				ByteArrayOutputStream err = new ByteArrayOutputStream();
				int exit = InProcess.invoke(entry, dir, env, new ByteArrayInputStream(stdin), out, err, args);
				List<String> command = new ArrayList<>(List.of("refstore"));
				command.addAll(args);
				return new GitCli.Result(command, exit, out.toByteArray(), err.toByteArray());
			}

		};
	}

	/** Reaches the in-process entry point without a compile-time dependency on the command's package. */
	final class InProcess {

		private InProcess() {
		}

		static Method entry() {
			try {
				return Class.forName("io.refstore.core.cli.Refstore")
					.getMethod("run", Path.class, Map.class, InputStream.class, OutputStream.class, OutputStream.class,
							String[].class);
			}
			catch (ClassNotFoundException | NoSuchMethodException ex) {
				throw new IllegalStateException("the refstore command (io.refstore.core.cli.Refstore.run(Path, Map, "
						+ "InputStream, OutputStream, OutputStream, String...)) is not on the class path; run with "
						+ "-Drefstore.difftest.twinB=git to check the harness with git on both twins", ex);
			}
		}

		static int invoke(Method entry, Path dir, Map<String, String> env, InputStream in, OutputStream out,
				OutputStream err, List<String> args) {
			try {
				return (int) entry.invoke(null, dir, env, in, out, err, args.toArray(String[]::new));
			}
			catch (IllegalAccessException ex) {
				throw new IllegalStateException(ex);
			}
			catch (InvocationTargetException ex) {
				throw new AssertionError("refstore " + args + " in " + dir + " threw instead of reporting an error",
						ex.getCause());
			}
		}

	}

}
