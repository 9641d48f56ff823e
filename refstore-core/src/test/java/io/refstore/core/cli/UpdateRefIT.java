package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertFails;
import static io.refstore.core.cli.CliHarness.bytes;
import static io.refstore.core.cli.CliHarness.copy;
import static io.refstore.core.cli.CliHarness.git;
import static io.refstore.core.cli.CliHarness.refState;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.ref.RefName;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore update-ref}, with arguments and with {@code --stdin [-z]}, against
 * {@code git update-ref}: each case runs git on one copy of a repository and refstore on
 * another, then requires the same exit code, the same standard output and the same files
 * under {@code refs/}, {@code logs/}, {@code packed-refs} and {@code HEAD}.
 */
class UpdateRefIT {

	@TempDir
	static Path temp;

	private static final AtomicInteger COPIES = new AtomicInteger();

	private static TempRepo base;

	private static String c1;

	private static String c2;

	private static String c3;

	private static String tag;

	private static final String ZERO = "0".repeat(40);

	@BeforeAll
	static void makeRepository() {
		base = TempRepo.init(CliHarness.GIT, temp.resolve("base"));
		c1 = base.commit("one", null);
		c2 = base.commit("two", c1);
		c3 = base.commit("three", c2);
		tag = base.tagObject("v1", c1, "commit");
		base.git("update-ref", "refs/heads/main", c1);
		base.git("update-ref", "refs/heads/topic", c1);
		base.git("update-ref", "refs/heads/packed-only", c2);
		base.git("update-ref", "refs/heads/both", c1);
		base.git("update-ref", "refs/tags/v1", tag);
		base.git("update-ref", "refs/remotes/origin/main", c2);
		base.git("pack-refs", "--all");
		base.git("update-ref", "refs/heads/both", c2);
		base.git("update-ref", "refs/heads/main", c2);
		base.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
	}

	/**
	 * Runs the command with git and with refstore on two copies of the base repository
	 * and compares.
	 */
	private static void assertSameEffect(byte[] stdin, String... args) {
		CliHarness.assertSameEffect(base.dir(), temp.resolve("case-" + COPIES.incrementAndGet()), stdin, args);
	}

	private static String[] expand(String... args) {
		String[] out = new String[args.length];
		for (int i = 0; i < args.length; i++) {
			out[i] = args[i].replace("$C1", c1)
				.replace("$C2", c2)
				.replace("$C3", c3)
				.replace("$T", tag)
				.replace("$Z", ZERO);
		}
		return out;
	}

	static Stream<Arguments> commandLines() {
		return Stream.of(args("refs/heads/new $C1"), args("refs/heads/new $C1 $Z"), argv("refs/heads/new", "$C1", ""),
				args("refs/heads/topic $C2 $C1"), args("refs/heads/topic $C2 $C3"), argv("refs/heads/topic", "$C2", ""),
				args("refs/heads/topic $C2 $Z"), args("refs/heads/topic $C1"),
				argv("-m", "a  message\n\twith\nlines", "refs/heads/topic", "$C2"),
				argv("-m", "", "refs/heads/topic", "$C2"), args("HEAD $C3"), args("HEAD $C3 $C2"), args("HEAD $C3 $C1"),
				args("--no-deref HEAD $C3"), args("refs/heads/x main"), args("refs/heads/x topic"),
				args("refs/heads/x refs/heads/topic"), args("refs/heads/x @"), args("refs/heads/x HEAD"),
				args("refs/heads/x origin/main"), args("refs/heads/x nothing"), args("refs/heads/x $C1 nothing"),
				args("refs/heads/x 1234567890123456789012345678901234567890"), args("refs/heads/x $T"),
				args("refs/tags/x $T"), args("refs/heads/main/sub $C1"), args("refs/heads $C1"), args("foo $C1"),
				args("ORIG_HEAD $C1"), args("refs/remotes/origin/HEAD $C1"),
				args("--no-deref refs/remotes/origin/HEAD $C1"), args("refs/heads/both $C3 $C2"),
				args("refs/heads/packed-only $C3 $C2"), args("refs/heads/a..b $C1"), args("-d refs/heads/topic"),
				args("-d refs/heads/topic $C1"), args("-d refs/heads/topic $C3"), args("-d refs/heads/topic $Z"),
				argv("-d", "refs/heads/topic", ""), args("-d refs/heads/nonexistent"),
				args("-d refs/heads/nonexistent $C1"), args("-d refs/heads/packed-only"), args("-d refs/heads/both"),
				args("-d refs/heads/both $C1"), args("-d refs/tags/v1 $T"), args("-d refs/remotes/origin/HEAD"),
				args("--no-deref -d refs/remotes/origin/HEAD"), args("-d HEAD"), args("-d foo"),
				args("-d refs/heads/a..b"), args("-m msg -d refs/heads/main"), args(""), args("-d"),
				args("refs/heads/x"), args("a b c d"), args("-d a b c"), args("-z refs/heads/x $C1"),
				args("--stdin refs/heads/x"), args("--stdin -d"), args("--bogus"));
	}

