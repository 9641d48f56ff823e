package io.refstore.core.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One long-running {@code update-ref --stdin} process (git's or refstore's) driven
 * interactively: each {@link #transact(String)} writes {@code start}, the updates and
 * {@code commit}, then waits for the answers {@code start: ok} and {@code commit: ok}. A
 * refused transaction ends the process with exit code 128, as git does; the next call
 * starts a new one. This is how servers drive git (one session, many transactions), so it
 * also checks that the command answers each command as soon as it is read. Used by one
 * thread.
 */
final class UpdateRefProcess implements AutoCloseable {

	/** Marks the end of standard output in the line queue. */
	private static final String END = "\0end";

	private final List<String> command;

	private final Map<String, String> env;

	private final Path dir;

	private Process process;

	private OutputStream stdin;

	private BlockingQueue<String> lines;

	private StringBuffer stderr;

	private Thread errorReader;

	private int starts;

	private String lastError = "";

	/**
	 * A ref name only this worker verifies when warming up: a shared one would make
	 * workers race for its lock.
	 */
	private final String warmUpPrefix;

	/**
	 * @param command the program and its leading arguments (git, or java -jar the
	 * refstore jar)
	 * @param env the environment added to the inherited one
	 * @param dir the repository to run in
	 * @param message the reflog message ({@code -m})
	 */
	UpdateRefProcess(List<String> command, Map<String, String> env, Path dir, String message) {
		this.command = new ArrayList<>(command);
		this.command.addAll(List.of("update-ref", "-m", message, "--stdin"));
		this.env = env;
		this.dir = dir;
		this.warmUpPrefix = "refs/heads/warm-up-" + message.replaceAll("[^A-Za-z0-9]", "-") + "-";
	}

	/**
	 * Starts the process (if it is not running) and lets it run one transaction that
	 * changes nothing, so that the next {@link #transact(String)} meets a warm process (a
	 * new JVM's first transaction is slow).
	 */
	void warmUp() {
		if (this.process == null && !transact("verify " + this.warmUpPrefix + this.starts + "\n")) {
			throw new AssertionError(this.command + " refused a transaction that changes nothing: " + this.lastError);
		}
	}

	/**
	 * Runs one transaction.
	 * @param updates update-ref commands, each ending in a newline
	 * @return whether it was committed; if not, {@link #lastError()} says why
	 * @throws AssertionError if the process answers something else than git would, exits
	 * with another code than 128, or does not answer within 60 seconds
	 */
	boolean transact(String updates) {
		if (this.process == null) {
			start();
		}
		try {
			this.stdin.write(("start\n" + updates + "commit\n").getBytes(StandardCharsets.UTF_8));
			this.stdin.flush();
		}
		catch (IOException ex) {
			// the process died before reading everything; its exit tells why
		}
		for (String expected : List.of("start: ok", "commit: ok")) {
			String line = nextLine();
			if (line.equals(END)) {
				return died();
			}
			if (!line.equals(expected)) {
				throw new AssertionError(
						this.command + " answered '" + line + "' where git answers '" + expected + "'");
			}
		}
		return true;
	}

	/** The error output of the last process that refused a transaction. */
	String lastError() {
		return this.lastError;
	}

	/** How many processes were started. */
	int starts() {
		return this.starts;
	}

	private void start() {
		ProcessBuilder builder = new ProcessBuilder(this.command).directory(this.dir.toFile());
		builder.environment().putAll(this.env);
		try {
			this.process = builder.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot start " + this.command, ex);
		}
		this.starts++;
		this.stdin = this.process.getOutputStream();
		this.lines = new LinkedBlockingQueue<>();
		this.stderr = new StringBuffer();
		pump(this.process.getInputStream(), this.lines);
		this.errorReader = drain(this.process.getErrorStream(), this.stderr);
	}

	private String nextLine() {
		try {
			String line = this.lines.poll(60, TimeUnit.SECONDS);
			if (line == null) {
				this.process.destroyForcibly();
				throw new AssertionError(this.command + " gave no answer within 60 s: update-ref --stdin must answer "
						+ "each command as soon as it has read it");
			}
			return line;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private boolean died() {
		try {
			if (!this.process.waitFor(60, TimeUnit.SECONDS)) {
				throw new AssertionError(this.command + " closed its output but did not exit");
			}
			int exit = this.process.exitValue();
			this.errorReader.join(10_000);
			this.lastError = this.stderr.toString().strip();
			this.process = null;
			if (exit != 128) {
				throw new AssertionError(this.command + " refused a transaction with exit code " + exit
						+ " (git: 128): " + this.lastError);
			}
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void pump(InputStream stream, BlockingQueue<String> lines) {
		Thread reader = new Thread(() -> {
			try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
				for (String line = in.readLine(); line != null; line = in.readLine()) {
					lines.add(line);
				}
			}
			catch (IOException ex) {
				// the process is gone: the end marker below says so
			}
			lines.add(END);
		});
		reader.setDaemon(true);
		reader.start();
	}

	private static Thread drain(InputStream stream, StringBuffer sink) {
		Thread reader = new Thread(() -> {
			try (stream) {
				sink.append(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
			}
			catch (IOException ex) {
				// nothing more to read
			}
		});
		reader.setDaemon(true);
		reader.start();
		return reader;
	}

	/**
	 * Ends the session: closes standard input (git then aborts nothing, all was
	 * committed) and waits.
	 */
	@Override
	public void close() {
		if (this.process == null) {
			return;
		}
		try {
			this.stdin.close();
			if (!this.process.waitFor(60, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
				throw new AssertionError(this.command + " did not exit at the end of its input");
			}
			if (this.process.exitValue() != 0) {
				throw new AssertionError(this.command + " exited with " + this.process.exitValue() + " at the end of "
						+ "its input: " + this.stderr);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		finally {
			this.process = null;
		}
	}

}
