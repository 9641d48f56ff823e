package io.refstore.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.refstore.core.repo.StoreGate;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TestFiles;

/**
 * Runs {@code refstore} in-process and git as a process with the same fixed environment,
 * and compares what they print and what they leave on disk.
 */
final class CliHarness {

	/** The environment of {@link GitCli}: no user config, a fixed committer and clock. */
	static final Map<String, String> ENV;

	static {
		Map<String, String> env = new LinkedHashMap<>();
		env.put("GIT_CONFIG_NOSYSTEM", "1");
		env.put("GIT_CONFIG_GLOBAL", "/dev/null");
		env.put("GIT_AUTHOR_NAME", "A U Thor");
		env.put("GIT_AUTHOR_EMAIL", "author@example.com");
		env.put("GIT_AUTHOR_DATE", GitCli.FIXED_DATE);
		env.put("GIT_COMMITTER_NAME", "C O Mitter");
		env.put("GIT_COMMITTER_EMAIL", "committer@example.com");
		env.put("GIT_COMMITTER_DATE", GitCli.FIXED_DATE);
		env.put("LC_ALL", "C.UTF-8");
		env.put("TZ", "UTC");
		ENV = Map.copyOf(env);
	}

	static final GitCli GIT = GitCli.system();

	/** Top-level files of a git directory that are not refs. */
	/**
	 * Top-level files that hold no ref: git's, and refstore's gate
	 * ({@link StoreGate#FILE}, which every refstore writer makes and which holds no
	 * data).
	 */
	private static final Set<String> NOT_REFS = Set.of("config", "description", "index", "COMMIT_EDITMSG",
			StoreGate.FILE);

	private CliHarness() {
	}

	/** Runs refstore in-process in {@code dir}. */
	static GitCli.Result refstore(Path dir, byte[] stdin, String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int code = Refstore.run(dir, ENV, new ByteArrayInputStream(stdin), out, err, args);
		List<String> command = new ArrayList<>(List.of("refstore"));
		command.addAll(List.of(args));
		return new GitCli.Result(command, code, out.toByteArray(), err.toByteArray());
	}

	/**
	 * Runs refstore in-process as a wrapper named {@code name} calls it (usage texts name
	 * that command).
	 */
	static GitCli.Result refstoreNamed(String name, Path dir, String... args) {
		Map<String, String> env = new HashMap<>(ENV);
		env.put("REFSTORE_USAGE_NAME", name);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int code = Refstore.run(dir, env, new ByteArrayInputStream(new byte[0]), out, err, args);
		return new GitCli.Result(List.of("refstore"), code, out.toByteArray(), err.toByteArray());
	}

	/** Runs refstore in-process with empty standard input. */
	static GitCli.Result refstore(Path dir, String... args) {
		return refstore(dir, new byte[0], args);
	}

	/** Runs git in {@code dir}. */
	static GitCli.Result git(Path dir, byte[] stdin, String... args) {
		return GIT.run(dir, stdin, args);
	}

	/**
	 * Runs git and refstore with the same arguments in the same repository (read-only
	 * commands) and requires the same exit code and the same standard output bytes.
	 * @return refstore's result
	 */
	static GitCli.Result assertSameOutput(Path dir, String... args) {
		return assertSameOutput(GIT, dir, args);
	}

	/**
	 * {@link #assertSameOutput(Path, String...)} with another git (such as a
	 * reftable-capable one).
	 */
	static GitCli.Result assertSameOutput(GitCli git, Path dir, String... args) {
		return assertSame(git.run(dir, new byte[0], args), refstore(dir, args));
	}

	/** Requires two results to agree on exit code and standard output. */
	static GitCli.Result assertSame(GitCli.Result git, GitCli.Result refstore) {
		String context = "\n  git " + git.command().subList(1, git.command().size()) + " -> " + git.exitCode()
				+ "\n--- git stdout ---\n" + git.stdout() + "--- git stderr ---\n" + git.stderr()
				+ "--- refstore stdout ---\n" + refstore.stdout() + "--- refstore stderr ---\n" + refstore.stderr();
		assertThat(refstore.exitCode()).as("exit code of refstore" + context).isEqualTo(git.exitCode());
		assertThat(refstore.out()).as("stdout of refstore" + context).isEqualTo(git.out());
		return refstore;
	}

	/**
	 * Runs the same (writing) command with git on one copy of {@code base} and with
	 * refstore on another, and requires the same exit code, the same standard output and
	 * the same {@link #refState ref state} afterwards.
	 * @param base the repository's directory (working tree or bare), left unchanged
	 * @param scratch an empty directory for the two copies
	 */
	static void assertSameEffect(Path base, Path scratch, byte[] stdin, String... args) {
		Path forGit = copy(base, scratch.resolve("git"));
		Path forRefstore = copy(base, scratch.resolve("refstore"));
		GitCli.Result gitResult = git(forGit, stdin, args);
		GitCli.Result refstoreResult = refstore(forRefstore, stdin, args);
		assertSame(gitResult, refstoreResult);
		assertThat(refState(gitDir(forRefstore)))
			.as("refs after " + List.of(args) + "\nrefstore stderr: " + refstoreResult.stderr() + "\ngit stderr: "
					+ gitResult.stderr())
			.isEqualTo(refState(gitDir(forGit)));
	}

	private static Path gitDir(Path dir) {
		return Files.isDirectory(dir.resolve(".git")) ? dir.resolve(".git") : dir;
	}

	/**
	 * Requires a result to have failed with {@code code} and a message on standard error
	 * containing each part.
	 */
	static void assertFails(GitCli.Result result, int code, String... messageParts) {
		assertThat(result.exitCode()).as(result.command() + " stderr: " + result.stderr()).isEqualTo(code);
		assertThat(result.stderr()).as(result.command().toString()).contains(messageParts).doesNotContain("\tat ");
	}

	/** Copies a directory tree (a repository) to a new place. */
	static Path copy(Path from, Path to) {
		return TestFiles.copyTree(from, to, false);
	}

	/**
	 * Everything ref storage keeps in a git directory, as text: every file and directory
	 * under {@code refs/} and {@code logs/}, {@code packed-refs}, {@code HEAD} and the
	 * other top-level ref files, with their contents. Two repositories holding the same
	 * refs, written the same way, give the same text.
	 */
	static String refState(Path gitDir) {
		Map<String, String> entries = new TreeMap<>();
		try (Stream<Path> top = Files.list(gitDir)) {
			for (Path path : (Iterable<Path>) top::iterator) {
				String name = path.getFileName().toString();
				if (Files.isRegularFile(path) && !NOT_REFS.contains(name)) {
					entries.put(name, read(path));
				}
			}
			for (String dir : List.of("refs", "logs")) {
				Path root = gitDir.resolve(dir);
				if (!Files.isDirectory(root)) {
					continue;
				}
				try (Stream<Path> paths = Files.walk(root)) {
					for (Path path : (Iterable<Path>) paths::iterator) {
						String name = gitDir.relativize(path).toString();
						entries.put(name, Files.isDirectory(path) ? "<dir>" : read(path));
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		StringBuilder text = new StringBuilder();
		entries.forEach((name, content) -> text.append("== ").append(name).append('\n').append(content));
		return text.toString();
	}

	private static String read(Path file) throws IOException {
		String content = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
		return content.endsWith("\n") || content.isEmpty() ? content : content + "\\ no newline\n";
	}

	/** Bytes of a string (UTF-8), for standard input. */
	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