	/** Arguments split at spaces. */
	private static Arguments args(String line) {
		return Arguments.of(line, line.isEmpty() ? List.of() : List.of(line.split(" ")));
	}

	/** Arguments as given (for empty ones and ones with spaces). */
	private static Arguments argv(String... parts) {
		return Arguments.of(
				String.join(" ", parts).replace("\n", "\\n").replace("\t", "\\t") + " (" + parts.length + " arguments)",
				List.of(parts));
	}

	@ParameterizedTest(name = "update-ref {0}")
	@MethodSource("commandLines")
	void updatesAsGitDoes(String display, List<String> args) {
		List<String> command = new ArrayList<>(List.of("update-ref"));
		command.addAll(List.of(expand(args.toArray(String[]::new))));
		assertSameEffect(new byte[0], command.toArray(String[]::new));
	}

	static Stream<Arguments> stdinSessions() {
		return Stream.of(Arguments.of("", false),
				Arguments.of("update refs/heads/a $C1\ncreate refs/heads/b $C2\n", false),
				Arguments.of(
						"update refs/heads/topic $C3 $C1\ndelete refs/heads/both $C2\nverify refs/heads/packed-only $C2\n",
						false),
				Arguments.of("update refs/heads/topic $C3 $C2\ncreate refs/heads/new $C1\n", false),
				Arguments.of("create refs/heads/new $C1\ncreate refs/heads/topic $C1\n", false),
				Arguments.of("start\ncreate refs/heads/n1 $C1\nprepare\ncommit\n", false),
				Arguments.of("start\ncreate refs/heads/n1 $C1\nprepare\nabort\n", false),
				Arguments.of("start\ncreate refs/heads/n1 $C1\nabort\nstart\ncreate refs/heads/n2 $C1\ncommit\n",
						false),
				Arguments.of("start\ncreate refs/heads/n1 $C1\n", false),
				Arguments.of("start\ncreate refs/heads/n1 $C1\nprepare\n", false),
				Arguments.of("start\ncreate refs/heads/n1 $C1\ncommit\nstart\ndelete refs/heads/n1\ncommit\n", false),
				Arguments.of("start\nstart\n", false),
				Arguments.of("start\nprepare\nupdate refs/heads/n1 $C1\n", false),
				Arguments.of("commit\nupdate refs/heads/n1 $C1\n", false),
				Arguments.of("commit\nstart\ncommit\n", false),
				Arguments.of("create refs/heads/n1 $C1\ncommit\n", false), Arguments.of("prepare\ncommit\n", false),
				Arguments.of("start\ncreate refs/heads/n1 $C1\nprepare\ncreate refs/heads/n2 $C1\n", false),
				Arguments.of("start\ncreate refs/heads/topic $C1\nprepare\ncommit\n", false),
				Arguments.of("start\nupdate refs/heads/topic $C3 $C2\ncommit\n", false),
				Arguments.of("option no-deref\nupdate HEAD $C3\n", false),
				Arguments.of("option no-deref\nupdate refs/remotes/origin/HEAD $C3\nupdate refs/heads/x $C1\n", false),
				Arguments.of("update refs/remotes/origin/HEAD $C3\n", false),
				Arguments.of("update HEAD $C3\nupdate refs/heads/main $C3\n", false),
				Arguments.of("update refs/heads/n1 $C1\nupdate refs/heads/n1 $C2\n", false),
				Arguments.of("update refs/heads/p $C1\nupdate refs/heads/p/q $C1\n", false),
				Arguments.of("delete refs/heads/topic\ncreate refs/heads/topic/sub $C1\n", false),
				Arguments.of("update refs/heads/x main\nupdate refs/heads/y topic topic\n", false),
				Arguments.of("update refs/heads/x $C1\nverify refs/heads/nonexistent\nverify refs/heads/topic $C1\n",
						false),
				Arguments.of("update refs/heads/x $C1\nverify refs/heads/topic\n", false),
				Arguments.of("update refs/heads/x $C1\nverify refs/heads/topic $C3\n", false),
				Arguments.of("update \"refs/heads/quoted\" $C1\n", false),
				Arguments.of("update refs/heads/x $C1\nbogus\n", false),
				Arguments.of("update refs/heads/x $C1\nupdate refs/heads/y nothing\n", false),
				Arguments.of("update refs/heads/x $C1\nupdate refs/heads/a..b $C1\n", false),
				Arguments.of("update refs/heads/x $C1\n\n", false), Arguments.of("update refs/heads/x $C1", false),
				Arguments.of("update refs/heads/a\0$C1\0\0create refs/heads/b\0$C2\0", true),
				Arguments.of(
						"update refs/heads/topic\0$C3\0$C1\0delete refs/heads/both\0\0verify refs/heads/packed-only\0$C2\0",
						true),
				Arguments.of("update refs/heads/topic\0\0\0", true), Arguments.of("update refs/heads/topic\0\0", true),
				Arguments.of("delete refs/heads/topic\0$C1\0", true),
				Arguments.of("start\0create refs/heads/n1\0$C1\0prepare\0commit\0", true),
				Arguments.of("start\0create refs/heads/n1\0$C1\0commit", true),
				Arguments.of("option no-deref\0update HEAD\0$C3\0\0", true),
				Arguments.of("update refs/heads/x\0$C1", true), Arguments.of("\0", true));
	}

