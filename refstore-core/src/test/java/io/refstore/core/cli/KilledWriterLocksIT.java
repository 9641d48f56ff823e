package io.refstore.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.io.LockOwner;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.Processes;
import io.refstore.core.testing.TempRepo;

/**
 * A {@code refstore update-ref --stdin} killed with {@code SIGKILL} while its prepared
 * transaction holds its locks (git's {@code start}/{@code prepare}, left open): the locks
 * stay and block git, and the next refstore command that needs them clears them (links to
 * the dead process's owner record) and succeeds; a lock made by hand, which is no
 * refstore owner's, stays. Then git writes every ref again and {@code git refs verify}
 * finds nothing. Files under {@code core.fsync=committed} (the record made durable),
 * reftable with its {@code tables.list.lock}, and the table locks of a compaction killed
 * in a process of its own ({@link CompactionLocksMain}).
 */
class KilledWriterLocksIT {

	private static final GitCli GIT = GitCli.reftable();

	private static final int REFS = 300;

	@TempDir
	Path dir;

	@Test
	void aKilledUpdateRefLeavesLooseLocksTheNextCommandClears() throws Exception {
		TempRepo repo = TempRepo.init(GIT, this.dir.resolve("files"));
		String commit = repo.commit("one", null);
		repo.git("config", "core.fsync", "committed");
		Path handMade = repo.gitDir().resolve("refs/heads/by-hand.lock");
		Files.createDirectories(handMade.getParent());
		Files.writeString(handMade, "");

		killPrepared(repo, creates(commit));

		List<Path> locks = new ArrayList<>(locks(repo.gitDir().resolve("refs/heads/new")));
		assertThat(locks).as("the killed command's locks").hasSize(REFS);
		// under core.fsync=committed the transaction commits in one rename of
		// packed-refs, whose lock it holds too
		locks.add(repo.gitDir().resolve("packed-refs.lock"));
		for (Path lock : locks) {
			assertThat((Integer) Files.getAttribute(lock, "unix:nlink", LinkOption.NOFOLLOW_LINKS))
				.as("a link to the owner record")
				.isEqualTo(REFS + 2);
		}
		assertThat(GIT.run(repo.dir(), "update-ref", "refs/heads/new/n7", commit).stderr()).contains("File exists");

		GitCli.refstore().run(repo.dir(), creates(commit), "update-ref", "--stdin").requireOk();

		assertThat(locks(repo.gitDir().resolve("refs/heads/new"))).isEmpty();
		assertThat(repo.gitDir().resolve("packed-refs.lock")).doesNotExist();
		assertThat(GIT.ok(repo.dir(), "for-each-ref", "--format=%(refname)", "refs/heads/new/").lines()).hasSize(REFS);
		GIT.ok(repo.dir(), "update-ref", "refs/heads/new/n7", repo.commit("two", commit));
		assertThat(handMade).as("a lock no refstore owner made").exists();
		assertThat(GIT.run(repo.dir(), "update-ref", "refs/heads/by-hand", commit).stderr()).contains("File exists");
		assertThat(GitCli.refstore().run(repo.dir(), "update-ref", "refs/heads/by-hand", commit).exitCode())
			.isNotZero();
		assertThat(handMade).exists();
		assertNoOwnerRecords(repo);
		GIT.ok(repo.dir(), "refs", "verify");
	}

