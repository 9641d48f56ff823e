package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * What git's ref tests (t0600, t0610) ask of the stores' upkeep, judged by git 2.55 on
 * copies of the same repository: the permissions of a shared repository, a locked stack,
 * git's switch for automatic compaction, and the files backend's refusals when
 * {@code packed-refs.new} or a directory stands in the way.
 */
class StoreUpkeepIT {

	@TempDir
	Path temp;

	private final GitCli git = GitCli.reftable();

	@Test
	void packRefsGivesTablesTheSharedRepositorysPermissions() throws IOException {
		for (String shared : new String[] { "group", "world", "0640", "umask" }) {
			TempRepo repo = reftableRepo("shared-" + shared, "--shared=" + shared);
			Path byGit = CliHarness.copy(repo.dir(), this.temp.resolve("git-" + shared));
			Path byRefstore = CliHarness.copy(repo.dir(), this.temp.resolve("refstore-" + shared));
			this.git.run(byGit, "pack-refs").requireOk();
			GitCli.Result result = refstore(byRefstore, "pack-refs");
			assertThat(result.exitCode()).as(result.stderr()).isZero();
			assertThat(permissions(byRefstore)).as(shared).isEqualTo(permissions(byGit));
		}
	}

	@Test
	void packRefsOnALockedStackFailsAsGitDoes() throws IOException {
		TempRepo repo = reftableRepo("locked");
		Files.createFile(repo.gitDir().resolve("reftable/tables.list.lock"));
		Path byGit = CliHarness.copy(repo.dir(), this.temp.resolve("locked-git"));
		Path byRefstore = CliHarness.copy(repo.dir(), this.temp.resolve("locked-refstore"));
		GitCli.Result expected = this.git.run(byGit, "pack-refs");
		GitCli.Result actual = refstore(byRefstore, "pack-refs");
		assertThat(actual.stderr()).isEqualTo(expected.stderr())
			.isEqualTo("error: unable to compact stack: data is locked\n");
		assertThat(actual.exitCode()).isEqualTo(expected.exitCode());
		assertThat(tablesList(byRefstore)).isEqualTo(tablesList(repo.dir()));
	}

	@Test
	void gitsTestSwitchTurnsAutomaticCompactionOff() throws IOException {
		TempRepo repo = reftableRepo("no-compaction");
		String head = repo.git("rev-parse", "refs/heads/main").trim();
		int start = tablesList(repo.dir()).split("\n").length;
		Map<String, String> env = new HashMap<>(CliHarness.ENV);
		env.put("GIT_TEST_REFTABLE_AUTOCOMPACTION", "false");
		for (int i = 1; i <= 3; i++) {
			ByteArrayOutputStream err = new ByteArrayOutputStream();
			int code = Refstore.run(repo.dir(), env, new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(),
					err, "update-ref", "refs/heads/b" + i, head);
			assertThat(code).as(err.toString()).isZero();
		}
		assertThat(tablesList(repo.dir()).split("\n")).hasSize(start + 3);
		assertThat(refstore(repo.dir(), "update-ref", "refs/heads/foo", head).exitCode()).isZero();
		assertThat(tablesList(repo.dir()).split("\n")).hasSizeLessThan(start + 3);
	}

	@Test
	void aLeftoverPackedRefsNewBlocksDeletionAndPacking() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.temp.resolve("packed-new"), "--ref-format=files");
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/x/foo", c1);
		repo.git("pack-refs", "--all");
		Path leftover = Files.createFile(repo.gitDir().resolve("packed-refs.new"));
		String before = CliHarness.refState(repo.gitDir());
		GitCli.Result deletion = refstore(repo.dir(), "update-ref", "-d", "refs/x/foo");
		assertThat(deletion.exitCode()).isNotZero();
		assertThat(deletion.stderr()).contains("unable to create file " + leftover + ": File exists");
		assertThat(refstore(repo.dir(), "pack-refs", "--all").exitCode()).isNotZero();
		assertThat(CliHarness.refState(repo.gitDir())).isEqualTo(before);
		assertThat(leftover).isEmptyFile();
	}

	@Test
	void aDirectoryWithoutRefsBlocksACreateInGitsWords() throws IOException {
		TempRepo repo = TempRepo.init(this.git, this.temp.resolve("blocked"), "--ref-format=files");
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("symbolic-ref", "refs/ne/symref", "refs/ne/foo");
		Files.createDirectories(repo.gitDir().resolve("refs/ne/foo/bar"));
		Files.createFile(repo.gitDir().resolve("refs/ne/foo/bar/baz.lock"));
		for (String line : new String[] { "update refs/ne/foo " + c1, "update refs/ne/foo " + c1 + " " + c1,
				"update refs/ne/symref " + c1 }) {
			byte[] stdin = (line + "\n").getBytes();
			GitCli.Result expected = this.git.run(repo.dir(), stdin, "update-ref", "--stdin");
			GitCli.Result actual = refstore(repo.dir(), stdin, "update-ref", "--stdin");
			assertThat(actual.stderr()).as(line).isEqualTo(expected.stderr());
			assertThat(actual.exitCode()).as(line).isEqualTo(expected.exitCode());
		}
	}

	@Test
	void packRefsHelpIsGitsUsageEvenOutsideARepository() throws IOException {
		Path nowhere = Files.createDirectories(this.temp.resolve("no-repo"));
		GitCli.Result help = refstore(nowhere, "pack-refs", "-h");
		assertThat(help.exitCode()).isEqualTo(129);
		assertThat(help.stdout()).startsWith("usage: refstore pack-refs [--all] [--no-prune] [--auto]");
	}

	private TempRepo reftableRepo(String name, String... options) {
		String[] all = Stream.concat(Stream.of("--ref-format=reftable"), Stream.of(options)).toArray(String[]::new);
		TempRepo repo = TempRepo.init(this.git, this.temp.resolve(name), all);
		String c1 = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("update-ref", "refs/tags/one", c1);
		return repo;
	}

	private static String tablesList(Path dir) throws IOException {
		return Files.readString(dir.resolve(".git/reftable/tables.list"));
	}

	/** The permissions of {@code tables.list} and of each table, by kind. */
	private static Map<String, String> permissions(Path dir) throws IOException {
		Map<String, String> found = new TreeMap<>();
		int tables = 0;
		try (Stream<Path> files = Files.list(dir.resolve(".git/reftable")).sorted()) {
			for (Path file : files.toList()) {
				String name = file.getFileName().toString();
				String kind = name.endsWith(".ref") ? "table " + tables++ : name;
				found.put(kind, PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
			}
		}
		return found;
	}

}
