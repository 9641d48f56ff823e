package io.refstore.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a real git (or the refstore command) as a process with a fixed, isolated
 * environment: no system or global config, a fixed identity and a fixed clock, so that
 * two runs of the same commands produce the same bytes.
 */
public final class GitCli {

	/** The fixed time of every commit and reflog entry made through this class. */
	public static final String FIXED_DATE = "@1700000000 +0000";

	/** {@link #reftable()}, once found and checked. */
	private static GitCli reftableGit;

	private final List<String> command;

	private final Map<String, String> env;

	private GitCli(List<String> command, Map<String, String> env) {
		this.command = List.copyOf(command);
		this.env = Map.copyOf(env);
	}

	/** The git on the PATH (2.39 on this project's machines: files backend only). */
	public static GitCli system() {
		return new GitCli(List.of("git"), baseEnv());
	}

	/**
	 * A git that reads and writes reftable repositories (git 2.45 or newer): the one
	 * named by the environment variable {@code REFSTORE_REFTABLE_GIT} (the path that
	 * {@code .ci/install-reftable-git.sh} prints), else the newest that the script
	 * installed in its default place,
	 * {@code ${REFSTORE_TOOLS:-$HOME/.cache/refstore}/git-<version>/bin/git}. Found and
	 * checked once per JVM.
	 * @throws IllegalStateException if there is none, it does not run, or it is older
	 * than 2.45; the message says how to install one. Tests fail then: they are never
	 * skipped.
	 */
	public static synchronized GitCli reftable() {
		if (reftableGit == null) {
			Path git = ReftableGit.locate(System.getenv(), Path.of(System.getProperty("user.home")));
			GitCli cli = new GitCli(List.of(git.toString()), baseEnv());
			Result version;
			try {
				version = cli.run(Path.of(System.getProperty("java.io.tmpdir")), "version");
			}
			catch (UncheckedIOException ex) {
				throw new IllegalStateException(
						git + " does not run (" + ex.getCause().getMessage() + "): " + ReftableGit.HOW_TO_INSTALL, ex);
			}
			if (version.exitCode() != 0) {
				throw new IllegalStateException(git + " version exited with " + version.exitCode() + ": "
						+ version.stderr().strip() + "; " + ReftableGit.HOW_TO_INSTALL);
			}
			ReftableGit.requireReftable(git, version.stdout());
			reftableGit = cli;
		}
		return reftableGit;
	}

	/**
	 * The refstore command from the jar built by {@code package}, found through the
	 * system property {@code refstore.cliJar} that failsafe sets.
	 * @throws IllegalStateException if the jar is missing
	 */
	public static GitCli refstore() {
		String jar = System.getProperty("refstore.cliJar");
		if (jar == null || !Files.isRegularFile(Path.of(jar))) {
			throw new IllegalStateException("the refstore command jar is missing (system property refstore.cliJar = "
					+ jar + "); run the tests through './mvnw verify', which builds it first");
		}
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		return new GitCli(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar), baseEnv());
	}

	/**
	 * Any command line (such as an installed {@code refstore} launcher) with the
	 * environment git runs with.
	 */
	public static GitCli command(List<String> command) {
		return new GitCli(List.copyOf(command), baseEnv());
	}

	private static Map<String, String> baseEnv() {
		Map<String, String> env = new LinkedHashMap<>();
		env.put("GIT_CONFIG_NOSYSTEM", "1");
		env.put("GIT_CONFIG_GLOBAL", "/dev/null");
		env.put("GIT_AUTHOR_NAME", "A U Thor");
		env.put("GIT_AUTHOR_EMAIL", "author@example.com");
		env.put("GIT_AUTHOR_DATE", FIXED_DATE);
		env.put("GIT_COMMITTER_NAME", "C O Mitter");
		env.put("GIT_COMMITTER_EMAIL", "committer@example.com");
		env.put("GIT_COMMITTER_DATE", FIXED_DATE);
		env.put("LC_ALL", "C.UTF-8");
		env.put("TZ", "UTC");
		return env;
	}

	/** This command with one more environment variable. */
	public GitCli withEnv(String name, String value) {
		Map<String, String> env = new LinkedHashMap<>(this.env);
		env.put(name, value);
		return new GitCli(this.command, env);
	}

	/**
	 * The environment every run gets (on top of the inherited one): identity, clock,
	 * locale.
	 */
	public Map<String, String> env() {
		return this.env;
	}

	/** The executable and its fixed leading arguments. */
	public List<String> command() {
		return this.command;
	}

	/**
	 * The variables this command runs with on top of the inherited environment (for a
	 * process started by hand).
	 */
	public Map<String, String> environment() {
		return this.env;
	}

	/**
	 * Runs the command in {@code dir} and waits for it.
	 * @param dir the working directory
	 * @param stdin bytes for standard input (may be empty)
	 * @param args the arguments after the executable
	 * @return what the process printed and its exit code
	 */
	public Result run(Path dir, byte[] stdin, String... args) {
		List<String> cmd = new ArrayList<>(this.command);
		cmd.addAll(Arrays.asList(args));
		ProcessBuilder builder = new ProcessBuilder(cmd).directory(dir.toFile());
		builder.environment().putAll(this.env);
		try {
			Process process = builder.start();
			CompletableFuture<byte[]> out = drain(process.getInputStream());
			CompletableFuture<byte[]> err = drain(process.getErrorStream());
			try (OutputStream in = process.getOutputStream()) {
				in.write(stdin);
			}
			catch (IOException ex) {
				// the process may exit without reading its input (a usage error): its
				// output says why
			}
			if (!process.waitFor(5, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IllegalStateException("timed out: " + cmd);
			}
			return new Result(cmd, process.exitValue(), out.join(), err.join());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot run " + cmd, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted: " + cmd, ex);
		}
	}

	/** Runs with empty standard input. */
	public Result run(Path dir, String... args) {
		return run(dir, new byte[0], args);
	}

	/**
	 * Runs and requires exit code 0.
	 * @return standard output as UTF-8
	 * @throws AssertionError naming the command, its exit code and its error output
	 * otherwise
	 */
	public String ok(Path dir, String... args) {
		return run(dir, args).requireOk().stdout();
	}

	private static CompletableFuture<byte[]> drain(InputStream stream) {
		return CompletableFuture.supplyAsync(() -> {
			try (stream) {
				ByteArrayOutputStream buffer = new ByteArrayOutputStream();
				stream.transferTo(buffer);
				return buffer.toByteArray();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

	/**
	 * A finished process.
	 *
	 * @param command what ran
	 * @param exitCode its exit code
	 * @param out standard output bytes
	 * @param err standard error bytes
	 */
	public record Result(List<String> command, int exitCode, byte[] out, byte[] err) {

		/** Standard output as UTF-8. */
		public String stdout() {
			return new String(this.out, StandardCharsets.UTF_8);
		}

		/** Standard error as UTF-8. */
		public String stderr() {
			return new String(this.err, StandardCharsets.UTF_8);
		}

		/** This result, if the exit code is 0. */
		public Result requireOk() {
			if (this.exitCode != 0) {
				throw new AssertionError(this.command + " exited with " + this.exitCode + ": " + stderr());
			}
			return this;
		}

	}

}
