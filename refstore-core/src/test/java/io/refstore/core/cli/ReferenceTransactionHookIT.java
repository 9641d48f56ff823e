package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.copy;
import static io.refstore.core.cli.CliHarness.refState;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * git's {@code reference-transaction} hook, run by refstore as git 2.55 runs it: the same
 * states in the same order with the same lines on standard input, the same refusals (exit
 * code, message, nothing changed), in both formats, from {@code hooks/} and from a
 * relative {@code core.hooksPath}. Each case runs git on one copy of a repository and
 * refstore on another, each hook logging to a file in its working tree.
 */
class ReferenceTransactionHookIT {

	@TempDir
	static Path temp;

	private static final AtomicInteger CASES = new AtomicInteger();

	private static final String LOGGING = """
			#!/bin/sh
			echo "$1" >>hook.log
			cat >>hook.log
			""";

	private static final String REFUSING_PREPARED = LOGGING + "test \"$1\" != prepared\n";

	private static final String REFUSING_PREPARING = LOGGING + "test \"$1\" != preparing\n";

	/**
	 * The cases, in both formats. With deletions, git's files backend also runs the hook
	 * for the packed-refs transaction nested in the one that deletes: {@code aborted}
	 * when no packed ref is deleted, else {@code preparing}, {@code prepared} and
	 * {@code committed}.
	 */
	static Stream<Arguments> cases() {
		return Stream.of("files", "reftable")
			.flatMap((format) -> Stream.of(Arguments.of(format, LOGGING, "update-ref refs/heads/new main", ""),
					Arguments.of(format, LOGGING, "update-ref HEAD refs/heads/topic", ""),
					Arguments.of(format, LOGGING, "update-ref --no-deref HEAD main", ""),
					Arguments.of(format, LOGGING, "update-ref refs/heads/topic main refs/heads/topic", ""),
					Arguments.of(format, LOGGING, "symbolic-ref HEAD refs/heads/topic", ""),
					Arguments.of(format, LOGGING, "update-ref --stdin",
							"create refs/heads/a main\nupdate refs/heads/topic main\nverify refs/heads/main main\n"),
					Arguments.of(format, LOGGING, "update-ref --stdin",
							"start\nupdate refs/heads/topic main\nprepare\ncommit\n"),
					Arguments.of(format, REFUSING_PREPARED, "update-ref refs/heads/topic main", ""),
					Arguments.of(format, REFUSING_PREPARING, "update-ref refs/heads/topic main", ""),
					Arguments.of(format, REFUSING_PREPARED, "update-ref --stdin",
							"update refs/heads/topic main\ncreate refs/heads/b main\n"),
					Arguments.of(format, LOGGING, "update-ref --stdin",
							"start\nupdate HEAD main\nupdate refs/heads/topic main\nabort\n"),
					Arguments.of(format, LOGGING, "update-ref --no-deref --stdin",
							"start\nsymref-verify HEAD refs/heads/main\nsymref-create refs/heads/sc refs/heads/main\n"
									+ "symref-update refs/heads/su refs/heads/topic\nprepare\ncommit\n")));
	}

	static Stream<Arguments> deletions() {
		return Stream.of("files", "reftable")
			.flatMap((format) -> Stream.of(Arguments.of(format, LOGGING, "update-ref -d refs/heads/topic", ""),
					Arguments.of(format, REFUSING_PREPARING, "update-ref -d refs/heads/topic", ""),
					Arguments.of(format, LOGGING, "update-ref --stdin",
							"update refs/heads/topic main\ndelete refs/heads/gone\n"),
					Arguments.of(format, LOGGING, "update-ref --stdin",
							"delete refs/heads/gone\ndelete refs/heads/nothing\n")));
	}

