package io.refstore.core.journal;

import static io.refstore.core.journal.JournalFixtures.LOGGING_HOOK;
import static io.refstore.core.journal.JournalFixtures.changes;
import static io.refstore.core.journal.JournalFixtures.committedLines;
import static io.refstore.core.journal.JournalFixtures.entries;
import static io.refstore.core.journal.JournalFixtures.install;
import static io.refstore.core.journal.JournalFixtures.writeHook;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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
		// the own hook got no old value for branch -D (zeros); the journal has the one
		// the branch held
		assertThat(changes(entries(pushes.work)))
			.isEqualTo(committedLines(pushes.work.dir().resolve("own-hook.log")).stream()
				.map((line) -> line.equals(ZERO + " " + ZERO + " refs/heads/topic")
						? pushes.c1 + " " + ZERO + " refs/heads/topic" : line)
				.toList());
		// in 'prepared' the journal's hook reads the input before it runs the own hook:
		// the own hook gets it whole, one line or many
		for (Path log : List.of(pushes.server.gitDir().resolve("own-hook.log"),
				pushes.work.dir().resolve("own-hook.log"))) {
			assertThat(JournalFixtures.stateLines(log, "prepared")).isNotEmpty().isEqualTo(committedLines(log));
		}
		assertThat(pushes.forced.stderr()).contains("own hook: prepared").contains("own hook: committed");
	}

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void updateRefAndBranchDeletionAreJournaledWithTheValuesTheyReplaced(String version, String format)
			throws IOException {
		Pushes pushes = push(version, format, false);
		TempRepo work = pushes.work;
		// an update and a deletion that check no old value: git reports zeros as the old
		// value, the journal the value each replaced
		work.git("update-ref", "refs/heads/work", pushes.c3);
		work.git("update-ref", "-d", "refs/heads/work");

		List<JournalEntry> entries = entries(work);

		assertThat(changes(entries)).startsWith(ZERO + " " + pushes.c1 + " refs/heads/work",
				pushes.c1 + " " + pushes.c2 + " refs/heads/work", ZERO + " " + pushes.c1 + " refs/heads/topic");
		// a deletion of the files format is two transactions (the second on packed-refs),
		// both journaled with the value
		assertThat(changes(entries.subList(3, entries.size()))).containsOnly(
				pushes.c1 + " " + ZERO + " refs/heads/topic", pushes.c2 + " " + pushes.c3 + " refs/heads/work",
				pushes.c3 + " " + ZERO + " refs/heads/work");
		assertThat(changes(entries)).containsSubsequence(pushes.c1 + " " + ZERO + " refs/heads/topic",
				pushes.c2 + " " + pushes.c3 + " refs/heads/work", pushes.c3 + " " + ZERO + " refs/heads/work");
		assertThat(work.run(new byte[0], "rev-parse", "-q", "--verify", "refs/heads/topic").exitCode()).isNotZero();
		assertThat(work.run(new byte[0], "rev-parse", "-q", "--verify", "refs/heads/work").exitCode()).isNotZero();
		// the values handed from one state to the next leave no file behind
		try (Stream<Path> files = Files.list(JournalHook.journalFile(work.gitDir()).getParent())) {
			assertThat(files.map((file) -> file.getFileName().toString()))
				.allSatisfy((name) -> assertThat(name).doesNotStartWith("journal.old."));
		}
	}

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void symbolicRefsKeepTheirTargetsAsOldValuesOnlyWhenTheyChange(String version, String format) throws IOException {
		TempRepo repo = JournalFixtures.init(version, format, this.dir.resolve("repo"));
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		repo.git("update-ref", "refs/heads/main", c1);
		repo.git("symbolic-ref", "refs/heads/sym", "refs/heads/main");
		install(repo.gitDir());

		// an update through the symbolic ref changes the ref it points at (git 2.39 also
		// reports the symbolic ref, with the new value and zeros)
		repo.git("update-ref", "refs/heads/sym", c2);
		repo.git("symbolic-ref", "refs/heads/sym", "refs/heads/other");

		List<String> changes = changes(entries(repo));
		assertThat(changes).contains(c1 + " " + c2 + " refs/heads/main")
			.allSatisfy((change) -> assertThat(change).doesNotStartWith("ref:refs/heads/main " + c2));
		if (version.equals("2.55")) {
			// git 2.55 reports a change of a symbolic ref's target, which 2.39 does not
			assertThat(changes).contains("ref:refs/heads/main ref:refs/heads/other refs/heads/sym");
		}
	}

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void aTransactionOfMoreThanAThousandUncheckedUpdatesIsJournaledWithTheValuesTheyReplaced(String version,
			String format) throws IOException {
		TempRepo repo = JournalFixtures.init(version, format, this.dir.resolve("repo"));
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		StringBuilder creates = new StringBuilder();
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 1001; i++) {
			creates.append("create refs/heads/b").append(i).append(' ').append(c1).append('\n');
			updates.append("update refs/heads/b").append(i).append(' ').append(c2).append('\n');
		}
		// refs the transaction does not touch, in its directories; a ref of another
		// directory, so that the directory the hook reads is refs/; and a creation
		creates.append("create refs/heads/untouched ").append(c1).append('\n');
		creates.append("create refs/tags/kept ").append(c1).append('\n');
		creates.append("create refs/tags/t ").append(c1).append('\n');
		updates.append("update refs/tags/t ").append(c2).append('\n');
		updates.append("update refs/heads/fresh ").append(c2).append('\n');
		repo.run(creates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		writeHook(repo.gitDir().resolve("hooks/reference-transaction"), LOGGING_HOOK);
		install(repo.gitDir());

		repo.run(updates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("update-ref", "refs/heads/b0", c1);

		List<String> changes = changes(entries(repo));
		assertThat(changes).hasSize(1004);
		assertThat(changes.subList(0, 1003)).filteredOn((change) -> !change.endsWith(" refs/heads/fresh"))
			.hasSize(1002)
			.allSatisfy((change) -> assertThat(change).matches(c1 + " " + c2 + " refs/(heads/b\\d+|tags/t)"));
		assertThat(changes.subList(0, 1003)).contains(ZERO + " " + c2 + " refs/heads/fresh");
		assertThat(changes.get(1003)).isEqualTo(c2 + " " + c1 + " refs/heads/b0");
		// the repository's own hook, chained, got all 1,003 lines in 'prepared' too
		Path log = repo.dir().resolve("own-hook.log");
		assertThat(JournalFixtures.stateLines(log, "prepared")).hasSize(1004).isEqualTo(committedLines(log));
		try (Stream<Path> files = Files.list(JournalHook.journalFile(repo.gitDir()).getParent())) {
			assertThat(files.map((file) -> file.getFileName().toString()))
				.as("the names handed over and the values read, removed")
				.allSatisfy((name) -> assertThat(name).doesNotStartWith("journal.old."));
		}
	}

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void aPushOfNewBranchesReadsNoOldValue(String version, String format) throws IOException {
		TempRepo work = JournalFixtures.init(version, format, this.dir.resolve("work"));
		TempRepo server = JournalFixtures.init(version, format, this.dir.resolve("server.git"), "--bare");
		install(server.gitDir());
		String c1 = work.commit("one", null);
		work.git("branch", "new-a", c1);
		work.git("branch", "new-b", c1);
		Path trace = this.dir.resolve("trace2.json");

		JournalFixtures.git(version)
			.withEnv("GIT_TRACE2_EVENT", trace.toString())
			.ok(work.dir(), "push", "-q", server.dir().toString(), "refs/heads/new-a", "refs/heads/new-b");

		assertThat(changes(entries(server))).containsExactlyInAnyOrder(ZERO + " " + c1 + " refs/heads/new-a",
				ZERO + " " + c1 + " refs/heads/new-b");
		assertThat(hookLookups(trace)).as("the hook's lookups of old values").isEmpty();
		// the same zeros from update-ref are looked up (and found absent: creations)
		Files.delete(trace);
		JournalFixtures.git(version)
			.withEnv("GIT_TRACE2_EVENT", trace.toString())
			.ok(server.dir(), "update-ref", "refs/heads/new-c", c1);
		assertThat(hookLookups(trace)).hasSize(1);
		assertThat(changes(entries(server))).contains(ZERO + " " + c1 + " refs/heads/new-c");
	}

	/** The hook's {@code for-each-ref} runs in a trace of git's processes. */
	private static List<String> hookLookups(Path trace) throws IOException {
		return Files.readAllLines(trace)
			.stream()
			.filter((line) -> line.contains("\"for-each-ref\"") && line.contains("%(if)%(symref)"))
			.toList();
	}

	// git 2.39's receive-pack changes each ref in a transaction of its own
	@ParameterizedTest(name = "git {0}, {1}")
	@CsvSource({ "2.55, files", "2.55, reftable" })
	void aPushOfMoreThanAThousandNewBranchesReadsNoRef(String version, String format) throws IOException {
		TempRepo work = JournalFixtures.init(version, format, this.dir.resolve("work"));
		TempRepo server = JournalFixtures.init(version, format, this.dir.resolve("server.git"), "--bare");
		// no packing after the push (git's pack-refs would journal each ref twice more)
		server.git("config", "receive.autogc", "false");
		install(server.gitDir());
		String c1 = work.commit("one", null);
		StringBuilder creates = new StringBuilder();
		for (int i = 0; i < 1001; i++) {
			creates.append("create refs/heads/b").append(i).append(' ').append(c1).append('\n');
		}
		work.run(creates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		Path trace = this.dir.resolve("trace2.json");

		// every git process, the hook's included, reports its command line to the trace
		JournalFixtures.git(version)
			.withEnv("GIT_TRACE2_EVENT", trace.toString())
			.ok(work.dir(), "push", "-q", server.dir().toString(), "refs/heads/*:refs/heads/*");

		assertThat(changes(entries(server))).hasSize(1001)
			.allSatisfy((change) -> assertThat(change).startsWith(ZERO + " " + c1 + " refs/heads/b"));
		List<String> hookRuns = Files.readAllLines(trace)
			.stream()
			.filter((line) -> line.contains("\"argv\":[\"hooks/reference-transaction\",\"prepared\"]"))
			.toList();
		// one transaction, whose zeros receive-pack gave for creations
		assertThat(hookRuns).hasSize(1);
		assertThat(hookLookups(trace)).as("the hook's lookups of old values").isEmpty();
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
