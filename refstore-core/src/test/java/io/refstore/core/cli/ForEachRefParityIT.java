package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertFails;
import static io.refstore.core.cli.CliHarness.assertSame;
import static io.refstore.core.cli.CliHarness.assertSameOutput;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore for-each-ref} where git 2.55's test scripts found it apart from git:
 * its usage, {@code --ignore-case} patterns, the color reset at the end of a line,
 * {@code %(describe)}, {@code %(ahead-behind)}, {@code %(is-base)} and SSH-signed
 * commits' {@code %(signature...)}, each against git 2.55 on the same repository.
 */
class ForEachRefParityIT {

	@TempDir
	static Path temp;

	private static TempRepo repo;

	@BeforeAll
	static void makeRepository() throws Exception {
		repo = TempRepo.init(GitCli.reftable(), temp.resolve("repo"));
		Path key = sshKey("signer");
		Path stranger = sshKey("stranger");
		Path allowed = temp.resolve("allowed_signers");
		Files.writeString(allowed,
				"principal@example.com namespaces=\"git\" " + Files.readString(Path.of(key + ".pub")).strip() + "\n");
		repo.git("config", "gpg.ssh.allowedSignersFile", allowed.toString());
		repo.git("commit", "-q", "--allow-empty", "-m", "one");
		repo.git("tag", "light");
		repo.git("commit", "-q", "--allow-empty", "-m", "two");
		repo.git("tag", "-a", "-m", "annotated two", "v2");
		repo.git("-c", "gpg.format=ssh", "-c", "user.signingKey=" + key, "commit", "-q", "--allow-empty", "-S", "-m",
				"signed");
		repo.git("tag", "signed");
		repo.git("-c", "gpg.format=ssh", "-c", "user.signingKey=" + stranger, "commit", "-q", "--allow-empty", "-S",
				"-m", "signed by a stranger");
		repo.git("tag", "stranger");
		repo.git("branch", "side", "light");
		repo.git("checkout", "-q", "side");
		repo.git("commit", "-q", "--allow-empty", "-m", "side work");
		repo.git("checkout", "-q", "main");
		repo.git("branch", "Mixed/Case", "light");
	}