	@ParameterizedTest(name = "update-ref --stdin {1}: {0}")
	@MethodSource("stdinSessions")
	void runsStdinSessionsAsGitDoes(String session, boolean z) {
		byte[] stdin = bytes(expand(session)[0]);
		if (z) {
			assertSameEffect(stdin, "update-ref", "--stdin", "-z");
		}
		else {
			assertSameEffect(stdin, "update-ref", "--stdin");
		}
	}

	@Test
	void messageAppliesToEveryUpdateOfAStdinSession() {
		assertSameEffect(bytes(expand("update refs/heads/topic $C3\nupdate HEAD $C3\n")[0]), "update-ref", "-m",
				"batch", "--stdin");
		assertSameEffect(bytes(expand("update HEAD $C3\n")[0]), "update-ref", "--no-deref", "--stdin");
	}

	static Stream<Arguments> invalidNames() {
		return Stream.of(Arguments.of("refs/heads/.hidden", RefName.Rule.COMPONENT_STARTS_WITH_DOT),
				Arguments.of("refs/heads/a/.b", RefName.Rule.COMPONENT_STARTS_WITH_DOT),
				Arguments.of("refs/heads/a.lock", RefName.Rule.COMPONENT_ENDS_WITH_LOCK),
				Arguments.of("refs/heads/a.lock/b", RefName.Rule.COMPONENT_ENDS_WITH_LOCK),
				Arguments.of("refs/heads/a..b", RefName.Rule.DOUBLE_DOT),
				Arguments.of("refs/heads/a\tb", RefName.Rule.CONTROL_CHARACTER),
				Arguments.of("refs/heads/a\u007f", RefName.Rule.CONTROL_CHARACTER),
				Arguments.of("refs/heads/a b", RefName.Rule.FORBIDDEN_CHARACTER),
				Arguments.of("refs/heads/a~1", RefName.Rule.FORBIDDEN_CHARACTER),
				Arguments.of("refs/heads/a^", RefName.Rule.FORBIDDEN_CHARACTER),
				Arguments.of("refs/heads/a:b", RefName.Rule.FORBIDDEN_CHARACTER),
				Arguments.of("refs/heads/a?", RefName.Rule.GLOB_CHARACTER),
				Arguments.of("refs/heads/a[", RefName.Rule.GLOB_CHARACTER),
				Arguments.of("refs/heads/a\\b", RefName.Rule.GLOB_CHARACTER),
				Arguments.of("refs/heads/a*", RefName.Rule.ASTERISK),
				Arguments.of("/refs/heads/a", RefName.Rule.EMPTY_COMPONENT),
				Arguments.of("refs/heads/a/", RefName.Rule.EMPTY_COMPONENT),
				Arguments.of("refs//heads/a", RefName.Rule.EMPTY_COMPONENT),
				Arguments.of("refs/heads/a.", RefName.Rule.ENDS_WITH_DOT),
				Arguments.of("refs/heads/a@{1}", RefName.Rule.AT_BRACE), Arguments.of("@", RefName.Rule.SINGLE_AT),
				Arguments.of("", RefName.Rule.EMPTY));
	}

