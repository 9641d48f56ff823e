package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertFails;
import static io.refstore.core.cli.CliHarness.assertSameOutput;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore show-ref} against {@code git show-ref} on the same repositories: same
 * standard output bytes, same exit code.
 */
class ShowRefIT {

	@TempDir
	static Path temp;

	private static TempRepo rich;

	private static TempRepo unborn;

	@BeforeAll
	static void makeRepositories() {
		rich = CliFixtures.rich(temp.resolve("rich"));
		unborn = CliFixtures.unborn(temp.resolve("unborn"));
	}

	static Stream<String> richArguments() {
		return Stream.of("", "-d", "--dereference", "--head", "--head -d", "--heads", "--tags", "--heads --tags",
				"--tags -d", "main", "origin/main", "ain", "HEAD", "--head HEAD", "tags/t1", "t1 tt -d",
				"tt treetag blobtag -d", "annot -d", "v1", "a/b", "b", "\u00fcber", "--hash", "--hash=4",
				"--hash=2 main", "--hash=0 main", "-s main", "-s -d t1", "--abbrev main", "--abbrev=10 main",
				"--abbrev=99 main", "-d --abbrev=5 refs/tags/t1", "-q", "-q main", "-q nomatch", "nomatch",
				"--verify refs/heads/main", "--verify main", "--verify HEAD", "--verify -q main",
				"--verify refs/heads/main refs/heads/nope refs/heads/main", "--verify", "--verify refs/heads/dangling",
				"--verify refs/remotes/origin/HEAD", "--verify refs/heads/chain", "--verify -d refs/tags/tt",
				"--verify -d --hash refs/tags/t1", "--verify refs/heads/a..b", "--verify ORIG_HEAD",
				"--verify refs/heads/topic", "--verify --head refs/tags/light", "ORIG_HEAD", "dangling", "chain",
				"-- -d", "--heads main topic", "--tags main");
	}

	@ParameterizedTest(name = "show-ref {0}")
	@MethodSource("richArguments")
	void printsWhatGitPrints(String args) {
		assertSameOutput(GitCli.reftable(), rich.dir(), command(args));
	}

	@ParameterizedTest(name = "show-ref {0} (unborn HEAD)")
	@MethodSource("unbornArguments")
	void printsWhatGitPrintsWithAnUnbornHead(String args) {
		assertSameOutput(GitCli.reftable(), unborn.dir(), command(args));
	}

	static Stream<String> unbornArguments() {
		return Stream.of("", "--head", "-d --head", "--verify HEAD", "--verify -q HEAD", "main",
				"--verify refs/heads/main");
	}

	@Test
	void runsInASubdirectoryAndWithDashC() {
		assertSameOutput(rich.dir().resolve(".git/refs"), "--heads");
		assertThat(refstore(temp, "-C", "rich", "show-ref", "--heads").stdout())
			.isEqualTo(rich.git("show-ref", "--heads"));
	}

	@Test
	void unknownOptionIsAUsageError() {
		assertSameOutput(rich.dir(), "show-ref", "--bogus");
		assertFails(refstore(rich.dir(), "show-ref", "--bogus"), 129, "error: unknown option `bogus'",
				"usage: refstore show-ref");
	}

	@Test
	void badAbbreviationIsAUsageError() {
		assertFails(refstore(rich.dir(), "show-ref", "--abbrev=x"), 129, "option `abbrev' expects a numerical value");
	}

	@Test
	void verifyFailureNamesTheRef() {
		assertFails(refstore(rich.dir(), "show-ref", "--verify", "main"), 128, "fatal: 'main' - not a valid ref");
	}

	@Test
	void dashHPrintsUsageOnStandardOutput() {
		var result = refstore(rich.dir(), "show-ref", "-h");
		assertThat(result.exitCode()).isEqualTo(129);
		assertThat(result.stdout()).startsWith("usage: refstore show-ref");
	}

	private static String[] command(String args) {
		String[] split = args.isEmpty() ? new String[0] : args.split(" ");
		String[] command = new String[split.length + 1];
		command[0] = "show-ref";
		System.arraycopy(split, 0, command, 1, split.length);
		return command;
	}

}
