package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.copy;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.repo.StoreGate;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore update-ref} with names that are paths below the git directory rather
 * than refs, and with loose ref files that hold no ref, against git 2.55 in both formats:
 * the same exit code and standard error, the same repository afterwards (every file of a
 * files repository, byte for byte), the same {@code git fsck} verdict. Where git refuses
 * (a loose object or {@code config} named as a ref is "reference broken") the repository
 * is untouched and sound.
 */
class RefNameSafetyIT {

	@TempDir
	static Path temp;

	private static final AtomicInteger COPIES = new AtomicInteger();

	private static final Map<String, Base> BASES = new TreeMap<>();

	/**
	 * A repository made by git 2.55 in one format: eleven commits on main (and in its
	 * reflog), a loose blob.
	 */
	private record Base(TempRepo repo, String commit, String blobPath) {
	}

	@BeforeAll
	static void makeRepositories() {
		for (String format : List.of("files", "reftable")) {
			TempRepo repo = TempRepo.init(GitCli.reftable(), temp.resolve("base-" + format), "--ref-format=" + format);
			for (int i = 1; i <= 11; i++) {
				repo.git("commit", "-q", "--allow-empty", "-m", "c" + i);
			}
			String blob = repo.run("blob\n".getBytes(StandardCharsets.UTF_8), "hash-object", "-w", "--stdin")
				.requireOk()
				.stdout()
				.trim();
			BASES.put(format, new Base(repo, repo.git("rev-parse", "HEAD").trim(),
					"objects/" + blob.substring(0, 2) + "/" + blob.substring(2)));
		}
	}

	static Stream<Arguments> cases() {
		List<Arguments> cases = new ArrayList<>();
		for (String format : List.of("files", "reftable")) {
			for (String name : List.of("<loose object>", "foo/bar", "objects/info/alternates", "logs/refs/heads/main",
					"HEAD", "ORIG_HEAD", "FOO_HEAD", "FETCH_HEAD", "MERGE_HEAD", "refs/heads/a..b", "config",
					"packed-refs", "refs/heads/x.lock", "index", "refs/heads/x.lock-not", "-refs/heads/x")) {
				cases.add(Arguments.of(format, name, null));
			}
			cases.add(Arguments.of(format, "--", "-refs/heads/x"));
		}
		// a loose ref file that does not parse: the bytes of a zlib object, text, an id
		// with junk glued on, nothing
		for (String garbage : List.of("<loose object>", "hello\n", "<id>junk\n", "")) {
			cases.add(Arguments.of("files", "refs/heads/x", garbage));
		}
		return cases.stream();
	}

	/**
	 * Sets the ref, then deletes it, with git and with refstore, each on its own copy of
	 * the base repository.
	 * @param name the ref name ({@code <loose object>}: the path of the base's loose
	 * blob), or {@code --}
	 * @param extra for {@code --}, the name after it; otherwise the content of a loose
	 * file left at the name first ({@code <loose object>}: the blob's bytes), or
	 * {@code null} for none
	 */
	@ParameterizedTest(name = "{0} {1} {2}")
	@MethodSource("cases")
	void updateRefTreatsPathLikeNamesAsGit255Does(String format, String name, String extra) throws IOException {
		Base base = BASES.get(format);
		List<String> names = new ArrayList<>();
		names.add(name.equals("<loose object>") ? base.blobPath() : name);
		String garbage = null;
		if (name.equals("--")) {
			names.add(extra);
		}
		else if (extra != null) {
			garbage = extra.replace("<id>", base.commit());
		}
		Path scratch = temp.resolve("case-" + COPIES.incrementAndGet());
		Path forGit = copy(base.repo().dir(), scratch.resolve("git"));
		Path forRefstore = copy(base.repo().dir(), scratch.resolve("refstore"));
		if (garbage != null) {
			for (Path dir : List.of(forGit, forRefstore)) {
				Path file = dir.resolve(".git").resolve(names.get(names.size() - 1));
				Files.createDirectories(file.getParent());
				Files.write(file,
						garbage.equals("<loose object>") ? Files.readAllBytes(dir.resolve(".git/" + base.blobPath()))
								: garbage.getBytes(StandardCharsets.UTF_8));
			}
		}
		Map<String, String> before = state(forRefstore, format);
		String objectBefore = digest(Files.readAllBytes(forRefstore.resolve(".git/" + base.blobPath())));

		List<String> set = new ArrayList<>(List.of("update-ref"));
		set.addAll(names);
		set.add(base.commit());
		GitCli.Result gitSet = runBoth(forGit, forRefstore, set, format);
		if (gitSet.exitCode() != 0) {
			assertThat(state(forRefstore, format)).as("the repository after a refused " + set).isEqualTo(before);
		}

		List<String> delete = new ArrayList<>(List.of("update-ref", "-d"));
		delete.addAll(names);
		runBoth(forGit, forRefstore, delete, format);

		assertThat(digest(Files.readAllBytes(forRefstore.resolve(".git/" + base.blobPath()))))
			.as("the loose object " + base.blobPath())
			.isEqualTo(objectBefore);
		GitCli.Result gitFsck = GitCli.reftable().run(forGit, "fsck", "--no-dangling");
		GitCli.Result refstoreFsck = GitCli.reftable().run(forRefstore, "fsck", "--no-dangling");
		assertThat(refstoreFsck.exitCode()).as("git fsck exit code, " + refstoreFsck.stderr())
			.isEqualTo(gitFsck.exitCode());
		assertThat(refstoreFsck.stderr().replace(forRefstore.toString(), "<repo>"))
			.isEqualTo(gitFsck.stderr().replace(forGit.toString(), "<repo>"));
		if (gitSet.exitCode() != 0 && garbage == null) {
			assertThat(refstoreFsck.exitCode()).as("git fsck after a refused " + set + ": " + refstoreFsck.stderr())
				.isZero();
		}
	}

