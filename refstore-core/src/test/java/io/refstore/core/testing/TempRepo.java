package io.refstore.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A real git repository in a temporary directory, made and inspected with a real git. Use
 * with JUnit's {@code @TempDir}: {@code TempRepo.init(git, tempDir, "--bare")}.
 */
public final class TempRepo {

	private final GitCli git;

	private final Path dir;

	private final Path gitDir;

	private TempRepo(GitCli git, Path dir, Path gitDir) {
		this.git = git;
		this.dir = dir;
		this.gitDir = gitDir;
	}

	/**
	 * Runs {@code git init -q -b main <options>
	 *
	<dir>
	 * }.
	 * @param git the git to use (it also decides which formats are possible)
	 * @param dir an empty or missing directory
	 * @param options more options of {@code git init}, such as {@code --bare} or
	 * {@code --object-format=sha256}
	 * @return the repository
	 */
	public static TempRepo init(GitCli git, Path dir, String... options) {
		List<String> args = new ArrayList<>(List.of("init", "-q", "-b", "main"));
		args.addAll(List.of(options));
		args.add(dir.toAbsolutePath().toString());
		try {
			Files.createDirectories(dir);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		git.ok(dir, args.toArray(String[]::new));
		boolean bare = List.of(options).contains("--bare");
		return new TempRepo(git, dir, bare ? dir : dir.resolve(".git"));
	}

	/**
	 * The same repository, run with another git (another environment, say).
	 */
	public TempRepo with(GitCli git) {
		return new TempRepo(git, this.dir, this.gitDir);
	}

	/**
	 * A copy of this repository at {@code dir} (a missing directory), file times kept:
	 * for a repository that must end up somewhere git could not build it, such as a small
	 * file system.
	 */
	public TempRepo copyTo(Path dir) {
		TestFiles.copyTree(this.dir, dir, true);
		return new TempRepo(this.git, dir, dir.resolve(this.dir.relativize(this.gitDir).toString()));
	}

	/**
	 * The directory git was run in (the working tree, or the git directory of a bare
	 * repository).
	 */
	public Path dir() {
		return this.dir;
	}

	/** The git directory. */
	public Path gitDir() {
		return this.gitDir;
	}

	/** The git this repository is driven with. */
	public GitCli git() {
		return this.git;
	}

	/**
	 * Runs git in the repository and returns its standard output; fails the test on a
	 * non-zero exit.
	 */
	public String git(String... args) {
		return this.git.ok(this.dir, args);
	}

	/**
	 * Every ref as git's {@code for-each-ref} lists it, by name: its object id (a
	 * symbolic ref's target's).
	 */
	public Map<String, String> refs() {
		Map<String, String> refs = new TreeMap<>();
		for (String line : git("for-each-ref", "--format=%(refname) %(objectname)").split("\n")) {
			if (!line.isEmpty()) {
				int space = line.indexOf(' ');
				refs.put(line.substring(0, space), line.substring(space + 1));
			}
		}
		return refs;
	}

	/** Runs git in the repository with standard input. */
	public GitCli.Result run(byte[] stdin, String... args) {
		return this.git.run(this.dir, stdin, args);
	}

	/**
	 * Makes a commit object (not moving any ref) with an empty tree, or on top of
	 * {@code parent}.
	 * @param message the commit message, which also makes the id unique
	 * @param parent the parent's hex id, or {@code null} for a root commit
	 * @return the new commit's hex id
	 */
	public String commit(String message, String parent) {
		String tree = git("hash-object", "-t", "tree", "-w", "--stdin").trim();
		List<String> args = new ArrayList<>(List.of("commit-tree", tree, "-m", message));
		if (parent != null) {
			args.add("-p");
			args.add(parent);
		}
		return git(args.toArray(String[]::new)).trim();
	}

	/**
	 * Writes many commit objects in one {@code git fast-import} run, each with its own
	 * message, and returns their ids in order. Fast enough for thousands of objects.
	 */
	public List<String> commits(int count, String messagePrefix) {
		StringBuilder stream = new StringBuilder();
		for (int i = 0; i < count; i++) {
			String message = messagePrefix + " " + i + "\n";
			stream.append("commit refs/fast-import/tmp\nmark :").append(i + 1).append('\n');
			stream.append("committer C O Mitter <committer@example.com> 1700000000 +0000\n");
			stream.append("data ").append(message.getBytes(StandardCharsets.UTF_8).length).append('\n');
			stream.append(message);
			stream.append("deleteall\n\n");
		}
		Path marks = this.dir.resolve("../" + this.dir.getFileName() + ".marks").normalize();
		run(stream.toString().getBytes(StandardCharsets.UTF_8), "fast-import", "--quiet", "--export-marks=" + marks)
			.requireOk();
		git("update-ref", "-d", "refs/fast-import/tmp");
		try {
			List<String> ids = new ArrayList<>(count);
			for (String line : Files.readAllLines(marks)) {
				ids.add(line.substring(line.indexOf(' ') + 1).trim());
			}
			Files.delete(marks);
			return ids;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Makes an annotated tag object pointing at {@code target} and returns its id (no ref
	 * is written).
	 */
	public String tagObject(String name, String target, String type) {
		String tag = "object " + target + "\ntype " + type + "\ntag " + name
				+ "\ntagger C O Mitter <committer@example.com> 1700000000 +0000\n\n" + name + "\n";
		return run(tag.getBytes(StandardCharsets.UTF_8), "hash-object", "-t", "tag", "-w", "--stdin").requireOk()
			.stdout()
			.trim();
	}

}