	@ParameterizedTest(name = "{0}: {2}")
	@MethodSource({ "cases", "deletions" })
	void runsTheHookAsGitDoes(String format, String hook, String command, String stdin) throws IOException {
		GitCli git = GitCli.reftable();
		Path scratch = temp.resolve("case-" + CASES.incrementAndGet());
		TempRepo base = TempRepo.init(git, scratch.resolve("base"), "--ref-format=" + format);
		String c1 = base.commit("one", null);
		String c2 = base.commit("two", c1);
		base.git("update-ref", "refs/heads/main", c2);
		base.git("update-ref", "refs/heads/topic", c1);
		base.git("update-ref", "refs/heads/gone", c1);
		base.git("symbolic-ref", "HEAD", "refs/heads/main");
		if (CASES.get() % 2 == 0) {
			base.git("config", "core.hooksPath", "my-hooks");
			install(base.dir().resolve("my-hooks"), hook);
		}
		else {
			install(base.gitDir().resolve("hooks"), hook);
		}
		Path forGit = copy(base.dir(), scratch.resolve("git"));
		Path forRefstore = copy(base.dir(), scratch.resolve("refstore"));
		byte[] input = stdin.getBytes(StandardCharsets.UTF_8);
		String[] args = command.split(" ");

		GitCli.Result byGit = git.run(forGit, input, args);
		GitCli.Result byRefstore = refstore(forRefstore, input, args);

		String context = "\ngit stderr: " + byGit.stderr() + "\nrefstore stderr: " + byRefstore.stderr();
		assertThat(byRefstore.exitCode()).as("exit code" + context).isEqualTo(byGit.exitCode());
		assertThat(lastLine(byRefstore.stderr())).as("message" + context).isEqualTo(lastLine(byGit.stderr()));
		assertThat(Files.readString(forRefstore.resolve("hook.log"))).as("the hook's states and lines" + context)
			.isEqualTo(Files.readString(forGit.resolve("hook.log")));
		assertThat(refState(forRefstore.resolve(".git"))).as("refs afterwards" + context)
			.isEqualTo(refState(forGit.resolve(".git")));
	}

	/**
	 * git exports the git directory it was given to the hook: git run by the hook (the
	 * journal's hook reads old values so) finds the repository from wherever the command
	 * ran. In the files format: the hook refstore runs finds the git on the test's
	 * {@code PATH}, which may be 2.39.
	 */
	@Test
	void gitRunByTheHookFindsTheRepositoryGivenByGitDir() throws IOException {
		GitCli git = GitCli.reftable();
		Path scratch = temp.resolve("git-dir");
		Path outside = Files.createDirectories(scratch.resolve("outside"));
		TempRepo base = TempRepo.init(git, scratch.resolve("base"), "--ref-format=files");
		base.git("update-ref", "refs/heads/main", base.commit("one", null));
		Path forGit = copy(base.dir(), scratch.resolve("git"));
		Path forRefstore = copy(base.dir(), scratch.resolve("refstore"));
		for (Path repo : List.of(forGit, forRefstore)) {
			install(repo.resolve(".git/hooks"), "#!/bin/sh\ntest \"$1\" = prepared || exit 0\n"
					+ "git for-each-ref --format='%(refname)' refs/heads/main >>'" + repo.resolve("hook.log") + "'\n");
		}

		git.run(outside, new byte[0], "--git-dir=../git/.git", "update-ref", "refs/heads/new", "main").requireOk();
		refstore(outside, new byte[0], "--git-dir=../refstore/.git", "update-ref", "refs/heads/new", "main")
			.requireOk();

		assertThat(Files.readString(forGit.resolve("hook.log"))).isEqualTo("refs/heads/main\n");
		assertThat(Files.readString(forRefstore.resolve("hook.log"))).isEqualTo("refs/heads/main\n");
	}

	private static void install(Path dir, String script) throws IOException {
		Files.createDirectories(dir);
		Path hook = dir.resolve("reference-transaction");
		Files.writeString(hook, script);
		Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
	}

	private static String lastLine(String text) {
		List<String> lines = text.lines().toList();
		return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
	}

}
