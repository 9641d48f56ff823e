package io.refstore.core.repo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.refstore.core.ref.TransactionHook;

/**
 * A repository's git hooks, found and run as git does: in {@code core.hooksPath} if set
 * (a relative path taken from where hooks run, {@code ~/} from the home directory), else
 * in {@code hooks/} of the common git directory; run from the root of the working tree,
 * or from the git directory of a bare repository, when the file exists and may be
 * executed. A hook's standard output goes to standard error, as git sends it.
 */
public final class GitHooks {

	private GitHooks() {
	}

	/**
	 * The variable that names the writer to the journal's hook ({@code refstore-cli},
	 * {@code api}, {@code job}; docs/journal.md).
	 */
	public static final String WRITER_KIND = "REFSTORE_JOURNAL_WRITER_KIND";

	/**
	 * The variable that names the user a refstore writer writes for, to the journal's
	 * hook (one of the variables it reads by default; the API's user, a job's launcher).
	 */
	public static final String WRITER_USER = "REMOTE_USER";

	/**
	 * The repository's {@code reference-transaction} hook, run in this process's
	 * environment; with {@code GIT_DIR} and {@code GIT_WORK_TREE} (made absolute), and
	 * {@link #WRITER_KIND} and {@link #WRITER_USER}, as the repository was opened with
	 * them, if it was (the {@code refstore} command names itself so, a job itself and its
	 * launcher).
	 */
	public static TransactionHook referenceTransaction(Repository repository) {
		Map<String, String> writer = new HashMap<>();
		for (String name : List.of(WRITER_KIND, WRITER_USER)) {
			repository.environmentValue(name).ifPresent((value) -> writer.put(name, value));
		}
		// git exports the git directory and working tree it was given (--git-dir,
		// --work-tree), so that git run by the hook finds the same repository
		if (repository.environmentValue("GIT_DIR").isPresent()) {
			writer.put("GIT_DIR", repository.gitDir().toAbsolutePath().toString());
		}
		if (repository.environmentValue("GIT_WORK_TREE").isPresent()) {
			repository.workTree()
				.ifPresent((workTree) -> writer.put("GIT_WORK_TREE", workTree.toAbsolutePath().toString()));
		}
		return referenceTransaction(repository, writer);
	}

	/**
	 * The repository's {@code reference-transaction} hook, run in this process's
	 * environment with {@code environment}'s variables added (a writer's name for the
	 * journal, say).
	 */
	public static TransactionHook referenceTransaction(Repository repository, Map<String, String> environment) {
		Path workDir = repository.workTree().orElse(repository.gitDir());
		return new ScriptHook(hooksDir(repository, workDir).resolve("reference-transaction"), workDir,
				Map.copyOf(environment));
	}

	/**
	 * The directory git takes the repository's hooks from ({@code core.hooksPath}, else
	 * {@code hooks/} of the common git directory); it may not exist.
	 */
	public static Path directory(Repository repository) {
		return hooksDir(repository, repository.workTree().orElse(repository.gitDir()));
	}

	static Path hooksDir(Repository repository, Path workDir) {
		Optional<String> configured = repository.config().getString("core", null, "hooksPath");
		if (configured.isEmpty() || configured.get().isEmpty()) {
			return repository.commonDir().resolve("hooks");
		}
		String path = configured.get();
		if (path.startsWith("~/")) {
			return Path.of(System.getProperty("user.home"), path.substring(2));
		}
		return workDir.resolve(path);
	}

	/** A hook that is a file, run with the state as its one argument. */
	private record ScriptHook(Path file, Path workDir, Map<String, String> environment) implements TransactionHook {

		@Override
		public boolean present() {
			return Files.isRegularFile(this.file) && Files.isExecutable(this.file);
		}

		@Override
		public int run(String state, List<String> lines) throws IOException {
			ProcessBuilder builder = new ProcessBuilder(this.file.toString(), state).directory(this.workDir.toFile())
				.redirectError(ProcessBuilder.Redirect.INHERIT);
			builder.environment().putAll(this.environment);
			Process process = builder.start();
			Thread output = new Thread(() -> copyQuietly(process.getInputStream(), System.err),
					"reference-transaction hook output");
			output.setDaemon(true);
			output.start();
			try (OutputStream in = process.getOutputStream()) {
				for (String line : lines) {
					in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
				}
			}
			catch (IOException ex) {
				// the hook did not read all of its input (a broken pipe): git ignores
				// that too
			}
			try {
				int code = process.waitFor();
				output.join();
				return code;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				process.destroy();
				throw new IOException("interrupted while the reference-transaction hook ran", ex);
			}
		}

		private static void copyQuietly(InputStream from, PrintStream to) {
			try (from) {
				from.transferTo(to);
				to.flush();
			}
			catch (IOException ex) {
				// the hook's output is lost: it changes nothing
			}
		}

	}

}
