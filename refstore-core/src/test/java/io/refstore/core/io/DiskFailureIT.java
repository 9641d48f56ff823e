package io.refstore.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.SmallDisk;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refs migrate} and {@code delete-refs} on a disk that fills up (a small
 * {@code tmpfs}), and on one whose write-back fails so that only {@code fsync} can tell
 * (ext4 on a loop device over a full {@code tmpfs}). Each stops with an error saying so
 * and leaves the repository as git saw it; with room again, a rerun finishes. The file
 * systems are mounted for real, which needs root (see {@link SmallDisk}).
 */
class DiskFailureIT {

	/**
	 * Tags in the repositories: a packed-refs of about 1.2 MB, a reftable of a few
	 * hundred KB.
	 */
	private static final int TAGS = 20_000;

	private static final long DISK = 24L << 20;

	@TempDir
	Path tmp;

	/**
	 * Where the class's two repositories are made, once: every test copies one and
	 * changes only its copy.
	 */
	@TempDir
	static Path made;

	private static TempRepo files;

	private static TempRepo reftable;

	private record Run(int code, String out, String err) {

		String both() {
			return this.out + this.err;
		}

	}

	@ParameterizedTest(name = "{0} store, {1} bytes left")
	@CsvSource({ "files, 8192", "files, 262144", "reftable, 8192", "reftable, 262144" })
	void migrationOutOfSpaceLeavesTheRepositoryAsItWasAndARerunFinishes(String format, long free) throws IOException {
		try (SmallDisk disk = SmallDisk.tmpfs(this.tmp.resolve("disk"), DISK)) {
			TempRepo repo = repo(disk.root().resolve("repo"), format);
			State before = State.of(repo);
			String target = format.equals("files") ? "reftable" : "files";
			disk.fill(free);

			Run failed = refstore(repo, "refs", "migrate", "--ref-format=" + target);
			assertThat(failed.code()).as(failed.both()).isNotZero();
			assertThat(failed.err()).contains("No space left on device").doesNotContain("\tat ", "Exception");
			assertThat(State.of(repo)).isEqualTo(before);

			disk.unfill();
			Run rerun = refstore(repo, "refs", "migrate", "--ref-format=" + target);
			assertThat(rerun.code()).as(rerun.both()).isZero();
			assertThat(State.of(repo)).isEqualTo(before.as(target));
		}
	}

	@ParameterizedTest(name = "{0} store, manifest on the full disk: {1}")
	@CsvSource({ "files, false", "files, true", "reftable, false", "reftable, true" })
	void deleteRefsOutOfSpaceDeletesNothingAndARerunFinishes(String format, boolean manifestOnDisk) throws IOException {
		try (SmallDisk disk = SmallDisk.tmpfs(this.tmp.resolve("disk"), DISK)) {
			TempRepo repo = repo(disk.root().resolve("repo"), format);
			State before = State.of(repo);
			Path manifests = manifestOnDisk ? disk.root() : Files.createDirectories(this.tmp.resolve("manifests"));
			// the manifest alone takes a chunk's worth of records, about 300 KB; a new
			// packed-refs 1 MB
			disk.fill(manifestOnDisk ? 65536 : 8192);

			Run failed = refstore(repo, "delete-refs", "--prefix=refs/tags/", "--chunk-size=5000",
					"--manifest=" + manifests.resolve("first.manifest"));
			assertThat(failed.code()).as(failed.both()).isNotZero();
			assertThat(failed.both()).contains("No space left on device").doesNotContain("\tat ", "Exception");
			assertThat(State.of(repo)).isEqualTo(before);
			assertThat(repo.gitDir().resolve("packed-refs.lock")).doesNotExist();
			assertThat(repo.gitDir().resolve("packed-refs.new")).doesNotExist();

			disk.unfill();
			Path manifest = manifests.resolve("second.manifest");
			Run rerun = refstore(repo, "delete-refs", "--prefix=refs/tags/", "--chunk-size=5000",
					"--manifest=" + manifest);
			assertThat(rerun.code()).as(rerun.both()).isZero();
			assertThat(repo.git("for-each-ref", "refs/tags/")).isEmpty();
			// a files store restores as loose refs, a page each on tmpfs: more than the
			// small disk holds
			disk.resize(DISK + (TAGS * 4096L));
			Run restore = refstore(repo, "restore-refs", "--manifest=" + manifest);
			assertThat(restore.code()).as(restore.both()).isZero();
			assertThat(State.of(repo)).isEqualTo(before);
		}
	}

	@Test
	void migrationWhoseSyncFailsStopsWithTheErrorAndLeavesTheRepositoryAsItWas() throws IOException {
		try (SmallDisk disk = SmallDisk.thinExt4(this.tmp.resolve("thin"), 16L << 20, 256L << 20)) {
			TempRepo repo = repo(disk.root().resolve("repo"), "files");
			State before = State.of(repo);
			// from here, every write succeeds into the page cache and fails on its way to
			// the device
			disk.fillBacking();

			Run failed = refstore(repo, "refs", "migrate", "--ref-format=reftable");
			assertThat(failed.code())
				.as("a migration whose data never reached the disk reported success: %s", failed.both())
				.isNotZero();
			assertThat(failed.err()).doesNotContain("\tat ", "Exception");
			assertThat(State.of(repo)).isEqualTo(before);
			disk.unfill();
		}
	}