	@Test
	void aKilledUpdateRefInAReftableRepositoryLeavesTheStackLockTheNextCommandClears() throws Exception {
		TempRepo repo = TempRepo.init(GIT, this.dir.resolve("reftable"), "--ref-format=reftable");
		String commit = repo.commit("one", null);

		killPrepared(repo, creates(commit));

		Path stackLock = repo.gitDir().resolve("reftable/tables.list.lock");
		assertThat(stackLock).exists();
		assertThat(Files.getAttribute(stackLock, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).isEqualTo(2);
		assertThat(GIT.run(repo.dir(), "update-ref", "refs/heads/other", commit).exitCode()).isNotZero();

		GitCli.refstore().run(repo.dir(), creates(commit), "update-ref", "--stdin").requireOk();

		assertThat(locks(repo.gitDir().resolve("reftable"))).isEmpty();
		GIT.ok(repo.dir(), "update-ref", "refs/heads/other", commit);
		assertThat(GIT.ok(repo.dir(), "for-each-ref", "--format=%(refname)", "refs/heads/new/").lines()).hasSize(REFS);
		assertNoOwnerRecords(repo);
		GIT.ok(repo.dir(), "refs", "verify");
	}

	@Test
	void aKilledCompactionLeavesTableLocksTheNextCompactionClears() throws Exception {
		TempRepo repo = TempRepo.init(GIT, this.dir.resolve("compaction"), "--ref-format=reftable");
		String commit = repo.commit("one", null);
		GitCli noCompaction = GIT.withEnv("GIT_TEST_REFTABLE_AUTOCOMPACTION", "false");
		for (int i = 0; i < 3; i++) {
			noCompaction.ok(repo.dir(), "update-ref", "refs/heads/t" + i, commit);
		}
		Path stack = repo.gitDir().resolve("reftable");
		int tables = Files.readAllLines(stack.resolve("tables.list")).size();
		assertThat(tables).isGreaterThan(1);

		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), CompactionLocksMain.class.getName(), repo.gitDir().toString());
		Process holder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
		try {
			String line = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))
				.readLine();
			assertThat(line).isEqualTo("locked");
		}
		finally {
			holder.destroyForcibly();
			Processes.waitFor(holder, "the compaction's lock holder");
		}
		assertThat(locks(stack)).as("every table's lock and the replaced table's").hasSize(tables + 1);
		assertThat(stack.resolve(CompactionLocksMain.REPLACED + ".lock")).exists();

		GitCli.refstore().ok(repo.dir(), "pack-refs");

		assertThat(locks(stack)).isEmpty();
		assertThat(Files.readAllLines(stack.resolve("tables.list"))).as("compacted").hasSize(1);
		GIT.ok(repo.dir(), "pack-refs");
		GIT.ok(repo.dir(), "update-ref", "refs/heads/after", commit);
		assertThat(GIT.ok(repo.dir(), "for-each-ref", "--format=%(refname)").lines()).contains("refs/heads/t2",
				"refs/heads/after");
		assertNoOwnerRecords(repo);
		GIT.ok(repo.dir(), "refs", "verify");
	}

	/** A transaction creating {@code refs/heads/new/n0...}. */
	private static byte[] creates(String commit) {
		StringBuilder text = new StringBuilder("start\n");
		for (int i = 0; i < REFS; i++) {
			text.append("create refs/heads/new/n").append(i).append(' ').append(commit).append('\n');
		}
		return text.append("prepare\ncommit\n").toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Runs {@code refstore update-ref --stdin} up to its {@code prepare: ok} (every lock
	 * taken) and kills it there with {@code SIGKILL}.
	 */
	private static void killPrepared(TempRepo repo, byte[] transaction) throws IOException {
		String text = new String(transaction, StandardCharsets.UTF_8);
		byte[] prepared = text.substring(0, text.indexOf("commit\n")).getBytes(StandardCharsets.UTF_8);
		Process process = PreparedUpdateRef.start(repo.dir(), prepared).process();
		process.destroyForcibly();
		Processes.waitFor(process, "the killed update-ref");
		assertThat(process.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
	}

	private static List<Path> locks(Path dir) throws IOException {
		if (!Files.isDirectory(dir)) {
			return List.of();
		}
		try (Stream<Path> files = Files.walk(dir)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".lock")).toList();
		}
	}

	private static void assertNoOwnerRecords(TempRepo repo) throws IOException {
		try (Stream<Path> owners = Files.list(repo.gitDir().resolve(LockOwner.DIR))) {
			assertThat(owners.map((path) -> path.getFileName().toString())).as("owner records and staged files left")
				.containsOnly(".break");
		}
	}

}
