package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertSame;
import static io.refstore.core.cli.CliHarness.bytes;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * What git 2.55 added to its ref plumbing ({@code show-ref --branches}, {@code --exists},
 * {@code --exclude-existing}, {@code refs exists|list|optimize}, {@code refs migrate}'s
 * usage errors and dry run) against that git ({@link GitCli#reftable()}) on the same
 * repository, in both ref formats: same exit code, same standard output, same standard
 * error where git's words are the contract.
 */
class GitCommandsParityIT {

	@TempDir
	Path temp;

	static Stream<String> formats() {
		return Stream.of("files", "reftable");
	}

	private TempRepo repo(String format) {
		GitCli git = GitCli.reftable();
		TempRepo repo = TempRepo.init(git, this.temp.resolve(format), "--ref-format=" + format);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/heads/side", c1);
		repo.git("update-ref", "refs/tags/light", c1);
		repo.git("tag", "-a", "-m", "annotated", "annot", c1);
		repo.git("symbolic-ref", "refs/heads/dangling", "refs/heads/nowhere");
		repo.git("symbolic-ref", "refs/sym", "refs/heads/main");
		repo.git("update-ref", "CHERRY_PICK_HEAD", c1);
		return repo;
	}

	static Stream<Arguments> readOnly() {
		List<String> commands = List.of("show-ref --branches", "show-ref --heads", "show-ref --branches --tags --head",
				"show-ref --branches --no-branches", "show-ref --exists refs/heads/main",
				"show-ref --exists refs/heads/dangling", "show-ref --exists refs/sym", "show-ref --exists HEAD",
				"show-ref --exists main", "show-ref --exists refs/heads", "show-ref --exists refs/heads/none",
				"show-ref --exists", "show-ref --exists a b", "show-ref --exists FETCH_HEAD",
				"show-ref --verify --exists HEAD", "show-ref --verify --exclude-existing",
				"show-ref --exclude-existing --exists", "show-ref -s --verify CHERRY_PICK_HEAD",
				"show-ref --verify Foo_HEAD", "refs exists refs/heads/main", "refs exists refs/heads/none",
				"refs exists", "refs exists a b", "refs list", "refs list --format=%(refname) refs/tags",
				"refs migrate", "refs migrate foo", "refs migrate --ref-format=bogus");
		return formats().flatMap((format) -> commands.stream().map((command) -> Arguments.of(format, command)));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("readOnly")
	void printsWhatGitPrints(String format, String command) {
		TempRepo repo = repo(format);
		String[] args = command.split(" ");
		GitCli.Result git = repo.git().run(repo.dir(), new byte[0], args);
		GitCli.Result ours = assertSame(git, refstore(repo.dir(), args));
		assertThat(ours.stderr().replace("refstore", "git")).as(command).isEqualTo(git.stderr());
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("formats")
	void excludeExistingFiltersStandardInputAsGitDoes(String format) {
		TempRepo repo = repo(format);
		byte[] input = bytes("refs/heads/zz^{}\nrefs/heads/main^{}\n  refs/heads/q\nrefs/heads/qq \nabc\n"
				+ "x refs/tags/light\nrefs/tags/new\n");
		for (String[] args : new String[][] { { "show-ref", "--exclude-existing" },
				{ "show-ref", "--exclude-existing=refs/heads/" } }) {
			GitCli.Result git = repo.git().run(repo.dir(), input, args);
			GitCli.Result ours = assertSame(git, refstore(repo.dir(), input, args));
			assertThat(ours.stderr()).isEqualTo(git.stderr());
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("formats")
	void dryRunLeavesTheNewStoreWhereGitDoesAndSaysSoInGitsWords(String format) throws IOException {
		TempRepo repo = repo(format);
		String other = format.equals("files") ? "reftable" : "files";
		String migrate = "--ref-format=" + other;
		Files.createDirectories(repo.dir().resolve("sub/dir"));
		TempRepo bare = TempRepo.init(GitCli.reftable(), this.temp.resolve("bare.git"), "--bare",
				"--ref-format=" + format);
		// where the command runs, and how it names the repository: git's path differs in
		// each
		Object[][] places = { { repo.dir(), List.of() }, { repo.dir().resolve("sub/dir"), List.of() },
				{ repo.gitDir(), List.of() }, { this.temp, List.of("--git-dir=" + format + "/.git") },
				{ this.temp, List.of("-C", format) }, { bare.dir(), List.of() } };
		for (Object[] place : places) {
			Path cwd = (Path) place[0];
			@SuppressWarnings("unchecked")
			List<String> globals = (List<String>) place[1];
			List<String> args = new java.util.ArrayList<>(globals);
			args.addAll(List.of("refs", "migrate", "--dry-run", migrate));
			GitCli.Result git = GitCli.reftable().run(cwd, new byte[0], args.toArray(String[]::new));
			GitCli.Result ours = refstore(cwd, args.toArray(String[]::new));
			assertThat(ours.exitCode()).as(ours.stderr()).isZero();
			assertThat(anyStaging(ours.stdout())).as(cwd + " " + globals).isEqualTo(anyStaging(git.stdout()));
			assertThat(ours.stdout()).startsWith("Finished dry-run migration of refs, the result can be found at '");
		}
		try (Stream<Path> entries = Files.list(repo.gitDir())) {
			assertThat(entries.map((p) -> p.getFileName().toString()))
				.anyMatch((name) -> name.startsWith("ref_migration."))
				.noneMatch((name) -> name.equals("refstore-migration"));
		}
		assertThat(repo.git("rev-parse", "--show-ref-format")).isEqualTo(format + "\n");
		// the migration itself prints nothing, as git's does
		GitCli.Result git = GitCli.reftable().run(bare.dir(), new byte[0], "refs", "migrate", migrate);
		assertSame(git, refstore(repo.dir(), "refs", "migrate", migrate));
		assertThat(repo.git("rev-parse", "--show-ref-format")).isEqualTo(other + "\n");
	}

	private static String anyStaging(String out) {
		return out.replaceAll("ref_migration\\.\\w{6}", "ref_migration.XXXXXX");
	}

}