	/**
	 * A reflog per ref is written as a file per ref and forced with one sync of the file
	 * system ({@link FileSystemSync}): the device fills up under the reflogs' write-back
	 * (ext4 then reports the error, or aborts its journal and turns read-only), and the
	 * migration stops as a failed file sync stops it.
	 */
	@Test
	void migrationToFilesOfAReflogPerRefOnAFailingDiskStopsWithTheErrorAndLeavesTheRepositoryAsItWas()
			throws IOException {
		TempRepo logged = TempRepo.init(GitCli.reftable(), this.tmp.resolve("logged"), "--ref-format=reftable");
		String commit = logged.commits(1, "c").get(0);
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < FileSystemSync.FROM_FILES + 200; i++) {
			stdin.append("create refs/heads/b").append(i).append(' ').append(commit).append('\n');
		}
		logged.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "-m", "made", "--stdin")
			.requireOk();
		try (SmallDisk disk = SmallDisk.thinExt4(this.tmp.resolve("thin"), 16L << 20, 256L << 20)) {
			TempRepo repo = logged.copyTo(disk.root().resolve("repo"));
			State before = State.of(repo);
			// room for the migration's own small files, not for the reflogs (a block
			// each)
			disk.fillBacking(1L << 20);

			Run failed = refstore(repo, "refs", "migrate", "--ref-format=files");
			assertThat(failed.code())
				.as("a migration whose reflogs never reached the disk reported success: %s", failed.both())
				.isNotZero();
			assertThat(failed.err()).doesNotContain("\tat ", "Exception");
			assertThat(State.of(repo)).isEqualTo(before);
			disk.unfill();
		}
	}

	@Test
	void deletionWhoseSyncFailsCommitsNothing() throws IOException {
		try (SmallDisk disk = SmallDisk.thinExt4(this.tmp.resolve("thin"), 16L << 20, 256L << 20)) {
			TempRepo repo = repo(disk.root().resolve("repo"), "files");
			State before = State.of(repo);
			Path manifest = Files.createDirectories(this.tmp.resolve("manifests")).resolve("m");
			disk.fillBacking();

			Run failed = refstore(repo, "delete-refs", "--prefix=refs/tags/", "--chunk-size=5000",
					"--manifest=" + manifest);
			assertThat(failed.code())
				.as("a deletion whose packed-refs never reached the disk reported success: %s", failed.both())
				.isNotZero();
			assertThat(failed.both()).doesNotContain("\tat ", "Exception");
			assertThat(State.of(repo)).isEqualTo(before);
			disk.unfill();
		}
	}

	/**
	 * Makes the class's two repositories (20,000 tags through git take seconds, and every
	 * test starts from the same ones).
	 */
	@BeforeAll
	static void makeRepositories() {
		files = make("files");
		reftable = make("reftable");
	}

	/**
	 * A copy in {@code dir} of the repository made in {@code format}, outside the small
	 * disk, where 20,000 loose refs would not fit.
	 */
	private static TempRepo repo(Path dir, String format) {
		return (format.equals("files") ? files : reftable).copyTo(dir);
	}

	/**
	 * A repository of {@link #TAGS} tags and 20 logged branches, made by git in
	 * {@code format} (packed if files).
	 */
	private static TempRepo make(String format) {
		TempRepo repo = TempRepo.init(GitCli.reftable(), made.resolve(format), "--ref-format=" + format);
		String commit = repo.commits(1, "c").get(0);
		StringBuilder stdin = new StringBuilder();
		for (int i = 0; i < TAGS; i++) {
			stdin.append("create refs/tags/t").append(i).append(' ').append(commit).append('\n');
		}
		for (int i = 0; i < 20; i++) {
			stdin.append("create refs/heads/b").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "-m", "made", "--stdin").requireOk();
		if (format.equals("files")) {
			repo.git("pack-refs", "--all");
		}
		return repo;
	}

	/**
	 * Runs the refstore jar: a process of its own, so that nothing it maps keeps the disk
	 * from unmounting.
	 */
	private static Run refstore(TempRepo repo, String... args) {
		GitCli.Result result = GitCli.refstore().run(repo.dir(), args);
		return new Run(result.exitCode(), result.stdout(), result.stderr());
	}

	/**
	 * What git reads: the format, every ref, {@code HEAD}, a branch's reflog, and that
	 * {@code git fsck} is clean.
	 */
	private record State(String format, String refs, String head, String reflog, String fsck) {

		static State of(TempRepo repo) {
			GitCli.Result fsck = repo.git().run(repo.dir(), "fsck", "--no-progress");
			return new State(repo.git("rev-parse", "--show-ref-format").strip(), repo.git("for-each-ref"),
					repo.git("symbolic-ref", "HEAD"), repo.git("reflog", "show", "--format=%H %gs", "refs/heads/b7"),
					"exit " + fsck.exitCode() + " " + fsck.stderr());
		}

		State as(String otherFormat) {
			return new State(otherFormat, this.refs, this.head, this.reflog, this.fsck);
		}

	}

}
