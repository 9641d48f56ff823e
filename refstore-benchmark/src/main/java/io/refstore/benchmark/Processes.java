package io.refstore.benchmark;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts git and the refstore command as whole processes with one fixed environment (no
 * system or global git config, fixed identity and clock), and measures them: wall time
 * from start to exit, and peak resident memory through GNU time
 * ({@code /usr/bin/time -f %M}, Debian's {@code time} package) when it is installed.
 * Stateless apart from its configuration; thread-safe.
 */
final class Processes {

	/** The exit code recorded for a process killed because it ran too long. */
	static final int TIMED_OUT = -1;

	/** GNU time, whose {@code %M} is the peak resident set of the command in KiB. */
	static final Path GNU_TIME = Path.of("/usr/bin/time");

	private final Map<String, String> env;

	private final boolean measureRss;

	/** Where GNU time's report and captured error output go. */
	private final Path scratch;

	private final Duration timeout;

	Processes(Map<String, String> env, boolean measureRss, Path scratch, Duration timeout) {
		this.env = Map.copyOf(env);
		this.measureRss = measureRss;
		this.scratch = scratch;
		this.timeout = timeout;
	}

	/**
	 * The fixed environment every command of the benchmark runs with, on top of the
	 * inherited one.
	 */
	static Map<String, String> fixedEnv() {
		Map<String, String> env = new LinkedHashMap<>();
		env.put("GIT_CONFIG_NOSYSTEM", "1");
		env.put("GIT_CONFIG_GLOBAL", "/dev/null");
		env.put("GIT_AUTHOR_NAME", "A U Thor");
		env.put("GIT_AUTHOR_EMAIL", "author@example.com");
		env.put("GIT_AUTHOR_DATE", "@1700000000 +0000");
		env.put("GIT_COMMITTER_NAME", "C O Mitter");
		env.put("GIT_COMMITTER_EMAIL", "committer@example.com");
		env.put("GIT_COMMITTER_DATE", "@1700000000 +0000");
		env.put("LC_ALL", "C");
		env.put("TZ", "UTC");
		return env;
	}

	/** Whether GNU time is there to measure peak RSS. */
	static boolean gnuTimeAvailable() {
		return Files.isExecutable(GNU_TIME);
	}

	/**
	 * The git to measure against: {@code REFSTORE_REFTABLE_GIT}, the path
	 * {@code .ci/install-reftable-git.sh} prints, once {@code git version} says it is
	 * 2.45 or later (the first git that knows reftable).
	 * @throws IllegalStateException if it is unset or an older git, saying how to get one
	 * @throws IOException if it cannot be run
	 */
	static String reftableGit(Map<String, String> env) throws IOException {
		String git = env.get("REFSTORE_REFTABLE_GIT");
		String howTo = "set REFSTORE_REFTABLE_GIT to a git 2.45 or later (.ci/install-reftable-git.sh installs one"
				+ " and prints its path)";
		if (git == null || git.isBlank()) {
			throw new IllegalStateException(howTo);
		}
		Process process = new ProcessBuilder(git, "version").redirectErrorStream(true).start();
		String version = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		try {
			process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted while asking " + git + " its version", ex);
		}
		Matcher numbers = Pattern.compile("git version (\\d+)\\.(\\d+)").matcher(version);
		if (!numbers.lookingAt()
				|| Integer.parseInt(numbers.group(1)) * 1000 + Integer.parseInt(numbers.group(2)) < 2045) {
			throw new IllegalStateException(git + " says '" + version + "': " + howTo);
		}
		return git;
	}

	/**
	 * The environment a command sees: the inherited one with {@link #fixedEnv()} over it.
	 */
	Map<String, String> env() {
		return this.env;
	}

	/**
	 * Runs a command and measures it.
	 * @param command the executable and its arguments
	 * @param dir the working directory
	 * @param stdin a file for standard input, or {@code null} for none
	 * @param stdout where standard output goes (a file, so that printing a million refs
	 * costs both sides the same)
	 * @param extraEnv variables to add for this command
	 * @return wall time, peak RSS (or -1 without GNU time), exit code and the end of
	 * standard error; after the timeout, the process is killed and the exit code is
	 * {@link #TIMED_OUT}
	 */
	Measured measure(List<String> command, Path dir, Path stdin, Path stdout, Map<String, String> extraEnv) {
		List<String> cmd = new ArrayList<>();
		Path rssFile = this.scratch.resolve("time.txt");
		if (this.measureRss) {
			cmd.addAll(List.of(GNU_TIME.toString(), "-f", "%M", "-o", rssFile.toString()));
		}
		cmd.addAll(command);
		try {
			Path stderr = Files.createTempFile(this.scratch, "stderr", ".txt");
			ProcessBuilder builder = builder(cmd, dir).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
			builder.environment().putAll(extraEnv);
			builder.redirectInput((stdin != null) ? ProcessBuilder.Redirect.from(stdin.toFile())
					: ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
			long start = System.nanoTime();
			Process process = builder.start();
			if (!process.waitFor(this.timeout.toNanos(), TimeUnit.NANOSECONDS)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly().waitFor();
				Files.deleteIfExists(stderr);
				Files.deleteIfExists(rssFile);
				return new Measured(command, System.nanoTime() - start, -1, TIMED_OUT,
						"timed out after " + this.timeout.toMinutes() + " min (--timeout)");
			}
			int exit = process.exitValue();
			long wall = System.nanoTime() - start;
			String err = tail(Files.readString(stderr, StandardCharsets.UTF_8));
			Files.delete(stderr);
			long rss = this.measureRss ? readRss(rssFile) : -1;
			return new Measured(command, wall, rss, exit, err);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot run " + command, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while running " + command, ex);
		}
	}

	/** {@link #measure(List, Path, Path, Path, Map)} in the common environment. */
	Measured measure(List<String> command, Path dir, Path stdin, Path stdout) {
		return measure(command, dir, stdin, stdout, Map.of());
	}

	/**
	 * Runs a setup command that must succeed, feeding it what {@code input} writes.
	 * @return its standard output
	 * @throws IllegalStateException naming the command, its exit code and error output if
	 * it fails
	 */
	String check(List<String> command, Path dir, StdinWriter input) {
		try {
			Path out = Files.createTempFile(this.scratch, "setup", ".out");
			Path err = Files.createTempFile(this.scratch, "setup", ".err");
			try {
				Process process = builder(command, dir).redirectOutput(out.toFile())
					.redirectError(err.toFile())
					.start();
				try (OutputStream in = process.getOutputStream()) {
					if (input != null) {
						input.write(in);
					}
				}
				int exit = process.waitFor();
				if (exit != 0) {
					throw new IllegalStateException(command + " in " + dir + " exited with " + exit + ": "
							+ tail(Files.readString(err, StandardCharsets.UTF_8)));
				}
				return Files.readString(out, StandardCharsets.UTF_8);
			}
			finally {
				Files.deleteIfExists(out);
				Files.deleteIfExists(err);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot run " + command + " in " + dir, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while running " + command, ex);
		}
	}

	/**
	 * Runs a setup command with no input that must succeed; returns its standard output.
	 */
	String check(List<String> command, Path dir) {
		return check(command, dir, null);
	}

	private ProcessBuilder builder(List<String> command, Path dir) {
		ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
		builder.environment().putAll(this.env);
		return builder;
	}

	private static long readRss(Path file) throws IOException {
		// GNU time writes "Command exited with non-zero status N" before the format's
		// line when the command fails
		List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		Files.delete(file);
		String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
		try {
			return Long.parseLong(last);
		}
		catch (NumberFormatException ex) {
			throw new IllegalStateException(GNU_TIME + " wrote '" + last + "' to " + file + ", not a size in KiB");
		}
	}

	private static String tail(String text) {
		String stripped = text.strip();
		return (stripped.length() <= 2000) ? stripped : "..." + stripped.substring(stripped.length() - 2000);
	}

	/** Writes a command's standard input. */
	@FunctionalInterface
	interface StdinWriter {

		void write(OutputStream in) throws IOException;

	}

	/**
	 * One finished, measured process.
	 *
	 * @param command what ran (without the GNU time prefix)
	 * @param wallNanos from start to exit
	 * @param peakRssKib the peak resident set in KiB, or -1 if not measured
	 * @param exitCode the exit code
	 * @param stderr the end of its standard error
	 */
	record Measured(List<String> command, long wallNanos, long peakRssKib, int exitCode, String stderr) {

		/** This measurement, if the command exited with 0. */
		Measured requireOk() {
			if (this.exitCode != 0) {
				throw new IllegalStateException(this.command + " exited with " + this.exitCode + ": " + this.stderr);
			}
			return this;
		}

	}

}
