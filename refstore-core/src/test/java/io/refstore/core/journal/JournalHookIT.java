package io.refstore.core.journal;

import static io.refstore.core.journal.JournalFixtures.LOGGING_HOOK;
import static io.refstore.core.journal.JournalFixtures.changes;
import static io.refstore.core.journal.JournalFixtures.committedLines;
import static io.refstore.core.journal.JournalFixtures.entries;
import static io.refstore.core.journal.JournalFixtures.install;
import static io.refstore.core.journal.JournalFixtures.writeHook;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The journal hook under real git 2.39 and 2.55, in both formats: {@code update-ref},
 * {@code branch -D}, a push into a bare repository, a forced push and a push that
 * deletes, with and without a hook the repository had before; the entries are compared
 * with what git did (the refs' values before and after) and with what git gave the
 * repository's own hook.
 */
class JournalHookIT {

	private static final String ZERO = "0".repeat(40);

	@TempDir
	Path dir;

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void pushesAreJournaledWithTheirValuesAndThePusher(String version, String format) throws IOException {
		Pushes pushes = push(version, format, false);

		List<JournalEntry> entries = entries(pushes.server);

		assertThat(changes(entries)).containsExactly(ZERO + " " + pushes.c2 + " refs/heads/feature",
				pushes.c2 + " " + pushes.c3 + " refs/heads/feature", pushes.c3 + " " + ZERO + " refs/heads/feature");
		assertThat(entries).allSatisfy((entry) -> {
			assertThat(entry.writer()).isEqualTo(WriterKind.GIT);
			assertThat(entry.identity()).isEqualTo("GL_USERNAME=alice");
		});
		assertThat(entries).extracting(JournalEntry::transaction).doesNotHaveDuplicates();
		assertThat(entries).extracting(JournalEntry::time).isSorted();
	}

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void aRepositorysOwnHookRunsAsBeforeAndSeesWhatTheJournalRecords(String version, String format) throws IOException {
		Pushes pushes = push(version, format, true);

		assertThat(changes(entries(pushes.server)))
			.isEqualTo(committedLines(pushes.server.gitDir().resolve("own-hook.log")));
		assertThat(changes(entries(pushes.work))).isEqualTo(committedLines(pushes.work.dir().resolve("own-hook.log")));
		assertThat(Files.readString(pushes.server.gitDir().resolve("own-hook.log"))).contains("== prepared");
		assertThat(pushes.forced.stderr()).contains("own hook: prepared").contains("own hook: committed");
	}

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void updateRefAndBranchDeletionAreJournaledAsGitReportsThem(String version, String format) throws IOException {
		Pushes pushes = push(version, format, false);
		TempRepo work = pushes.work;

		List<JournalEntry> entries = entries(work);

		// git gives the hook no old value for a deletion that names none (branch -D): all
		// zeros
		assertThat(changes(entries)).startsWith(ZERO + " " + pushes.c1 + " refs/heads/work",
				pushes.c1 + " " + pushes.c2 + " refs/heads/work", ZERO + " " + pushes.c1 + " refs/heads/topic");
		List<JournalEntry> deletion = entries.subList(3, entries.size());
		assertThat(deletion).isNotEmpty()
			.allSatisfy((entry) -> assertThat(entry.refName()).isEqualTo("refs/heads/topic"))
			.allSatisfy((entry) -> assertThat(entry.newValue()).isEqualTo(ZERO));
		assertThat(work.run(new byte[0], "rev-parse", "-q", "--verify", "refs/heads/topic").exitCode()).isNotZero();
		assertThat(work.git("rev-parse", "refs/heads/work").strip()).isEqualTo(pushes.c2);
	}

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void anOwnHookThatRefusesPreparedStillAbortsAndNothingIsJournaled(String version, String format)
			throws IOException {
		TempRepo repo = JournalFixtures.init(version, format, this.dir.resolve("repo"));
		String c1 = repo.commit("one", null);
		writeHook(repo.gitDir().resolve("hooks/reference-transaction"),
				"#!/bin/sh\nif [ \"$1\" = prepared ]; then echo 'own hook refuses' >&2; exit 1; fi\n");
		install(repo.gitDir());

		GitCli.Result refused = repo.run(new byte[0], "update-ref", "refs/heads/refused", c1);

		assertThat(refused.exitCode()).isNotZero();
		assertThat(refused.stderr()).contains("own hook refuses");
		assertThat(repo.run(new byte[0], "rev-parse", "-q", "--verify", "refs/heads/refused").exitCode()).isNotZero();
		assertThat(entries(repo)).isEmpty();
	}

	/**
	 * A work repository and a bare server, both with the hook (and with the logging hook
	 * before it, if {@code ownHook}): in the work repository {@code update-ref} creates
	 * and moves {@code main}, {@code branch} creates {@code topic} and {@code branch -D}
	 * deletes it; then pushes to the server create {@code main}, force it to a commit off
	 * its line, and delete it, as user alice.
	 */
	private Pushes push(String version, String format, boolean ownHook) throws IOException {
		TempRepo work = JournalFixtures.init(version, format, this.dir.resolve("work"));
		TempRepo server = JournalFixtures.init(version, format, this.dir.resolve("server.git"), "--bare");
		if (ownHook) {
			writeHook(work.gitDir().resolve("hooks/reference-transaction"), LOGGING_HOOK);
			writeHook(server.gitDir().resolve("hooks/reference-transaction"), LOGGING_HOOK);
		}
		assertThat(install(work.gitDir()))
			.isEqualTo(ownHook ? JournalHook.Outcome.CHAINED : JournalHook.Outcome.INSTALLED);
		install(server.gitDir());
		String c1 = work.commit("one", null);
		String c2 = work.commit("two", c1);
		String c3 = work.commit("three", c1);
		work.git("update-ref", "refs/heads/work", c1);
		work.git("update-ref", "refs/heads/work", c2, c1);
		work.git("branch", "topic", c1);
		work.git("branch", "-D", "topic");
		GitCli pusher = JournalFixtures.git(version).withEnv("GL_USERNAME", "alice");
		String url = server.dir().toString();
		pusher.ok(work.dir(), "push", "-q", url, "refs/heads/work:refs/heads/feature");
		GitCli.Result forced = pusher.run(work.dir(), "push", "--force", url, c3 + ":refs/heads/feature");
		forced.requireOk();
		pusher.ok(work.dir(), "push", "-q", url, ":refs/heads/feature");
		return new Pushes(work, server, c1, c2, c3, forced);
	}

	private record Pushes(TempRepo work, TempRepo server, String c1, String c2, String c3, GitCli.Result forced) {

	}

}