	/**
	 * Runs one command with git 2.55 on one copy and refstore on the other: the same exit
	 * code and standard error (for a usage error, its first line: the rest names the
	 * program), then the same repository.
	 */
	private static GitCli.Result runBoth(Path forGit, Path forRefstore, List<String> args, String format)
			throws IOException {
		String[] argv = args.toArray(String[]::new);
		GitCli.Result git = GitCli.reftable().run(forGit, argv);
		GitCli.Result mine = refstore(forRefstore, argv);
		String context = args + "\n--- git stderr ---\n" + git.stderr() + "--- refstore stderr ---\n" + mine.stderr();
		assertThat(mine.exitCode()).as("exit code of " + context).isEqualTo(git.exitCode());
		if (git.exitCode() == 129) {
			assertThat(mine.stderr().lines().findFirst()).as(context).isEqualTo(git.stderr().lines().findFirst());
		}
		else {
			assertThat(mine.stderr()).as(context).isEqualTo(git.stderr());
		}
		assertThat(state(forRefstore, format)).as("repository after " + context).isEqualTo(state(forGit, format));
		return git;
	}

	/**
	 * What a repository holds: every file of the git directory but the gate's with its
	 * bytes (a digest for objects), and for reftable, whose table files are named at
	 * random, what git 2.55 lists instead of the tables.
	 */
	private static Map<String, String> state(Path dir, String format) throws IOException {
		Path gitDir = dir.resolve(".git");
		Map<String, String> state = new TreeMap<>();
		try (Stream<Path> paths = Files.walk(gitDir)) {
			for (Path path : (Iterable<Path>) paths::iterator) {
				String name = gitDir.relativize(path).toString();
				// the gate's file holds no data: every refstore writer makes it
				if (!Files.isRegularFile(path) || name.equals(StoreGate.FILE)
						|| (format.equals("reftable") && name.startsWith("reftable/"))) {
					continue;
				}
				byte[] content = Files.readAllBytes(path);
				state.put(name, (name.startsWith("objects/") || name.equals("index")) ? digest(content)
						: new String(content, StandardCharsets.UTF_8));
			}
		}
		if (format.equals("reftable")) {
			GitCli git = GitCli.reftable();
			state.put("<refs>",
					git.run(dir, "for-each-ref", "--include-root-refs", "--format=%(refname) %(objectname) %(symref)")
						.stdout());
			String logs = git.run(dir, "reflog", "list").stdout();
			state.put("<reflogs>", logs);
			for (String log : logs.lines().toList()) {
				state.put("<reflog " + log + ">", git.run(dir, "reflog", "show", "--format=%H %gs", log).stdout());
			}
		}
		return state;
	}

	private static String digest(byte[] content) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new UncheckedIOException(new IOException(ex));
		}
	}

}
