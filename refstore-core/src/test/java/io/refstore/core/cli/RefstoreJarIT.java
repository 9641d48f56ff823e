package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertSame;
import static io.refstore.core.cli.CliHarness.bytes;
import static io.refstore.core.cli.CliHarness.copy;
import static io.refstore.core.cli.CliHarness.git;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The real command: the shaded jar started as its own process (its manifest, its bundled
 * dependencies, exit codes through {@code System.exit}, standard streams of a process),
 * and the {@code refstore} launcher script.
 */
class RefstoreJarIT {

	@TempDir
	static Path temp;

	private static TempRepo rich;

	private static GitCli jar;

	@BeforeAll
	static void setUp() {
		rich = CliFixtures.rich(temp.resolve("rich"));
		jar = GitCli.refstore();
	}

	@Test
	void jarPrintsWhatGitPrints() {
		for (String[] args : new String[][] { { "show-ref", "-d" }, { "show-ref", "--verify", "refs/heads/nope" },
				{ "for-each-ref" }, { "for-each-ref", "--format=%(refname:short) %(*objecttype)", "refs/tags" },
				{ "symbolic-ref", "--short", "HEAD" }, { "show-ref", "--bogus" } }) {
			assertSame(GitCli.reftable().run(rich.dir(), new byte[0], args), jar.run(rich.dir(), args));
		}
	}

	@Test
	void jarRunsATransactionFromStandardInput() {
		Path dir = copy(rich.dir(), temp.resolve("transaction"));
		String main = rich.git("rev-parse", "refs/heads/main").trim();
		GitCli.Result result = jar.run(dir, bytes("start\ncreate refs/heads/fresh " + main + "\nprepare\ncommit\n"),
				"update-ref", "--stdin");
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		assertThat(result.stdout()).isEqualTo("start: ok\nprepare: ok\ncommit: ok\n");
		assertThat(git(dir, new byte[0], "rev-parse", "refs/heads/fresh").stdout()).isEqualTo(main + "\n");
	}

	/**
	 * A transaction holds a lock per ref, but git closes each lock file's descriptor, so
	 * a transaction may hold more locks than the process may open files: so does
	 * refstore, under a limit of 256 open files.
	 */
	@Test
	void aTransactionHoldsMoreLocksThanTheProcessMayOpenFiles() throws Exception {
		Path dir = copy(rich.dir(), temp.resolve("many-locks"));
		String main = rich.git("rev-parse", "refs/heads/main").trim();
		StringBuilder create = new StringBuilder();
		StringBuilder delete = new StringBuilder();
		for (int i = 0; i < 600; i++) {
			create.append("create refs/many/").append(i).append(' ').append(main).append('\n');
			delete.append("delete refs/many/").append(i).append(' ').append(main).append('\n');
		}
		for (String stdin : List.of(create.toString(), delete.toString())) {
			ProcessBuilder builder = new ProcessBuilder(List.of("bash", "-c", "ulimit -n 256 && exec \"$@\"", "bash",
					Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
					System.getProperty("refstore.cliJar"), "-C", dir.toString(), "update-ref", "--stdin"));
			builder.environment().putAll(CliHarness.ENV);
			builder.redirectErrorStream(true);
			Process process = builder.start();
			process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
			process.getOutputStream().close();
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			process.getInputStream().transferTo(out);
			assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
			assertThat(process.exitValue()).as(out.toString(StandardCharsets.UTF_8)).isZero();
			int expected = stdin.startsWith("create") ? 600 : 0;
			assertThat(git(dir, new byte[0], "for-each-ref", "refs/many/").stdout().lines()).hasSize(expected);
		}
	}

	@Test
	void jarExitsWithGitsCodesAndNoStackTrace() throws IOException {
		Path nowhere = Files.createDirectories(temp.resolve("nowhere"));
		GitCli.Result fatal = jar.run(nowhere, "show-ref");
		assertThat(fatal.exitCode()).isEqualTo(128);
		assertThat(fatal.stderr()).startsWith("fatal: not a git repository").doesNotContain("\tat ", "Exception");
		GitCli.Result usage = jar.run(rich.dir(), "update-ref");
		assertThat(usage.exitCode()).isEqualTo(129);
		assertThat(usage.stderr()).startsWith("usage: refstore update-ref");
		assertThat(jar.run(rich.dir(), "show-ref", "nomatch").exitCode()).isEqualTo(1);
	}

	@Test
	void launcherScriptRunsTheJar() throws Exception {
		Path jarFile = Path.of(System.getProperty("refstore.cliJar"));
		Path script = jarFile.getParent().getParent().getParent().resolve("refstore");
		assertThat(script).isExecutable();
		ProcessBuilder builder = new ProcessBuilder(
				List.of(script.toString(), "-C", rich.dir().toString(), "show-ref", "--tags"));
		builder.environment().putAll(CliHarness.ENV);
		builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
		builder.redirectErrorStream(true);
		Process process = builder.start();
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		process.getInputStream().transferTo(out);
		assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
		assertThat(process.exitValue()).as(out.toString(StandardCharsets.UTF_8)).isZero();
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(rich.git("show-ref", "--tags"));
	}

}
