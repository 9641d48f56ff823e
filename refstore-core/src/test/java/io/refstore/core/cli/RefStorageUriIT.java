package io.refstore.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Refs kept outside the git directory, as git 2.54 keeps them for a ref storage URI
 * ({@code extensions.refStorage = <format>://<path>}, or {@code GIT_REFERENCE_BACKEND}
 * over it): the {@code refstore} command reads and writes them where git 2.55 does,
 * leaves git's stubs in the git directory alone, refuses bad URIs as git does, and
 * migrates such a store in its own directory, keeping the URI.
 */
class RefStorageUriIT {

	private static final GitCli GIT = GitCli.reftable();

	private static final String BACKEND = "GIT_REFERENCE_BACKEND";

	@TempDir
	Path temp;

	static Stream<String> formats() {
		return Stream.of("files", "reftable");
	}

	/** A repository that git 2.55 made with its refs in {@code refdir}. */
	private TempRepo elsewhere(String format, Path refdir) throws IOException {
		Files.createDirectories(refdir);
		// git init writes the URI into the configuration, which names it from then on
		TempRepo repo = TempRepo.init(GIT.withEnv(BACKEND, format + "://" + refdir), this.temp.resolve("repo"))
			.with(GIT);
		repo.git("commit", "--allow-empty", "-m", "one");
		repo.git("tag", "-a", "-m", "annotated", "v1");
		repo.git("commit", "--allow-empty", "-m", "two");
		return repo;
	}

	private static GitCli.Result refstore(Path dir, String... args) {
		return GitCli.refstore().run(dir, args);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("formats")
	void refsKeptElsewhereAreReadAndWrittenWhereGitKeepsThem(String format) throws IOException {
		Path refdir = this.temp.resolve("refdir");
		TempRepo repo = elsewhere(format, refdir);
		assertThat(repo.git("config", "get", "extensions.refstorage")).isEqualTo(format + "://" + refdir + "\n");
		byte[] headStub = Files.readAllBytes(repo.gitDir().resolve("HEAD"));
		byte[] headsStub = Files.readAllBytes(repo.gitDir().resolve("refs/heads"));
		String main = repo.git("rev-parse", "HEAD").strip();

		refstore(repo.dir(), "update-ref", "-m", "by refstore", "refs/heads/side", main + "~1").requireOk();
		refstore(repo.dir(), "symbolic-ref", "refs/heads/alias", "refs/heads/side").requireOk();
		refstore(repo.dir(), "update-ref", "-d", "refs/tags/v1").requireOk();

		for (String[] args : new String[][] { { "for-each-ref" }, { "show-ref", "--head" },
				{ "for-each-ref", "--include-root-refs", "--format=%(refname) %(symref)" },
				{ "rev-parse", "--verify", "side" } }) {
			GitCli.Result git = GIT.run(repo.dir(), args);
			assertThat(git.exitCode()).as(git.stderr()).isZero();
			if (!args[0].equals("rev-parse")) {
				assertThat(refstore(repo.dir(), args).requireOk().stdout()).as(String.join(" ", args))
					.isEqualTo(git.stdout());
			}
		}
		assertThat(repo.git("rev-parse", "side").strip()).isEqualTo(repo.git("rev-parse", "HEAD~1").strip());
		assertThat(repo.git("reflog", "show", "--format=%gs", "refs/heads/side")).isEqualTo("by refstore\n");
		GIT.ok(repo.dir(), "refs", "verify");
		// git's stubs stay as git made them; the refs are in refdir
		assertThat(Files.readAllBytes(repo.gitDir().resolve("HEAD"))).isEqualTo(headStub);
		assertThat(Files.readAllBytes(repo.gitDir().resolve("refs/heads"))).isEqualTo(headsStub);
		assertThat(refdir.resolve(format.equals("files") ? "refs/heads/side" : "reftable/tables.list")).isRegularFile();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("formats")
	void theEnvironmentNamesAStoreOverTheConfigurationRelativeToTheCommonDirectory(String format) throws IOException {
		TempRepo repo = TempRepo.init(GIT, this.temp.resolve("plain"), "--ref-format=" + format);
		String c1 = repo.commit("one", null);
		String other = format.equals("files") ? "reftable" : "files";
		// a second store of this repository's refs in the other format, beside its own
		Matcher dry = Pattern.compile("'\\.git/(ref_migration\\.\\w{6})'")
			.matcher(GIT.ok(repo.dir(), "refs", "migrate", "--dry-run", "--ref-format=" + other));
		assertThat(dry.find()).isTrue();
		String uri = other + "://" + dry.group(1);
		GitCli gitThere = GIT.withEnv(BACKEND, uri);
		GitCli refstoreThere = GitCli.refstore().withEnv(BACKEND, uri);

		refstoreThere.run(repo.dir(), "update-ref", "refs/heads/only-there", c1).requireOk();

		assertThat(refstoreThere.run(repo.dir(), "for-each-ref").requireOk().stdout())
			.isEqualTo(gitThere.ok(repo.dir(), "for-each-ref"))
			.contains("refs/heads/only-there");
		assertThat(repo.git("for-each-ref")).doesNotContain("only-there");
		assertThat(refstore(repo.dir(), "for-each-ref").requireOk().stdout()).isEqualTo(repo.git("for-each-ref"));
	}

	@Test
	void badUrisAreRefusedAsGitRefusesThem() throws IOException {
		TempRepo repo = TempRepo.init(GIT, this.temp.resolve("repo"));
		repo.commit("one", null);
		Path config = repo.gitDir().resolve("config");
		String plain = Files.readString(config);
		for (String value : new String[] { "reftable@/home/reftable", "reftable:", "db://.git" }) {
			Files.writeString(config, plain.replace("[core]", "[extensions]\n\trefStorage = " + value + "\n[core]"));
			GitCli.Result git = GIT.run(repo.dir(), "refs", "list");
			GitCli.Result ours = refstore(repo.dir(), "refs", "list");
			assertThat(git.exitCode()).isEqualTo(128);
			assertThat(ours.exitCode()).as(ours.stderr()).isEqualTo(128);
			assertThat(ours.stderr()).contains("invalid value for 'extensions.refstorage': '" + value + "'");
		}
		Files.writeString(config, plain);
		GitCli.Result git = GIT.withEnv(BACKEND, "db://.git").run(repo.dir(), "refs", "list");
		GitCli.Result ours = GitCli.refstore().withEnv(BACKEND, "db://.git").run(repo.dir(), "refs", "list");
		assertThat(ours.exitCode()).isEqualTo(git.exitCode()).isEqualTo(128);
		assertThat(ours.stderr()).isEqualTo(git.stderr()).isEqualTo("fatal: unknown ref storage format: 'db'\n");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("formats")
	void migrationMovesTheStoreWhereItIsAndKeepsTheUriAndRollbackBringsItBack(String format) throws IOException {
		Path refdir = this.temp.resolve("refdir");
		TempRepo repo = elsewhere(format, refdir);
		String other = format.equals("files") ? "reftable" : "files";
		String before = repo.git("for-each-ref");

		assertThat(refstore(repo.dir(), "refs", "migrate", "--ref-format=" + other).requireOk().stdout()).isEmpty();

		assertThat(repo.git("config", "get", "extensions.refstorage")).isEqualTo(other + "://" + refdir + "\n");
		assertThat(repo.git("rev-parse", "--show-ref-format")).isEqualTo(other + "\n");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		GIT.ok(repo.dir(), "refs", "verify");
		GIT.ok(repo.dir(), "fsck");
		assertThat(refdir.resolve(other.equals("files") ? "packed-refs" : "reftable/tables.list")).isRegularFile();
		assertThat(Files.readString(repo.gitDir().resolve("HEAD"))).isEqualTo("ref: refs/heads/.invalid\n");

		String backup = refstore(repo.dir(), "refs", "backups").requireOk().stdout().split(" ")[0];
		refstore(repo.dir(), "refs", "rollback", "refstore-backup/" + backup).requireOk();

		assertThat(repo.git("config", "get", "extensions.refstorage")).isEqualTo(format + "://" + refdir + "\n");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		GIT.ok(repo.dir(), "refs", "verify");
	}

}
