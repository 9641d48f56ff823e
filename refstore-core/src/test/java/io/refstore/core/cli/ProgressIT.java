package io.refstore.core.cli;

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

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Long operations show git's progress on a terminal: the launcher run under a
 * pseudo-terminal ({@code script} from util-linux) prints {@code Copying refs: 100%
 * (N/N), done.} and the like; on a pipe nothing; {@code --progress},
 * {@code --no-progress} and {@code -q} as in git. {@code GIT_PROGRESS_DELAY=0} shows it
 * from the start, as in git's tests.
 */
class ProgressIT {

	private static final Path DIST = Path.of(System.getProperty("refstore.dist", "target/refstore-missing"));

	private static final int REFS = 3000;

	@TempDir
	static Path temp;

	private static TempRepo base;

	@BeforeAll
	static void makeRepository() throws IOException {
		base = TempRepo.init(GitCli.reftable(), temp.resolve("base"));
		String commit = base.commit("one", null);
		base.git("update-ref", "refs/heads/main", commit);
		StringBuilder packed = new StringBuilder("# pack-refs with: peeled fully-peeled sorted \n");
		for (int i = 0; i < REFS; i++) {
			packed.append(commit).append(String.format(" refs/pull/%05d/head%n", i));
		}
		Files.writeString(base.gitDir().resolve("packed-refs"), packed.toString());
	}

	private static String launcher() {
		return DIST.resolve(DIST.getFileName()).resolve("bin/refstore").toString();
	}

	/** Runs the launcher under a pseudo-terminal: what it printed on it, both streams. */
	private static String onTerminal(Path dir, String args) {
		GitCli.Result result = GitCli.command(List.of("script", "-qfec", launcher() + " " + args, "/dev/null"))
			.withEnv("GIT_PROGRESS_DELAY", "0")
			.run(dir);
		assertThat(result.exitCode()).as(result.stdout() + result.stderr()).isZero();
		return result.stdout().replace("\r\n", "\n");
	}

	private static GitCli.Result onPipe(Path dir, String... args) {
		GitCli.Result result = GitCli.command(List.of(launcher())).withEnv("GIT_PROGRESS_DELAY", "0").run(dir, args);
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		return result;
	}

	@Test
	void migrationAndRollbackShowEachPhaseOnATerminal() {
		Path dir = base.copyTo(temp.resolve("migrate")).dir();
		int all = REFS + 2;
		String shown = onTerminal(dir, "refs migrate --ref-format=reftable");
		assertThat(shown).contains("Reading reflogs: 100% (2/2), done.\n")
			.contains("Copying refs: 100% (" + all + "/" + all + "), done.\n")
			.contains("Writing reflogs: 100% (2/2), done.\n")
			.contains("Verifying refs: 100% (" + all + "/" + all + "), done.\n")
			.containsPattern("Copying refs: {2}\\d\\d% \\(\\d+/\\d+\\)\r");
		assertThat(shown.indexOf("Copying refs")).isLessThan(shown.indexOf("Writing reflogs"));
		assertThat(shown.indexOf("Writing reflogs")).isLessThan(shown.indexOf("Verifying refs"));
		String backup = GitCli.command(List.of(launcher()))
			.run(dir, "refs", "backups")
			.stdout()
			.lines()
			.findFirst()
			.orElseThrow()
			.split("\\s+")[0];
		// two changes since the migration, which the rollback keeps
		GitCli.reftable().ok(dir, "update-ref", "refs/heads/since-migration", "refs/heads/main");
		GitCli.reftable().ok(dir, "update-ref", "-d", "refs/pull/00000/head");
		String rolledBack = onTerminal(dir, "refs rollback " + backup);
		assertThat(rolledBack).contains("Verifying backup: 100% (" + all + "/" + all + "), done.\n")
			.contains("Comparing with the backup: 100% (" + all + "/" + all + "), done.\n")
			.contains("Keeping changes since the migration: 100% (2/2), done.\n")
			.contains("Packing refs: 100% (2/2), done.\n");
		assertThat(rolledBack.indexOf("Verifying backup")).isLessThan(rolledBack.indexOf("Comparing with the backup"));
		// the current store's logs, read for the record of the store the rollback
		// retires: its two, and the one of the branch made since the migration
		assertThat(rolledBack.substring(rolledBack.indexOf("Comparing with the backup")))
			.contains("Reading reflogs: 100% (3/3), done.\n");
		assertThat(GitCli.reftable().ok(dir, "show-ref", "--verify", "refs/heads/since-migration")).isNotEmpty();
		assertThat(GitCli.reftable().ok(dir, "for-each-ref", "refs/pull/00000/")).isEmpty();
		assertThat(GitCli.reftable().ok(dir, "rev-parse", "--show-ref-format").trim()).isEqualTo("files");
	}

	@Test
	void quietAndNoProgressShowNoneOnATerminal() {
		Path dir = base.copyTo(temp.resolve("quiet")).dir();
		assertThat(onTerminal(dir, "refs migrate -q --ref-format=reftable")).doesNotContain("refs: ");
		assertThat(onTerminal(dir, "refs migrate --no-progress --ref-format=files")).doesNotContain("refs: ");
	}

	@Test
	void aPipeGetsNoneUnlessAskedWithProgress() {
		Path dir = base.copyTo(temp.resolve("pipe")).dir();
		assertThat(onPipe(dir, "refs", "migrate", "--ref-format=reftable").stderr()).isEmpty();
		assertThat(onPipe(dir, "refs", "migrate", "--progress", "--ref-format=files").stderr())
			.contains("Copying refs: 100% (" + (REFS + 2) + "/" + (REFS + 2) + "), done.\n");
	}

	@Test
	void deletionAndRestoreCountTheirRefs() {
		Path dir = base.copyTo(temp.resolve("delete")).dir();
		String deleted = onTerminal(dir, "delete-refs --prefix=refs/pull/ --manifest=m.json");
		assertThat(deleted).contains("Deleting refs: " + REFS + ", done.\n");
		String restored = onTerminal(dir, "restore-refs --manifest=m.json");
		assertThat(restored).contains("Restoring refs: " + REFS + ", done.\n");
		assertThat(GitCli.reftable().ok(dir, "for-each-ref", "--count=1", "--format=%(refname)", "refs/pull/"))
			.isEqualTo("refs/pull/00000/head\n");
	}

	@Test
	void linesAreGitsInProcessToo() throws IOException {
		Path dir = base.copyTo(temp.resolve("inprocess")).dir();
		Map<String, String> env = new HashMap<>(CliHarness.ENV);
		env.put("GIT_PROGRESS_DELAY", "0");
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int code = Refstore.run(dir, env, new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(), err,
				"refs", "migrate", "--progress", "--ref-format=reftable");
		assertThat(code).isZero();
		String shown = err.toString(StandardCharsets.UTF_8);
		// every update rewrites its line, each phase ends on its own line
		assertThat(shown)
			.startsWith(
					"Reading reflogs:  50% (1/2)\rReading reflogs: 100% (2/2)\rReading reflogs: 100% (2/2), done.\n")
			.endsWith("Verifying refs: 100% (3002/3002), done.\n")
			.doesNotContain("\n\r");
		assertThat(shown.lines().filter((line) -> line.endsWith(", done."))).hasSize(4);
	}

}
