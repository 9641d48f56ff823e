package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.cli.Refstore;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore delete-refs} and {@code restore-refs} run in-process on small
 * repositories made by git: output, exit codes, and what git sees afterwards.
 */
class DeleteRefsCommandIT {

	private static final Map<String, String> ENV = Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_CONFIG_GLOBAL", "/dev/null",
			"GIT_COMMITTER_NAME", "C O Mitter", "GIT_COMMITTER_EMAIL", "committer@example.com", "GIT_COMMITTER_DATE",
			GitCli.FIXED_DATE, "TZ", "UTC");

	@TempDir
	Path tmp;

	/** A result of the command. */
	private record Run(int code, String out, String err) {
	}

	private static Run refstore(TempRepo repo, String stdin, String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int code = Refstore.run(repo.dir(), ENV, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), out,
				err, args);
		return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

	/**
	 * main, 30 branches {@code refs/heads/tmp/b00}... (packed, the last ten loose), five
	 * tags.
	 */
	private TempRepo repo(GitCli git, String... initOptions) {
		TempRepo repo = TempRepo.init(git, this.tmp.resolve("repo"), initOptions);
		List<String> commits = repo.commits(3, "c");
		StringBuilder stdin = new StringBuilder("create refs/heads/main " + commits.get(0) + "\n");
		for (int i = 0; i < 30; i++) {
			stdin.append(String.format("create refs/heads/tmp/b%02d %s%n", i, commits.get(i % 3)));
		}
		for (int i = 0; i < 5; i++) {
			stdin.append(String.format("create refs/tags/t%d %s%n", i, commits.get(i % 3)));
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "-m", "made", "--stdin").requireOk();
		repo.git("pack-refs", "--all");
		for (int i = 20; i < 30; i++) {
			repo.git("update-ref", "-m", "moved", String.format("refs/heads/tmp/b%02d", i), commits.get((i + 1) % 3));
		}
		return repo;
	}

	private static List<String> refs(TempRepo repo) {
		return DeletionFixture.refs(repo);
	}

	@Test
	void dryRunPrintsCountSampleAndMissingNamesAndChangesNothing() {
		TempRepo repo = repo(GitCli.system());
		List<String> before = refs(repo);
		Run run = refstore(repo, "refs/tags/t1\nrefs/tags/none\n\nrefs/heads/tmp/b01\n", "delete-refs", "--dry-run",
				"--sample=3", "--prefix=refs/heads/tmp/", "--exclude=refs/heads/tmp/b0*", "--glob=refs/tags/t[0-2]",
				"--stdin");
		assertThat(run.code()).isZero();
		assertThat(run.out()).isEqualTo("would delete 23 refs\n  refs/heads/tmp/b10\n  refs/heads/tmp/b11\n"
				+ "  refs/heads/tmp/b12\n  ... and 20 more\n1 listed names do not exist\n");
		assertThat(run.err()).isEmpty();
		assertThat(refs(repo)).isEqualTo(before);
	}

	@Test
	void protectedRefsAreKeptAndCountedUnlessTheDefaultsAreDropped() {
		TempRepo repo = repo(GitCli.system());
		String commit = repo.git("rev-parse", "refs/heads/main").trim();
		repo.git("update-ref", "refs/notes/commits", commit);
		repo.git("update-ref", "refs/keep-around/" + commit, commit);
		List<String> before = refs(repo);
		Run dry = refstore(repo, "refs/notes/commits\n", "delete-refs", "--dry-run", "--sample=2", "--prefix=refs/",
				"--stdin");
		assertThat(dry.out()).isEqualTo("would delete 35 refs\n  refs/heads/tmp/b00\n  refs/heads/tmp/b01\n"
				+ "  ... and 33 more\nkept 3 protected refs (1 refs/keep-around/**, 1 refs/notes/**, 1 HEAD)\n"
				+ "  refs/heads/main (HEAD)\n  refs/keep-around/" + commit
				+ " (refs/keep-around/**)\n  ... and 1 more\n");
		assertThat(dry.code()).isZero();
		assertThat(refs(repo)).isEqualTo(before);

		Run run = refstore(repo, "", "delete-refs", "--sample=0", "--manifest=m", "--prefix=refs/",
				"--no-default-protect", "--protect=refs/notes/*");
		assertThat(run.out()).isEqualTo("deleted 37 refs in 1 chunks\nkept 1 protected refs (1 refs/notes/*)\n"
				+ "manifest: " + repo.dir().resolve("m") + "\n");
		assertThat(run.code()).isZero();
		assertThat(DeletionFixture.names(repo)).containsExactly("refs/notes/commits");
		repo.git("fsck", "--no-progress");

		assertFatal(repo, "",
				"fatal: --protect 'notes/*': it can never match: every ref it may delete starts with " + "'refs/'\n",
				"delete-refs", "--prefix=refs/", "--protect=notes/*");
	}

	@Test
	void deleteAndRestoreThroughTheCommandWithTheDefaultManifest() throws IOException {
		TempRepo repo = repo(GitCli.system());
		List<String> before = refs(repo);
		List<String> reflogs = DeletionFixture.reflogs(repo);
		Run run = refstore(repo, "", "delete-refs", "--chunk-size=7", "--sample=2", "--glob=refs/heads/tmp/*",
				"--glob=refs/tags/**");
		assertThat(run.code()).isZero();
		assertThat(run.err()).isEmpty();
		Path manifest = Path.of(run.out()
			.lines()
			.filter((line) -> line.startsWith("manifest: "))
			.findFirst()
			.orElseThrow()
			.substring("manifest: ".length()));
		assertThat(run.out()).isEqualTo("deleted 35 refs in 5 chunks\n  refs/heads/tmp/b00\n  refs/heads/tmp/b01\n"
				+ "manifest: " + manifest + "\n");
		assertThat(manifest.getParent()).isEqualTo(repo.gitDir().resolve("refstore"));
		assertThat(manifest.getFileName().toString()).matches("delete-\\d{8}T\\d{6}Z\\.manifest");
		assertThat(refs(repo)).hasSize(1);

		Run restore = refstore(repo, "", "restore-refs", "--manifest=" + manifest);
		assertThat(restore.code()).isZero();
		assertThat(restore.out()).isEqualTo("restored 35 refs (40 reflog entries) in 5 chunks\n");
		assertThat(refs(repo)).isEqualTo(before);
		assertThat(DeletionFixture.reflogs(repo)).isEqualTo(reflogs);
		repo.git("fsck", "--no-progress");
	}

	/**
	 * What a restore reports back must survive a power cut whatever {@code core.fsync}
	 * says (unset here, git's default, which forces nothing): every ref it recreates (on
	 * files, a chunk's refs packed in one {@code packed-refs}) and every log it writes is
	 * forced, as the file syncs counted in its {@code GIT_TRACE2_EVENT} show
	 * (directories, which the counter leaves out as git does, are checked with power cuts
	 * outside the suite). In reftable the restored entries of a chunk are one table,
	 * forced with its {@code tables.list} as the chunk's refs are; compaction is off, so
	 * that no other table is written.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void restoreForcesEveryRefAndReflogItWrites(String format) throws IOException {
		TempRepo repo = format.equals("files") ? repo(GitCli.system())
				: repo(GitCli.reftable(), "--ref-format=reftable");
		repo.git("config", "reftable.autoCompaction", "false");
		List<String> before = refs(repo);
		List<String> reflogs = DeletionFixture.reflogs(repo);
		assertThat(
				refstore(repo, "", "delete-refs", "--chunk-size=7", "--manifest=m", "--prefix=refs/heads/tmp/").code())
			.isZero();

		Path trace = this.tmp.resolve("restore.trace");
		Map<String, String> env = new HashMap<>(ENV);
		env.put("GIT_TRACE2_EVENT", trace.toString());
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int code = Refstore.run(repo.dir(), env, new ByteArrayInputStream(new byte[0]), out,
				new ByteArrayOutputStream(), "restore-refs", "--manifest=m");
		assertThat(code).isZero();
		assertThat(out.toString(StandardCharsets.UTF_8))
			.isEqualTo("restored 30 refs (40 reflog entries) in 5 chunks\n");
		assertThat(refs(repo)).isEqualTo(before);
		assertThat(DeletionFixture.reflogs(repo)).isEqualTo(reflogs);
		// files: per chunk one packed-refs holding its refs, and the 30 logs; reftable:
		// per chunk a table of refs and one of logs, each with its list
		long forced = format.equals("files") ? 5 + 30 : 5 * (2 + 2);
		assertThat(hardwareFlushes(trace)).isGreaterThanOrEqualTo(forced);
	}

	/**
	 * On files a restored chunk is one rewrite of {@code packed-refs}: the directories
	 * that held only the refs' lock files are not forced (a directory sync per ref made a
	 * restore of 100,000 refs in a directory each 100,000 syncs), {@code packed-refs}'
	 * is, once a chunk.
	 */
	@Test
	void aRestoreOnFilesForcesNoDirectoryOfARefItPacks() throws Exception {
		TempRepo repo = TempRepo.init(GitCli.system(), this.tmp.resolve("repo"));
		String commit = repo.commits(1, "c").get(0);
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < 40; i++) {
			stdin.append("create refs/pull/").append(i).append("/head ").append(commit).append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("pack-refs", "--all");
		List<String> before = refs(repo);
		assertThat(refstore(repo, "", "delete-refs", "--chunk-size=10", "--manifest=m", "--prefix=refs/pull/").code())
			.isZero();
		Path gitDir = repo.gitDir().toRealPath();

		List<String> calls = io.refstore.core.testing.SystemCalls.traced(this.tmp, "fdatasync",
				() -> assertThat(refstore(repo, "", "restore-refs", "--manifest=m").out())
					.isEqualTo("restored 40 refs (0 reflog entries) in 4 chunks\n"));

		assertThat(refs(repo)).isEqualTo(before);
		assertThat(calls).as("no directory of refs/pull/ forced")
			.noneMatch((call) -> call.contains("<" + gitDir.resolve("refs/pull") + "/"));
		assertThat(calls.stream()
			.filter((call) -> call
				.matches(".*fsync\\(\\d+<" + java.util.regex.Pattern.quote(gitDir.toString()) + ">\\).*")))
			.as("the git directory forced with each chunk's packed-refs")
			.hasSizeGreaterThanOrEqualTo(4);
	}

	/** The {@code fsync/hardware-flush} count of a trace2 event file, 0 if none. */
	private static long hardwareFlushes(Path trace) throws IOException {
		String counter = "\"category\":\"fsync\",\"name\":\"hardware-flush\",\"count\":";
		long count = 0;
		for (String line : Files.readAllLines(trace)) {
			int at = line.indexOf(counter);
			if (at >= 0) {
				count += Long.parseLong(line.substring(at + counter.length(), line.length() - 1));
			}
		}
		return count;
	}

	@Test
	void heldLockFailsItsChunkWithExitOneAndTheRestoreUndoesTheChunksBefore() throws IOException {
		TempRepo repo = repo(GitCli.system());
		List<String> before = refs(repo);
		Path lock = repo.gitDir().resolve("refs/heads/tmp/b25.lock");
		Files.writeString(lock, "");
		Run run = refstore(repo, "", "delete-refs", "--chunk-size=10", "--sample=0", "--manifest=gone.manifest",
				"--prefix=refs/heads/tmp/");
		assertThat(run.code()).isEqualTo(1);
		assertThat(run.out())
			.isEqualTo("deleted 20 refs in 2 chunks\nmanifest: " + repo.dir().resolve("gone.manifest") + "\n");
		assertThat(run.err()).startsWith("error: chunk 3 (ref 'refs/heads/tmp/b25') failed: cannot lock ref "
				+ "'refs/heads/tmp/b25': Unable to create '" + lock + "': File exists.");
		assertThat(refs(repo)).hasSize(1 + 10 + 5);
		Files.delete(lock);

		Run restore = refstore(repo, "", "restore-refs", "--manifest", "gone.manifest");
		assertThat(restore.out()).isEqualTo("restored 20 refs (20 reflog entries) in 2 chunks\n"
				+ "1 chunks were skipped: nothing of them was deleted\n");
		assertThat(restore.code()).isZero();
		assertThat(refs(repo)).isEqualTo(before);
	}

	@Test
	void badValuesAndStatesEndWithAFatalErrorNamingTheCulprit() throws IOException {
		TempRepo repo = repo(GitCli.system());
		assertFatal(repo, "", "fatal: --glob 'refs/heads/[x': '[' at offset 11 has no closing ']'\n", "delete-refs",
				"--glob=refs/heads/[x");
		assertFatal(repo, "",
				"fatal: --exclude 'tags/*': it can never match: every ref it may delete starts with " + "'refs/'\n",
				"delete-refs", "--prefix=refs/tags/", "--exclude=tags/*");
		assertFatal(repo, "", "fatal: --prefix 'heads/': it must start with 'refs/'\n", "delete-refs",
				"--prefix=heads/");
		assertFatal(repo, "", "fatal: --chunk-size '0': not a number of at least 1\n", "delete-refs", "--prefix=refs/",
				"--chunk-size=0");
		assertFatal(repo, "", "fatal: --sample 'many': not a number of at least 0\n", "delete-refs", "--prefix=refs/",
				"--sample=many");
		assertFatal(repo, "refs/heads/ok\nrefs/heads/a..b\n",
				"fatal: stdin line 2 'refs/heads/a..b': not a valid ref" + " name: it contains '..'\n", "delete-refs",
				"--stdin");
		assertFatal(repo, "", "fatal: nothing to delete: give --prefix, --glob or --stdin\n", "delete-refs",
				"--exclude=refs/tags/");
		Files.writeString(repo.dir().resolve("taken"), "");
		assertFatal(repo, "", "fatal: manifest '" + repo.dir().resolve("taken") + "' already exists\n", "delete-refs",
				"--prefix=refs/", "--manifest=taken");
		assertFatal(repo, "", "fatal: manifest '" + repo.dir().resolve("nowhere") + "' does not exist\n",
				"restore-refs", "--manifest=nowhere");
		Files.writeString(repo.dir().resolve("junk"), "refstore-delete-manifest 9\n");
		assertFatal(repo, "", "fatal: " + repo.dir().resolve("junk") + ":1: manifest version 9 is not supported "
				+ "(this refstore reads version 1)\n", "restore-refs", "--manifest=junk");
		assertThat(refs(repo)).hasSize(36);
		Run unknown = refstore(repo, "", "delete-refs", "--everything");
		assertThat(unknown.code()).isEqualTo(129);
		assertThat(unknown.err()).startsWith("error: unknown option `everything'\nusage: refstore delete-refs");
		Run noManifest = refstore(repo, "", "restore-refs");
		assertThat(noManifest.code()).isEqualTo(129);
		assertThat(noManifest.err()).startsWith("error: --manifest is required\nusage: refstore restore-refs");
	}

	private static void assertFatal(TempRepo repo, String stdin, String err, String... args) {
		Run run = refstore(repo, stdin, args);
		assertThat(run.err()).isEqualTo(err);
		assertThat(run.code()).isEqualTo(128);
		assertThat(run.out()).isEmpty();
	}

	@Test
	void restoreRefusesARefThatCameBackWithAnotherValue() {
		TempRepo repo = repo(GitCli.system());
		assertThat(refstore(repo, "", "delete-refs", "--prefix=refs/tags/", "--manifest=m").code()).isZero();
		String other = repo.git("rev-parse", "refs/heads/tmp/b01").trim();
		repo.git("update-ref", "refs/tags/t3", other);
		String t3 = repo.git("rev-parse", "refs/heads/tmp/b00").trim();
		Run run = refstore(repo, "", "restore-refs", "--manifest=m");
		assertThat(run.code()).isEqualTo(128);
		assertThat(run.err()).isEqualTo("fatal: cannot restore 'refs/tags/t3': it exists as " + other
				+ ", the manifest has " + t3 + "; nothing was restored\n");
		assertThat(refs(repo)).hasSize(32);
	}

	@Test
	void reftableRepositoriesWorkThroughTheCommand() {
		TempRepo repo = repo(GitCli.reftable(), "--ref-format=reftable");
		List<String> before = refs(repo);
		List<String> reflogs = DeletionFixture.reflogs(repo);
		Run run = refstore(repo, "refs/tags/t4\n", "delete-refs", "--chunk-size=4", "--sample=0", "--manifest=m",
				"--glob=refs/heads/tmp/b1?", "--stdin");
		assertThat(run.out()).isEqualTo("deleted 11 refs in 3 chunks\nmanifest: " + repo.dir().resolve("m") + "\n");
		assertThat(run.code()).isZero();
		assertThat(refs(repo)).hasSize(before.size() - 11);
		Run restore = refstore(repo, "", "restore-refs", "--manifest=m");
		assertThat(restore.out()).isEqualTo("restored 11 refs (10 reflog entries) in 3 chunks\n");
		assertThat(refs(repo)).isEqualTo(before);
		assertThat(DeletionFixture.reflogs(repo)).isEqualTo(reflogs);
		assertThat(repo.git("refs", "verify", "--strict")).isEmpty();
	}

}