	/**
	 * As git 2.55 (and 2.39) refuses them, in its words: the stdin form also names the
	 * rule.
	 */
	@ParameterizedTest(name = "update-ref {0} is refused: {1}")
	@MethodSource("invalidNames")
	void invalidNamesAreRefusedAsGitRefusesThem(String name, RefName.Rule rule) {
		Path dir = copy(base.dir(), temp.resolve("invalid-" + COPIES.incrementAndGet()));
		String before = refState(dir.resolve(".git"));
		assertThat(RefName.violation(name, true)).isEqualTo(rule);
		GitCli.Result result = refstore(dir, "update-ref", name, c1);
		// as git prints a name: each control character but tab and newline (DEL too) as ?
		String shown = name.replaceAll("[\\x00-\\x08\\x0b-\\x1f\\x7f]", "?");
		assertFails(result, 128, "fatal: update_ref failed for ref '" + shown
				+ "': refusing to update ref with bad name '" + shown + "'\n");
		for (GitCli git : List.of(GitCli.system(), GitCli.reftable())) {
			GitCli.Result gits = git.run(dir, new byte[0], "update-ref", name, c1);
			assertThat(result.exitCode()).isEqualTo(gits.exitCode());
			assertThat(result.stderr()).isEqualTo(gits.stderr());
		}
		if (!name.isEmpty()) {
			byte[] stdin = bytes("update refs/heads/ok\0" + c1 + "\0\0update " + name + "\0" + c1 + "\0\0");
			GitCli.Result z = refstore(dir, stdin, "update-ref", "--stdin", "-z");
			assertFails(z, 128, "fatal: invalid ref format: " + shown + "\n");
			for (GitCli git : List.of(GitCli.system(), GitCli.reftable())) {
				GitCli.Result gits = git.run(dir, stdin, "update-ref", "--stdin", "-z");
				assertThat(z.exitCode()).isEqualTo(gits.exitCode());
				assertThat(z.stderr()).as("git %s", git.command()).isEqualTo(gits.stderr());
			}
		}
		assertThat(refState(dir.resolve(".git"))).isEqualTo(before);
	}

	@Test
	void staleLockRefusesTheUpdateAndChangesNothing() throws Exception {
		Path dir = copy(base.dir(), temp.resolve("locked"));
		Path lock = dir.resolve(".git/refs/heads/topic.lock");
		Files.createFile(lock);
		String before = refState(dir.resolve(".git"));
		assertFails(refstore(dir, "update-ref", "refs/heads/topic", c3), 128,
				"fatal: update_ref failed for ref 'refs/heads/topic': cannot lock ref 'refs/heads/topic': Unable to create '"
						+ lock.toRealPath() + "': File exists.");
		assertFails(refstore(dir, bytes("create refs/heads/fresh " + c1 + "\nupdate refs/heads/topic " + c3 + "\n"),
				"update-ref", "--stdin"), 128, "topic.lock");
		assertFails(refstore(dir, "update-ref", "-d", "refs/heads/topic"), 1,
				"error: cannot lock ref 'refs/heads/topic'");
		assertThat(refState(dir.resolve(".git"))).isEqualTo(before);
		assertThat(lock).exists();
	}

	@Test
	void transactionIsAnsweredCommandByCommandAndHoldsLocksWhenPrepared() throws Exception {
		Path dir = copy(base.dir(), temp.resolve("interactive"));
		PipedOutputStream toRefstore = new PipedOutputStream();
		PipedInputStream stdin = new PipedInputStream(toRefstore);
		PipedInputStream fromRefstore = new PipedInputStream();
		OutputStream stdout = new PipedOutputStream(fromRefstore);
		ByteArrayOutputStream stderr = new ByteArrayOutputStream();
		CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
			try (stdout) {
				return Refstore.run(dir, CliHarness.ENV, stdin, stdout, stderr, "update-ref", "--stdin");
			}
			catch (java.io.IOException ex) {
				throw new java.io.UncheckedIOException(ex);
			}
		});
		BufferedReader answers = new BufferedReader(new InputStreamReader(fromRefstore, StandardCharsets.UTF_8));
		send(toRefstore, "start\n");
		assertThat(answers.readLine()).isEqualTo("start: ok");
		send(toRefstore,
				"create refs/heads/fresh " + c1 + "\nupdate refs/heads/topic " + c3 + " " + c1 + "\nprepare\n");
		assertThat(answers.readLine()).isEqualTo("prepare: ok");
		assertThat(dir.resolve(".git/refs/heads/fresh.lock")).exists();
		assertThat(dir.resolve(".git/refs/heads/topic.lock")).exists();
		assertThat(dir.resolve(".git/refs/heads/fresh")).doesNotExist();
		send(toRefstore, "commit\n");
		assertThat(answers.readLine()).isEqualTo("commit: ok");
		toRefstore.close();
		assertThat(exit.get(1, TimeUnit.MINUTES)).as(stderr.toString(StandardCharsets.UTF_8)).isZero();
		assertThat(answers.readLine()).isNull();
		assertThat(dir.resolve(".git/refs/heads/fresh.lock")).doesNotExist();
		assertThat(git(dir, new byte[0], "rev-parse", "refs/heads/fresh", "refs/heads/topic").stdout())
			.isEqualTo(c1 + "\n" + c3 + "\n");
	}

	private static void send(OutputStream out, String text) throws java.io.IOException {
		out.write(text.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

}
