package io.refstore.core.journal;

import static io.refstore.core.journal.JournalFixtures.entries;
import static io.refstore.core.journal.JournalFixtures.install;
import static io.refstore.core.journal.JournalFixtures.journal;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Transactions and their journal lines: one {@code write} per transaction, so several git
 * processes writing at once never interleave their lines.
 */
class JournalWritersIT {

	private static final int WRITERS = 6;

	private static final int REFS_EACH = 300;

	@TempDir
	Path dir;

	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void concurrentWritersNeverInterleaveTheirLines(String version, String format) throws Exception {
		TempRepo repo = repoWithHook(version, format);
		String commit = repo.git("rev-parse", "one").strip();
		GitCli git = JournalFixtures.git(version);
		List<Process> writers = new ArrayList<>();
		for (int w = 0; w < WRITERS; w++) {
			ProcessBuilder builder = new ProcessBuilder(git.command().get(0), "-c", "reftable.lockTimeout=60000",
					"update-ref", "--stdin")
				.directory(repo.dir().toFile())
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.INHERIT);
			builder.environment().putAll(git.environment());
			writers.add(builder.start());
		}
		for (int w = 0; w < WRITERS; w++) {
			StringBuilder input = new StringBuilder();
			for (int i = 0; i < REFS_EACH; i++) {
				input.append("create refs/heads/w")
					.append(w)
					.append('/')
					.append(i)
					.append(' ')
					.append(commit)
					.append('\n');
			}
			writers.get(w).getOutputStream().write(input.toString().getBytes(StandardCharsets.UTF_8));
		}
		for (Process writer : writers) {
			writer.getOutputStream().close();
		}
		for (Process writer : writers) {
			assertThat(writer.waitFor(120, TimeUnit.SECONDS)).isTrue();
			assertThat(writer.exitValue()).isZero();
		}

		List<JournalEntry> entries = entries(repo);

		assertThat(entries).hasSize(WRITERS * REFS_EACH);
		// each transaction's lines are one run, in the order git gave them
		Map<String, List<String>> runs = new LinkedHashMap<>();
		String previous = null;
		for (JournalEntry entry : entries) {
			if (!entry.transaction().equals(previous)) {
				assertThat(runs).as("transaction %s split", entry.transaction()).doesNotContainKey(entry.transaction());
				runs.put(entry.transaction(), new ArrayList<>());
				previous = entry.transaction();
			}
			runs.get(entry.transaction()).add(entry.refName());
		}
		assertThat(runs).hasSize(WRITERS);
		for (List<String> names : runs.values()) {
			String writer = names.get(0).substring(0, names.get(0).lastIndexOf('/') + 1);
			assertThat(names).hasSize(REFS_EACH).allSatisfy((name) -> assertThat(name).startsWith(writer));
		}
	}

	/**
	 * strace shows one {@code write} to the journal per transaction: one of 300 refs
	 * (some 45 KB of lines, above any pipe's atomic size), which the shell writes from
	 * its one argument, and one of 5,000 refs (some 700 KB), which the hook copies from a
	 * file of its own with {@code dd} in one block.
	 */
	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void aTransactionIsOneWrite(String version, String format) throws Exception {
		TempRepo repo = repoWithHook(version, format);
		String commit = repo.git("rev-parse", "one").strip();
		long before = 0;
		int entries = 0;
		for (int refs : new int[] { 300, 5000 }) {
			StringBuilder input = new StringBuilder();
			for (int i = 0; i < refs; i++) {
				input.append("create refs/heads/many-")
					.append(refs)
					.append('/')
					.append(i)
					.append(' ')
					.append(commit)
					.append('\n');
			}
			Path trace = this.dir.resolve("strace-" + refs + ".out");
			List<String> command = new ArrayList<>(
					List.of("strace", "-f", "-y", "-s", "0", "-e", "trace=write", "-o", trace.toString()));
			command.addAll(JournalFixtures.git(version).command());
			command.addAll(List.of("update-ref", "--stdin"));

			GitCli.Result created = GitCli.command(command)
				.run(repo.dir(), input.toString().getBytes(StandardCharsets.UTF_8))
				.requireOk();
			// nothing of the hook's own on git's standard error (a reader of its input
			// that stopped early once broke the pipe of a writer, which said so)
			assertThat(created.stderr()).isEmpty();

			String journal = journal(repo).toRealPath().toString();
			List<String> writes = Files.readAllLines(trace)
				.stream()
				.filter((line) -> line.contains(" write(") && line.contains("<" + journal + ">"))
				.toList();
			long size = Files.size(journal(repo));
			assertThat(writes).as("writes of a transaction of %d refs", refs).hasSize(1);
			assertThat(writes.get(0)).endsWith("= " + (size - before));
			before = size;
			entries += refs;
			assertThat(entries(repo)).hasSize(entries);
		}
		// the large block went through a file of its own (above 64 KiB), removed after
		try (var files = Files.list(journal(repo).getParent())) {
			assertThat(files.map((file) -> file.getFileName().toString())).containsOnly("journal");
		}
	}

	/**
	 * Where git forces ref files ({@code core.fsync} covers {@code reference} when the
	 * hook is installed), the hook forces the journal and its directory after the append,
	 * so a power cut does not take an entry of a change git made durable; elsewhere it
	 * forces nothing, as git does not.
	 */
	@ParameterizedTest(name = "git {0}, {1}")
	@MethodSource("io.refstore.core.journal.JournalFixtures#gits")
	void theJournalIsForcedWhereGitForcesRefs(String version, String format) throws Exception {
		TempRepo repo = JournalFixtures.init(version, format, this.dir.resolve("repo"));
		String commit = repo.commit("one", null);
		install(repo.gitDir());
		assertThat(journalSyncs(repo, version, "refs/heads/before", commit)).isEmpty();

		repo.git("config", "core.fsync", "reference");
		install(repo.gitDir());
		String journal = journal(repo).toRealPath().toString();
		assertThat(journalSyncs(repo, version, "refs/heads/after", commit)).as("fsync calls of the journal")
			.anySatisfy((line) -> assertThat(line).contains("<" + journal + ">"))
			.anySatisfy((line) -> assertThat(line).contains("<" + journal(repo).getParent().toRealPath() + ">"));
		assertThat(JournalFixtures.changes(entries(repo))).hasSize(2);
	}

	/**
	 * The hook's fsync calls of the journal's directory or files while git creates a ref.
	 */
	private List<String> journalSyncs(TempRepo repo, String version, String ref, String commit) throws Exception {
		Path trace = this.dir.resolve("strace-" + ref.replace('/', '-') + ".out");
		List<String> command = new ArrayList<>(
				List.of("strace", "-f", "-y", "-e", "trace=fsync,fdatasync", "-o", trace.toString()));
		command.addAll(JournalFixtures.git(version).command());
		command.addAll(List.of("update-ref", ref, commit));
		GitCli.command(command).run(repo.dir(), new byte[0]).requireOk();
		String dir = journal(repo).getParent().toRealPath().toString();
		return Files.readAllLines(trace).stream().filter((line) -> line.contains("<" + dir)).toList();
	}

	/** A repository with the hook and a commit, tagged {@code one} (before the hook). */
	private TempRepo repoWithHook(String version, String format) throws IOException {
		TempRepo repo = JournalFixtures.init(version, format, this.dir.resolve("repo"));
		repo.git("tag", "one", repo.commit("one", null));
		install(repo.gitDir());
		return repo;
	}

}
