package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code update-ref --stdin --batch-updates} of git 2.55, where updates refused for what
 * they ask are left out and reported ({@code rejected <ref> <new> <old> <reason>}) and
 * the others applied; and the refusals of {@code --stdin} that name a symbolic ref or a
 * directory/file conflict. Each case runs git 2.55 on one copy of a repository and
 * refstore on another, in both ref formats, and requires the same exit code, standard
 * output and refs; standard error too under the files format (git's reftable backend
 * words some name conflicts differently, which refstore does not follow yet).
 */
class UpdateRefBatchIT {

	@TempDir
	static Path temp;

	private static final AtomicInteger COPIES = new AtomicInteger();

	private static GitCli git;

	private static TempRepo files;

	private static TempRepo reftable;

	@BeforeAll
	static void makeRepositories() {
		git = GitCli.reftable();
		files = make("files");
		reftable = make("reftable");
	}

	private static TempRepo make(String format) {
		TempRepo repo = TempRepo.init(git, temp.resolve("base-" + format), "--ref-format=" + format);
		String blob = repo.run(bytes("hi\n"), "hash-object", "-w", "--stdin").stdout().trim();
		String tree = repo.run(bytes("100644 blob " + blob + "\ta\n"), "mktree").stdout().trim();
		String c1 = repo.git("commit-tree", tree, "-m", "one").trim();
		String c2 = repo.git("commit-tree", tree, "-p", c1, "-m", "two").trim();
		repo.git("update-ref", "refs/heads/main", c2);
		repo.git("update-ref", "refs/heads/a", c1);
		repo.git("update-ref", "refs/heads/b", c2);
		repo.git("update-ref", "refs/heads/d/e", c1);
		repo.git("update-ref", "refs/heads/ref/foo", c2);
		repo.git("symbolic-ref", "refs/heads/s", "refs/heads/a");
		repo.git("symbolic-ref", "refs/heads/dangling", "refs/heads/nowhere");
		repo.git("symbolic-ref", "refs/heads/via", "refs/heads/b");
		repo.git("pack-refs", "--all");
		repo.git("update-ref", "refs/heads/loose", c1);
		repo.git("update-ref", "refs/heads/lo/foo", c2);
		return repo;
	}

	static Stream<Arguments> cases() {
		List<String[]> sessions = List.of(
				session("update refs/heads/a $B $A\nupdate refs/heads/b $T $B\n", "--batch-updates"),
				session("update refs/heads/a $B $A\nupdate refs/heads/b $N $B\n", "--batch-updates"),
				session("update refs/heads/a $B $A\nupdate refs/heads/new $A $B\n", "--batch-updates"),
				session("update refs/heads/a $B $A\nupdate refs/heads/dangling $A $B\n", "--no-deref",
						"--batch-updates"),
				session("update refs/heads/a $B $A\nsymref-update refs/heads/b $A ref refs/heads/nowhere\n",
						"--no-deref", "--batch-updates"),
				session("update refs/heads/b $A $Z\n", "--batch-updates"),
				session("update refs/heads/b $B $A\ncreate refs/heads/c $A\n", "--batch-updates"),
				session("update refs/heads/ref/foo $A $B\nupdate refs/heads/ref $A $Z\n", "--batch-updates"),
				session("update refs/heads/foo $A $Z\nupdate refs/heads/ref $A $Z\n", "--batch-updates"),
				session("update refs/heads/lo/foo $A $B\nupdate refs/heads/lo $A $Z\n", "--batch-updates"),
				session("update refs/heads/lo/foo $A $B\nupdate refs/heads/lo $A $Z\n"),
				session("delete refs/heads/dangling $B\n", "--batch-updates"),
				session("delete refs/heads/a $B\n", "--batch-updates"),
				session("delete refs/heads/nothing $B\n", "--batch-updates"),
				session("verify refs/heads/a $B\nverify refs/heads/x $A\nupdate refs/heads/y $A\n", "--batch-updates"),
				session("symref-verify refs/heads/s refs/heads/b\nsymref-create refs/heads/b refs/heads/a\n",
						"--no-deref", "--batch-updates"),
				session("update refs/heads/a\0$B\0$A\0update refs/heads/b\0$N\0$B\0", "-z", "--batch-updates"),
				session("start\ncreate refs/heads/a $B\ncreate refs/heads/q $B\nprepare\ncommit\n", "--batch-updates"),
				session("start\ncreate refs/heads/a $B\ncreate refs/heads/q $B\ncommit\n", "--batch-updates"),
				session("update refs/heads/a $B $A\nupdate refs/heads/a $B $A\n", "--batch-updates"),
				session("update refs/heads/a $B $A\nupdate refs/heads/s $A $A\n", "--batch-updates"),
				session("option no-deref\nupdate refs/heads/dangling $B $A\n"),
				session("update refs/heads/via $A $A\n"), session("create refs/heads/via $A\n"),
				session("delete refs/heads/dangling $A\n"), session("delete refs/heads/d/e\ncreate refs/heads/d $A\n"),
				session("create refs/heads/loose/x/y $A\n"),
				session("create refs/heads/k/l $A\ncreate refs/heads/k $A\n"));
		return Stream.of("files", "reftable")
			.flatMap((format) -> sessions.stream()
				.map((s) -> Arguments.of(format, s[0].replace("\0", "\\0").replace("\n", "\\n"), s)));
	}

