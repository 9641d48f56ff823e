package io.refstore.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.testing.ReftableGit.Version;

/**
 * Proves that the git of {@link GitCli#reftable()}, which
 * {@code .ci/install-reftable-git.sh} installs, really works with reftable repositories:
 * it makes them, writes and lists refs in them exactly as the system git does in the
 * files format, compacts them and verifies them, with SHA-1 and SHA-256.
 */
class ReftableGitIT {

	private static final Pattern TABLE_NAME = Pattern.compile("0x[0-9a-f]{12}-0x[0-9a-f]{12}-[0-9a-f]{8}\\.ref");

	private static final String LISTING = "%(refname) %(objecttype) %(objectname) %(*objectname) %(symref)";

	/** Git has checked table names since 2.52 ({@code badReftableTableName}). */
	private static final Version CHECKS_TABLE_NAMES = new Version(2, 52, 0);

	private final GitCli git = GitCli.reftable();

	@Test
	void initMakesAReftableRepository(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(this.git, dir, "--ref-format=reftable");

		assertThat(repo.git("rev-parse", "--show-ref-format")).isEqualTo("reftable\n");
		assertThat(repo.git("config", "extensions.refStorage")).isEqualTo("reftable\n");
		assertThat(repo.git("symbolic-ref", "HEAD")).isEqualTo("refs/heads/main\n");
		// the stub that keeps older gits from taking the folder for loose refs
		assertThat(Files.readString(repo.gitDir().resolve("refs/heads")))
			.isEqualTo("this repository uses the reftable format\n");
		assertThat(tables(repo)).singleElement().asString().matches(TABLE_NAME);
		byte[] header = header(repo, 24);
		assertThat(Arrays.copyOf(header, 5)).isEqualTo(new byte[] { 'R', 'E', 'F', 'T', 1 });
	}

	@ParameterizedTest
	@ValueSource(strings = { "sha1", "sha256" })
	void refsAreListedAsTheSystemGitListsTheSameRefsInFilesFormat(String objectFormat, @TempDir Path dir) {
		TempRepo reftable = TempRepo.init(this.git, dir.resolve("reftable"), "--ref-format=reftable",
				"--object-format=" + objectFormat);
		TempRepo files = TempRepo.init(GitCli.system(), dir.resolve("files"), "--object-format=" + objectFormat);

		List<String> names = writeRefs(reftable);
		writeRefs(files);

		String listed = reftable.git("for-each-ref", "--format=" + LISTING);
		assertThat(listed).isEqualTo(files.git("for-each-ref", "--format=" + LISTING));
		assertThat(listed.lines().map((line) -> line.substring(0, line.indexOf(' '))).toList())
			.isEqualTo(sortedBytewise(names));
		int hexLength = objectFormat.equals("sha256") ? 64 : 40;
		assertThat(listed.lines().map((line) -> line.split(" ")[2])).allMatch((id) -> id.length() == hexLength);
		assertThat(reftable.git("rev-parse", "--show-object-format")).isEqualTo(objectFormat + "\n");
	}

	@Test
	void packRefsCompactsTheStackIntoOneTableThatRefsVerifyAccepts(@TempDir Path dir) throws IOException {
		// one table per write, so that there is a stack to compact
		TempRepo repo = TempRepo.init(this.git.withEnv("GIT_TEST_REFTABLE_AUTOCOMPACTION", "false"), dir,
				"--ref-format=reftable");
		String commit = repo.commit("one", null);
		for (int i = 0; i < 5; i++) {
			repo.git("update-ref", "refs/heads/b" + i, commit);
		}
		String before = repo.git("for-each-ref", "--format=" + LISTING);
		assertThat(tables(repo)).hasSize(6).allMatch((name) -> TABLE_NAME.matcher(name).matches());

		repo.git("pack-refs");

		assertThat(tables(repo)).singleElement().asString().startsWith("0x000000000001-0x000000000006-");
		assertThat(repo.git("for-each-ref", "--format=" + LISTING)).isEqualTo(before).contains("refs/heads/b4");
		GitCli.Result verify = repo.run(new byte[0], "refs", "verify", "--strict");
		assertThat(verify.exitCode()).as(verify.stderr()).isZero();
		assertThat(verify.stderr()).isEmpty();
	}