	private static Path sshKey(String name) throws Exception {
		Path key = temp.resolve(name);
		Process process = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f",
				key.toString())
			.redirectErrorStream(true)
			.start();
		process.getInputStream().readAllBytes();
		assertThat(process.waitFor()).as("ssh-keygen").isZero();
		return key;
	}

	@Test
	void usageIsGits() {
		for (String[] command : new String[][] { { "for-each-ref", "-h" }, { "show-ref", "-h" },
				{ "refs", "list", "-h" }, { "pack-refs", "-h" } }) {
			GitCli.Result git = GitCli.reftable().run(repo.dir(), command);
			GitCli.Result named = CliHarness.refstoreNamed("git", repo.dir(), command);
			assertThat(named.exitCode()).isEqualTo(129).isEqualTo(git.exitCode());
			assertThat(synopsis(named.stdout())).as("%s named git", List.of(command)).isEqualTo(synopsis(git.stdout()));
			assertThat(refstore(repo.dir(), command).stdout()).startsWith("usage: refstore " + command[0] + " ");
		}
		// under its own name, show-ref's continuation lines stay under the options they
		// continue
		assertThat(synopsis(refstore(repo.dir(), "show-ref", "-h").stdout()))
			.contains("\n" + " ".repeat("usage: refstore show-ref ".length()) + "[-s | --hash[=<n>]]")
			.doesNotContain("\n" + " ".repeat("usage: refstore show-ref ".length() + 1));
		assertThat(refstore(repo.dir(), "for-each-ref", "--sort=bogus", "-h").stdout())
			.startsWith("usage: refstore for-each-ref ");
	}

	private static String synopsis(String usage) {
		return usage.substring(0, usage.indexOf("\n\n") + 1);
	}

	@ParameterizedTest(name = "--ignore-case {0}")
	@ValueSource(strings = { "refs/heads/MAIN", "REFS/heads/main", "refs/HEADS/*", "refs/*/MIXED/case", "refs/Heads",
			"REFS/", "refs/heads/mixed" })
	void ignoresCaseAsGitDoes(String pattern) {
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--ignore-case", "--format=%(refname)",
				pattern);
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--ignore-case", "--format=%(refname)",
				"--exclude=REFS/TAGS/*", "refs/*");
	}

	@ParameterizedTest(name = "--format={0}")
	@ValueSource(strings = { "%(color:green)%(refname:short)", "%(color:red)x%(color:reset) %(refname)",
			"%(color:reset)%(color:blue)%(refname)" })
	void resetsColorsAtTheEndOfTheLine(String format) {
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--color", "--format=" + format);
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--color=never", "--format=" + format);
	}

	@ParameterizedTest(name = "--format={0}")
	@ValueSource(strings = { "%(objectname) %(describe)", "%(describe:tags)", "%(describe:abbrev=14)",
			"%(describe:tags,match=l*)", "%(describe:tags=false,exclude=v*)", "%(*describe)|%(describe:tags=yes)" })
	void describesAsGitDoes(String format) {
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--format=" + format);
	}

	@Test
	void badDescribeArgumentsFailAsInGit() {
		for (String arg : List.of("baz", "tags,qux=1,abbrev=14", "abbrev=x", "match=")) {
			GitCli.Result git = GitCli.reftable().run(repo.dir(), "for-each-ref", "--format=%(describe:" + arg + ")");
			GitCli.Result refstore = refstore(repo.dir(), "for-each-ref", "--format=%(describe:" + arg + ")");
			assertSame(git, refstore);
			assertThat(refstore.stderr()).isEqualTo(git.stderr());
		}
	}

	@ParameterizedTest(name = "--format={0}")
	@ValueSource(strings = { "%(ahead-behind:main) %(refname)", "%(ahead-behind:side) %(is-base:side) %(refname)",
			"%(is-base:stranger)%(is-base:light)|%(refname)", "%(is-base:HEAD) %(refname)" })
	void comparesWithACommitAsGitDoes(String format) {
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--format=" + format);
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--sort=-refname", "--format=" + format);
	}

	/** Sorting by a base atom that the format does not print, as git's t6600 does. */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "--sort=is-base:side", "--sort=-is-base:side", "--sort=-ahead-behind:main",
			"--sort=ahead-behind:side" })
	void sortsByABaseAtomAsGitDoes(String sort) {
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--format=%(refname)", "--sort=refname", sort);
	}

	/**
	 * A tag whose {@code type} header lies about its object has no base: git says so in
	 * two errors and carries on.
	 */
	@Test
	void isBaseReportsATagLyingAboutItsObject() throws Exception {
		TempRepo lying = repo.copyTo(temp.resolve("lying"));
		String commit = lying.git("rev-parse", "main").trim();
		String tag = lying
			.run(("object " + commit + "\ntype blob\ntag lying\ntagger T <t@example.com> 1600000000 +0000\n\nx\n")
				.getBytes(StandardCharsets.UTF_8), "hash-object", "-t", "tag", "-w", "--stdin")
			.requireOk()
			.stdout()
			.trim();
		lying.git("update-ref", "refs/tags/lying", tag);
		GitCli.Result git = GitCli.reftable().run(lying.dir(), "for-each-ref", "--format=%(is-base:HEAD) %(refname)");
		GitCli.Result refstore = refstore(lying.dir(), "for-each-ref", "--format=%(is-base:HEAD) %(refname)");
		assertSame(git, refstore);
		assertThat(refstore.stderr()).isEqualTo(git.stderr())
			.contains("error: object " + commit + " is a commit, not a blob")
			.contains("error: bad tag pointer to " + commit + " in " + tag);
		assertFails(refstore(repo.dir(), "for-each-ref", "--format=%(is-base:nothing)"), 128,
				"fatal: failed to find 'nothing'");
		assertFails(refstore(repo.dir(), "for-each-ref", "--format=%(ahead-behind)"), 128,
				"fatal: expected format: %(ahead-behind:<committish>)");
	}

	/** A loose ref naming the null id is corrupt: git warns and leaves it out. */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "--format=%(objectname) %(refname)", "--format=%(objectname) %(objecttype) %(refname)",
			"--sort=-refname" })
	void skipsARefNamingTheNullId(String option) throws Exception {
		TempRepo broken = repo.copyTo(temp.resolve("null-id-" + Math.abs(option.hashCode())));
		Files.writeString(broken.gitDir().resolve("refs/heads/zeros"), "0".repeat(40) + "\n");
		GitCli.Result git = GitCli.reftable().run(broken.dir(), "for-each-ref", option);
		GitCli.Result refstore = refstore(broken.dir(), "for-each-ref", option);
		assertSame(git, refstore);
		assertThat(refstore.stderr()).isEqualTo(git.stderr())
			.isEqualTo("warning: ignoring broken ref refs/heads/zeros\n");
	}

	/**
	 * A loose ref whose file is empty or garbled is broken: git warns and leaves it out,
	 * also where a packed value of the same name exists (the loose file overrides it).
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "", "garbage\n" })
	void skipsARefWhoseFileCannotBeRead(String content) throws Exception {
		TempRepo broken = repo.copyTo(temp.resolve("broken-" + Math.abs(content.hashCode())));
		Files.writeString(broken.gitDir().resolve("refs/heads/bogus"), content);
		for (String[] args : new String[][] { { "for-each-ref" }, { "for-each-ref", "refs/heads/" },
				{ "for-each-ref", "--format=%(refname)", "--sort=-refname" } }) {
			GitCli.Result git = GitCli.reftable().run(broken.dir(), args);
			GitCli.Result refstore = refstore(broken.dir(), args);
			assertSame(git, refstore);
			assertThat(refstore.stderr()).isEqualTo(git.stderr())
				.isEqualTo("warning: ignoring broken ref refs/heads/bogus\n");
		}
	}

	@ParameterizedTest(name = "--format={0}")
	@ValueSource(
			strings = { "%(signature:grade)|%(signature:key)|%(signature:signer)|%(signature:fingerprint)|%(refname)",
					"%(signature:primarykeyfingerprint)|%(signature:trustlevel)|%(refname)", "%(signature)" })
	void checksSshSignaturesAsGitDoes(String format) {
		assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--format=" + format, "refs/tags/");
	}

	@Test
	void negativeContentLinesFail() {
		assertSame(GitCli.reftable().run(repo.dir(), "for-each-ref", "--format=%(contents:lines=-1)"),
				refstore(repo.dir(), "for-each-ref", "--format=%(contents:lines=-1)"));
		assertFails(refstore(repo.dir(), "for-each-ref", "--format=%(contents:lines=-1)"), 128,
				"fatal: positive value expected contents:lines=-1");
	}

	@Test
	void badSignatureOptionFails() {
		assertFails(refstore(repo.dir(), "for-each-ref", "--format=%(signature:bogus)"), 128,
				"fatal: unrecognized %(signature) argument: bogus");
	}

}