	private static String[] session(String stdin, String... options) {
		String[] all = new String[options.length + 1];
		all[0] = stdin;
		System.arraycopy(options, 0, all, 1, options.length);
		return all;
	}

	@ParameterizedTest(name = "{0}: update-ref --stdin {1}")
	@MethodSource("cases")
	void runsAsGit255Does(String format, String display, String[] session) {
		TempRepo base = format.equals("files") ? files : reftable;
		String a = base.git("rev-parse", "refs/heads/a").trim();
		String b = base.git("rev-parse", "refs/heads/b").trim();
		String tree = base.git("rev-parse", "refs/heads/b^{tree}").trim();
		byte[] stdin = session[0].replace("$A", a)
			.replace("$B", b)
			.replace("$T", tree)
			.replace("$N", "1".repeat(a.length()))
			.replace("$Z", "0".repeat(a.length()))
			.getBytes(StandardCharsets.UTF_8);
		String[] args = new String[session.length + 1];
		args[0] = "update-ref";
		args[1] = "--stdin";
		System.arraycopy(session, 1, args, 2, session.length - 1);
		Path scratch = temp.resolve("case-" + COPIES.incrementAndGet());
		TempRepo forGit = base.copyTo(scratch.resolve("git"));
		TempRepo forRefstore = base.copyTo(scratch.resolve("refstore"));
		GitCli.Result expected = forGit.run(stdin, args);
		GitCli.Result actual = CliHarness.refstore(forRefstore.dir(), stdin, args);
		CliHarness.assertSame(expected, actual);
		if (format.equals("files")) {
			assertThat(actual.stderr()).as("stderr").isEqualTo(expected.stderr());
		}
		assertThat(state(forRefstore)).as("refs after " + display).isEqualTo(state(forGit));
	}

	@Test
	void refusesBatchUpdatesAndNulTerminationWithoutStdin() {
		TempRepo repo = files;
		GitCli.Result batch = CliHarness.refstore(repo.dir(), "update-ref", "--batch-updates", "refs/heads/x",
				"refs/heads/a");
		GitCli.Result expected = repo.run(new byte[0], "update-ref", "--batch-updates", "refs/heads/x", "refs/heads/a");
		CliHarness.assertSame(expected, batch);
		assertThat(batch.stderr()).isEqualTo(expected.stderr());
		GitCli.Result nul = CliHarness.refstore(repo.dir(), "update-ref", "-z", "refs/heads/x", "refs/heads/a");
		assertThat(nul.exitCode()).isEqualTo(129);
		assertThat(nul.stderr()).startsWith("usage: refstore update-ref [<options>] -d <refname> [<old-oid>]\n");
		assertThat(repo.run(new byte[0], "rev-parse", "--verify", "-q", "refs/heads/x").exitCode()).isEqualTo(1);
	}

	/** The refs as git lists them. */
	private static String state(TempRepo repo) {
		return repo.git("for-each-ref", "--include-root-refs", "--format=%(refname) %(objectname) %(symref)");
	}

}
