package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertFails;
import static io.refstore.core.cli.CliHarness.copy;
import static io.refstore.core.cli.CliHarness.git;
import static io.refstore.core.cli.CliHarness.refState;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Failures of the repository rather than of a command: damaged files, unsupported
 * formats, no repository at all, a reader that goes away. Each ends in one clear
 * {@code fatal:} line naming the culprit, never a stack trace, with git's exit code, and
 * changes nothing.
 */
class RefstoreErrorsIT {

	@TempDir
	static Path temp;

	private static TempRepo base;

	private static String commit;

	@BeforeAll
	static void makeRepository() {
		base = CliFixtures.simple(temp.resolve("base"));
		commit = base.git("rev-parse", "refs/heads/main").trim();
		base.git("update-ref", "refs/tags/v1", commit);
		base.git("pack-refs", "--all");
	}

	@Test
	void corruptPackedRefsLineIsFatalInGitsWords() throws Exception {
		Path dir = copy(base.dir(), temp.resolve("corrupt"));
		Path packed = dir.resolve(".git/packed-refs");
		Files.writeString(packed, Files.readString(packed) + "this is not a ref\n");
		String before = refState(dir.resolve(".git"));
		// creating a ref that needs no packed record near the damage works, as in git on
		// a large file
		for (String[] args : new String[][] { { "show-ref" }, { "for-each-ref" },
				{ "show-ref", "--verify", "refs/tags/v2" }, { "update-ref", "-d", "refs/tags/v1" },
				{ "pack-refs", "--all" } }) {
			GitCli.Result result = refstore(dir, args);
			assertThat(result.exitCode()).as(String.join(" ", args) + ": " + result.stderr()).isIn(1, 128);
			assertThat(result.stderr()).as(String.join(" ", args))
				.contains("fatal: unexpected line in .git/packed-refs: this is not a ref\n")
				.doesNotContain("\tat ");
			assertThat(result.exitCode()).as("git " + String.join(" ", args))
				.isEqualTo(git(dir, new byte[0], args).exitCode());
		}
		assertThat(refState(dir.resolve(".git"))).isEqualTo(before);
	}

	@Test
	void unterminatedPackedRefsIsFatal() throws Exception {
		Path dir = copy(base.dir(), temp.resolve("unterminated"));
		Path packed = dir.resolve(".git/packed-refs");
		String content = Files.readString(packed);
		Files.writeString(packed, content.substring(0, content.length() - 1));
		GitCli.Result result = refstore(dir, "show-ref");
		assertFails(result, 128, "fatal: ", "packed-refs");
		assertThat(git(dir, new byte[0], "show-ref").exitCode()).isEqualTo(128);
	}

	@Test
	void unknownRefStorageIsFatalNamingKeyAndValue() throws Exception {
		Path dir = copy(base.dir(), temp.resolve("unknown-storage"));
		git(dir, new byte[0], "config", "core.repositoryformatversion", "1").requireOk();
		git(dir, new byte[0], "config", "extensions.refStorage", "bogus").requireOk();
		GitCli.Result result = refstore(dir, "show-ref");
		assertFails(result, 128, "fatal: ", "extensions.refstorage", "bogus");
		assertThat(result.out()).isEmpty();
		assertThat(git(dir, new byte[0], "show-ref").exitCode()).isEqualTo(128);
	}

	@Test
	void directoryOutsideAnyRepositoryIsFatal() throws Exception {
		Path dir = Files.createDirectories(temp.resolve("nowhere"));
		assertFails(refstore(dir, "show-ref"), 128, "fatal: not a git repository", dir.toRealPath().toString());
		assertThat(git(dir, new byte[0], "show-ref").exitCode()).isEqualTo(128);
	}

	@Test
	void missingDashCDirectoryIsFatal() {
		assertFails(refstore(temp, "-C", "does-not-exist", "show-ref"), 128,
				"fatal: cannot change to 'does-not-exist': No such file or directory");
		assertThat(git(temp, new byte[0], "-C", "does-not-exist", "show-ref").exitCode()).isEqualTo(128);
		assertFails(refstore(temp, "-C"), 129, "no directory given for -C");
	}

	@Test
	void commandLineWithoutCommandPrintsUsage() {
		GitCli.Result result = refstore(base.dir());
		assertThat(result.exitCode()).isEqualTo(git(base.dir(), new byte[0]).exitCode()).isEqualTo(1);
		assertThat(result.stdout()).startsWith("usage: refstore")
			.contains("show-ref", "for-each-ref", "update-ref", "symbolic-ref", "pack-refs");
		assertThat(refstore(base.dir(), "--help").exitCode()).isZero();
	}

	@Test
	void unknownCommandAndOptionAreUsageErrors() {
		assertFails(refstore(base.dir(), "frobnicate"), 129, "'frobnicate' is not a refstore command");
		assertFails(refstore(base.dir(), "--frobnicate", "show-ref"), 129, "unknown option: --frobnicate");
	}

	@Test
	void closedStandardOutputEndsQuietly() throws Exception {
		TempRepo many = CliFixtures.simple(temp.resolve("many"));
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < 2000; i++) {
			stdin.append("create refs/heads/branch-").append(i).append(' ').append(commit).append('\n');
		}
		// the same fixed identity and clock make the same commit in every repository
		assertThat(many.git("rev-parse", "refs/heads/main").trim()).isEqualTo(commit);
		assertThat(refstore(many.dir(), CliHarness.bytes(stdin.toString()), "update-ref", "--stdin").exitCode())
			.isZero();
		PipedInputStream reader = new PipedInputStream(1024);
		PipedOutputStream stdout = new PipedOutputStream(reader);
		// the reader goes away before anything is written, as "refstore show-ref | head
		// -0" would
		reader.close();
		ByteArrayOutputStream stderr = new ByteArrayOutputStream();
		int code = Refstore.run(many.dir(), CliHarness.ENV, new ByteArrayInputStream(new byte[0]), stdout, stderr,
				"show-ref");
		assertThat(code).isEqualTo(141);
		assertThat(stderr.toString(StandardCharsets.UTF_8)).isEmpty();
	}

}
