package io.refstore.core.cli.env;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.ProcessLocks;

/**
 * What a command runs against: the directory it was started in, its environment and
 * standard streams, and the repository found there, opened on first use and closed when
 * the command ends.
 *
 * <p>
 * Belongs to one command run; not thread-safe.
 */
public final class CommandContext implements AutoCloseable {

	/**
	 * git's abbreviation when the object count gives no larger one (small repositories).
	 */
	static final int DEFAULT_ABBREV = 7;

	/** git never abbreviates to fewer digits. */
	public static final int MINIMUM_ABBREV = 4;

	private final Path cwd;

	private final Map<String, String> env;

	private final InputStream in;

	private final OutBuffer out;

	private final OutputStream err;

	private Repository repository;

	private RefStore refs;

	/**
	 * The record of the locks this command takes, so that the next command clears those a
	 * kill or a power cut leaves.
	 */
	private final ProcessLocks locks;

	/**
	 * @param command the command's name, for the record of its locks
	 */
	public CommandContext(String command, Path cwd, Map<String, String> env, InputStream in, OutBuffer out,
			OutputStream err) {
		this.locks = new ProcessLocks(command);
		this.cwd = cwd;
		this.env = env;
		this.in = in;
		this.out = out;
		this.err = err;
	}

	/** Standard input. */
	public InputStream in() {
		return this.in;
	}

	/** Standard error, unbuffered. */
	public OutputStream err() {
		return this.err;
	}

	/**
	 * Whether standard error is a terminal, as the launcher found it (Java cannot tell):
	 * git shows progress there.
	 */
	public boolean stderrIsTerminal() {
		return Boolean.getBoolean("refstore.stderr.tty");
	}

	/** Standard output, buffered. */
	public OutBuffer out() {
		return this.out;
	}

	/** The repository at or above the working directory, opened on first use. */
	public Repository repository() throws IOException {
		if (this.repository == null) {
			this.repository = Repository.open(this.cwd, this.env);
		}
		return this.repository;
	}

	/**
	 * The repository's ref store (in the format its configuration names), opened on first
	 * use. Its locks are links to this command's owner record: a command killed while it
	 * holds them leaves locks the next command clears when it needs them.
	 */
	public RefStore refs() throws IOException {
		if (this.refs == null) {
			this.refs = this.locks.open(repository());
		}
		return this.refs;
	}

	/** The repository's object database. */
	public ObjectDatabase objects() throws IOException {
		return repository().objectDatabase();
	}

	/**
	 * The digits of an abbreviated object name: {@code core.abbrev} if it is a number (at
	 * least 4), the full id if it is {@code no}, else git's small-repository default of
	 * 7.
	 */
	public int defaultAbbrev() throws IOException {
		int hexLength = repository().hashAlgorithm().hexLength();
		Optional<String> configured = repository().config().getString("core", null, "abbrev");
		if (configured.isEmpty() || configured.get().equals("auto")) {
			return DEFAULT_ABBREV;
		}
		if (configured.get().equalsIgnoreCase("no") || configured.get().equalsIgnoreCase("false")) {
			return hexLength;
		}
		try {
			return Math.min(Math.max(Integer.parseInt(configured.get()), MINIMUM_ABBREV), hexLength);
		}
		catch (NumberFormatException ex) {
			return DEFAULT_ABBREV;
		}
	}

	/**
	 * The git directory as git names it in what it prints: as {@code GIT_DIR} or
	 * {@code --git-dir} gave it; {@code .git} when found through a working tree (git
	 * works from the tree's top); {@code .} when the command runs in the git directory
	 * itself; else the absolute path (a linked worktree's, or from inside a git
	 * directory).
	 */
	public String shownGitDir() throws IOException {
		String given = this.env.get("GIT_DIR");
		if (given != null && !given.isEmpty()) {
			return given;
		}
		Repository repo = repository();
		Path gitDir = repo.gitDir();
		if (gitDir.equals(this.cwd.toRealPath())) {
			return ".";
		}
		if (repo.workTree().isPresent() && gitDir.equals(repo.workTree().get().resolve(".git"))) {
			return ".git";
		}
		return gitDir.toString();
	}

	/** The directory the command was started in. */
	public Path cwd() {
		return this.cwd;
	}

	/** The command's environment, which the programs it runs inherit. */
	public Map<String, String> env() {
		return this.env;
	}

	/** Prints a line, such as git's {@code error: ...}, on standard error. */
	public void message(String line) {
		stderr(line + "\n");
	}

	/** Prints {@code warning: <message>} on standard error. */
	public void warning(String message) {
		stderr("warning: " + message + "\n");
	}

	/** Prints {@code error: <message>} on standard error. */
	public void error(String message) {
		stderr("error: " + message + "\n");
	}

	private void stderr(String text) {
		try {
			this.err.write(text.getBytes(StandardCharsets.UTF_8));
			this.err.flush();
		}
		catch (IOException ex) {
			// standard error is gone: there is nowhere to say so
		}
	}

	@Override
	public void close() throws IOException {
		try {
			if (this.refs != null) {
				this.refs.close();
			}
		}
		finally {
			try {
				this.locks.close();
			}
			finally {
				if (this.repository != null) {
					this.repository.close();
				}
			}
		}
	}

}