	@Test
	void refsVerifyJudgesTheStack(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(this.git, dir, "--ref-format=reftable");
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		Path stack = repo.gitDir().resolve("reftable");
		String table = tables(repo).get(0);
		// a name outside git's pattern; the contents stay readable through tables.list
		Files.move(stack.resolve(table), stack.resolve("renamed.ref"));
		Files.writeString(stack.resolve("tables.list"), "renamed.ref\n");
		assertThat(repo.git("for-each-ref", "--format=%(refname)")).isEqualTo("refs/heads/main\n");

		GitCli.Result verify = repo.run(new byte[0], "refs", "verify", "--strict");

		if (version().compareTo(CHECKS_TABLE_NAMES) >= 0) {
			assertThat(verify.exitCode()).isNotZero();
			assertThat(verify.stderr()).contains("renamed.ref: badReftableTableName");
		}
		else {
			assertThat(verify.exitCode()).as(verify.stderr()).isZero();
		}
	}

	@Test
	void sha256RepositoriesWriteVersion2Tables(@TempDir Path dir) throws IOException {
		TempRepo repo = TempRepo.init(this.git, dir, "--ref-format=reftable", "--object-format=sha256");
		String commit = repo.commit("one", null);
		repo.git("update-ref", "refs/heads/main", commit);
		repo.git("update-ref", "refs/tags/v1", repo.tagObject("v1", commit, "commit"));
		repo.git("pack-refs");

		assertThat(commit).hasSize(64);
		assertThat(repo.git("rev-parse", "refs/tags/v1^{commit}")).isEqualTo(commit + "\n");
		byte[] header = header(repo, 28);
		assertThat(Arrays.copyOf(header, 5)).isEqualTo(new byte[] { 'R', 'E', 'F', 'T', 2 });
		assertThat(new String(header, 24, 4, StandardCharsets.US_ASCII)).isEqualTo("s256");
		assertThat(repo.run(new byte[0], "refs", "verify", "--strict").exitCode()).isZero();
		repo.git("fsck", "--no-progress");
	}

	/**
	 * Writes the same refs in any repository: commits and a tag object (with fixed
	 * identities and clock, so their ids agree between repositories), names that sort
	 * differently by UTF-16 than by bytes, a symbolic ref, and 200 more branches.
	 * @return the names of the refs written
	 */
	private static List<String> writeRefs(TempRepo repo) {
		List<String> commits = repo.commits(3, "commit");
		String tag = repo.tagObject("v1", commits.get(0), "commit");
		// '/' sorts between '.' and '0'; U+E000 sorts before U+1F600 by bytes, after it
		// by UTF-16
		List<String> names = new ArrayList<>(List.of("refs/heads/main", "refs/heads/a", "refs/heads/b-c",
				"refs/heads/b.c", "refs/heads/b/c", "refs/heads/b0", "refs/heads/Z", "refs/heads/\u00e9",
				"refs/heads/\ue000", "refs/heads/\ud83d\ude00", "refs/notes/commits", "refs/remotes/origin/main"));
		for (int i = 0; i < 200; i++) {
			names.add("refs/heads/topic/" + i);
		}
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < names.size(); i++) {
			stdin.append("create ").append(names.get(i)).append(' ').append(commits.get(i % 3)).append('\n');
		}
		stdin.append("create refs/tags/v1 ").append(tag).append('\n');
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
		names.add("refs/tags/v1");
		names.add("refs/remotes/origin/HEAD");
		return names;
	}

	private static List<String> sortedBytewise(List<String> names) {
		return names.stream()
			.sorted((a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
					b.getBytes(StandardCharsets.UTF_8)))
			.toList();
	}

	private static List<String> tables(TempRepo repo) throws IOException {
		return Files.readAllLines(repo.gitDir().resolve("reftable/tables.list"));
	}

	/** The first bytes of the newest table. */
	private static byte[] header(TempRepo repo, int length) throws IOException {
		List<String> tables = tables(repo);
		byte[] table = Files.readAllBytes(repo.gitDir().resolve("reftable").resolve(tables.get(tables.size() - 1)));
		return Arrays.copyOf(table, length);
	}

	private Version version() {
		return ReftableGit.requireReftable(Path.of(this.git.command().get(0)), this.git.ok(Path.of("."), "version"));
	}

}
