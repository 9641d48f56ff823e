package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.core.cli.Refstore;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Issue 33's scenario: the {@code refstore} command, a process of its own, migrates a
 * repository and rolls it back five times each while this application serves its API
 * writers ({@link WritersTestSupport}'s batches and creates, and movers that create a ref
 * and then move it by compare-and-swap, reading it back after each confirmed write) and
 * git 2.39 and 2.55 write. Every confirmed write must be in the repository at its last
 * confirmed value, no answer a 500, and no read after a confirmed write older than it:
 * the command's swap holds the application's writers and readers at the repository's
 * gate, which is on disk for every process.
 */
class CommandSwapWritersIT extends WritersTestSupport {

	private static final int ROUNDS = 5;

	private static final int MOVERS = 2;

	/**
	 * Between two rounds of each writer: unpaced, the writers made 350,000 refs in one
	 * direction's ten swaps, each of which reads every ref, and the test ran 11 minutes;
	 * at 100 ms they still made 55,000 (2,600 batches) and the files direction took 150 s
	 * of a loaded CI run. At 250 ms every swap still meets writes of every kind.
	 */
	private static final Duration PACE = Duration.ofMillis(250);

	@ParameterizedTest(name = "from {0}")
	@ValueSource(strings = { "files", "reftable" })
	void theCommandsSwapsLoseNoConfirmedWriteAndShowNoStaleRead(String from) throws Exception {
		String to = from.equals("files") ? "reftable" : "files";
		String name = uniqueName("command-swap-" + from);
		TempRepo repo = repoWithBranches(name, 3000, from);
		String commit = main(repo);
		List<String> values = List.of(commit,
				GitCli.reftable().ok(repo.dir(), "commit-tree", "-p", commit, "-m", "two", commit + "^{tree}").trim());
		Writers writers = new Writers(name, repo, commit).paced(PACE).start();
		Map<String, String> moved = new ConcurrentHashMap<>();
		List<String> stale = new ArrayList<>();
		AtomicInteger moves = new AtomicInteger();
		for (int mover = 0; mover < MOVERS; mover++) {
			int me = mover;
			writers.loop((n) -> {
				String ref = "refs/heads/api/mover" + me + "/" + n;
				String value = null;
				for (int step = 0; step < 4; step++) {
					String next = values.get(step % 2);
					MockHttpServletResponse response = writers
						.send(((value == null) ? put(refUri(name, ref, "")).header("If-None-Match", "*")
								: put(refUri(name, ref, "")).header("If-Match", "\"" + value + "\""))
							.contentType(MediaType.APPLICATION_JSON)
							.content("{\"sha\": \"" + next + "\"}"));
					int status = response.getStatus();
					if (status == 200 || status == 201) {
						value = next;
						moved.put(ref, value);
						moves.incrementAndGet();
						readBack(writers, name, ref, value, stale);
					}
					else if (status != 503) {
						// only this writer writes the ref: a refusal means the server saw
						// an
						// older value than the one it had confirmed
						synchronized (stale) {
							stale.add(ref + " written over " + value + ": " + status + " "
									+ response.getContentAsString());
						}
						return;
					}
				}
			});
		}
		List<String> swaps = new ArrayList<>();
		writers.around(() -> {
			for (int round = 0; round < ROUNDS; round++) {
				swaps.add(refstore(repo.dir(), "refs", "migrate", "--ref-format=" + to));
				assertThat(format(repo)).isEqualTo(to);
				List<String> backups = refstore(repo.dir(), "refs", "backups").lines().toList();
				String backup = backups.get(backups.size() - 1).split(" ")[0];
				swaps.add(refstore(repo.dir(), "refs", "rollback", "refstore-backup/" + backup));
				assertThat(format(repo)).isEqualTo(from);
			}
			return null;
		});

		Map<String, String> present = writers.check();
		moved.forEach(
				(ref, value) -> assertThat(present.get(ref)).as("the last value confirmed of " + ref).isEqualTo(value));
		assertThat(stale).as("reads and compare-and-swaps older than a confirmed write").isEmpty();
		assertThat(moves.get()).as("moves confirmed").isPositive();
		System.out.println(name + ": " + (2 * ROUNDS) + " swaps by the command, " + moves.get()
				+ " creates and moves confirmed and read back by " + MOVERS + " movers; the command said: " + swaps);
	}

	/**
	 * Issue 33's kill: the command is killed ({@code kill -9}) in the middle of its swap,
	 * at the first sight of a file it writes under the gate ({@code loose-identities}:
	 * the gate closed, before the switch; {@code journal}: about to switch or switched),
	 * while this application serves writers. The application's writers must go on once
	 * the process is gone (the kernel drops its locks on the gate), the command run again
	 * must finish, and nothing confirmed may be lost, no answer a 500.
	 */
	@ParameterizedTest(name = "from {0}, killed at {1}")
	@CsvSource({ "files, loose-identities", "files, journal", "reftable, journal" })
	void aCommandKilledMidSwapHoldsNoWriterBackAndLosesNothing(String from, String killAt) throws Exception {
		String to = from.equals("files") ? "reftable" : "files";
		String name = uniqueName("command-kill-" + from);
		TempRepo repo = repoWithBranches(name, 3000, from);
		Writers writers = new Writers(name, repo, main(repo)).paced(PACE).start();
		Path gitDir = Files.isDirectory(repo.dir().resolve(".git")) ? repo.dir().resolve(".git") : repo.dir();
		Path mark = gitDir.resolve("refstore-migration").resolve(killAt);
		String said = writers.around(() -> {
			Process command = refstoreCommand(repo.dir(), "refs", "migrate", "--ref-format=" + to).start();
			long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
			while (!Files.exists(mark) && command.isAlive() && System.nanoTime() < deadline) {
				Thread.onSpinWait();
			}
			command.destroyForcibly().waitFor();
			assertThat(command.exitValue()).as("the command was killed while '" + killAt + "' existed").isEqualTo(137);
			int before = apiWrites(writers);
			Awaitility.await("API writes confirmed after the kill")
				.atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> apiWrites(writers) > before);
			return refstore(repo.dir(), "refs", "migrate", "--ref-format=" + to);
		});
		writers.check();
		assertThat(format(repo)).isEqualTo(to);
		System.out.println(name + ": killed at '" + killAt + "'; the command run again said: " + said);
	}

	/**
	 * Issue 33's race: a migration launched through the API while the command migrates
	 * the same repository, and the reverse, with writers running. The second to claim the
	 * repository refuses cleanly (the job fails with a message, the command exits with an
	 * error, neither naming a class or a stack frame), the first finishes, and no writer
	 * sees a 500 or loses a confirmed write.
	 */
	@ParameterizedTest(name = "{0} first")
	@ValueSource(strings = { "command", "api" })
	void anApiMigrationAndACommandMigrationAtOnceOneRefusesCleanly(String first) throws Exception {
		String name = uniqueName("command-race-" + first);
		TempRepo repo = repoWithBranches(name, 3000, "files");
		Writers writers = new Writers(name, repo, main(repo)).paced(PACE).start();
		Path gitDir = Files.isDirectory(repo.dir().resolve(".git")) ? repo.dir().resolve(".git") : repo.dir();
		Path owner = gitDir.resolve("refstore-migration").resolve("owner");
		String launch = """
				{"repository": "%s", "targetFormat": "reftable", "chunkSize": 500}""".formatted(name);
		String[] outcome = writers.around(() -> {
			Process command;
			DocumentContext job;
			if (first.equals("command")) {
				command = refstoreCommand(repo.dir(), "refs", "migrate", "--ref-format=reftable")
					.redirectError(ProcessBuilder.Redirect.PIPE)
					.start();
				awaitFile(owner, command);
				job = awaitOutcome(launch("/api/jobs/migrations", launch, "admin"), "migration.backup");
			}
			else {
				long id = launch("/api/jobs/migrations", launch, "admin");
				awaitFile(owner, null);
				command = refstoreCommand(repo.dir(), "refs", "migrate", "--ref-format=reftable")
					.redirectError(ProcessBuilder.Redirect.PIPE)
					.start();
				job = awaitOutcome(id, "migration.backup");
			}
			String error = new String(command.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
			command.waitFor();
			return new String[] { Integer.toString(command.exitValue()), error, job.read("$.status", String.class),
					String.valueOf(job.read("$.exitMessage", String.class)) };
		});
		boolean commandWon = outcome[0].equals("0");
		boolean jobWon = outcome[2].equals("COMPLETED");
		assertThat(commandWon ^ jobWon).as("exactly one migrates: " + String.join(" | ", outcome)).isTrue();
		String refusal = commandWon ? outcome[3] : outcome[1];
		assertThat(refusal).as("the refusal").isNotBlank().doesNotContain("Exception").doesNotContain("\tat ");
		if (!commandWon) {
			assertThat(outcome[1]).startsWith("error: ");
		}
		assertThat(format(repo)).isEqualTo("reftable");
		writers.check();
		System.out.println(name + ": " + (commandWon ? "the command" : "the job") + " migrated; the other said: "
				+ refusal.strip());
	}

	/**
	 * Issue 33's item 1 for bulk runs: the command deletes 3000 branches in chunks of 20
	 * and then restores them, each while this application serves its writers and an API
	 * migration of the same repository is launched once the run has begun. The run
	 * announces itself on the gate: the migration's swap waits for it to end (or its job
	 * fails cleanly), never swaps the store under it, so the run finishes; each chunk
	 * holds the writers back rather than meeting them. Every confirmed write kept, no
	 * 500, every deleted branch back at its value.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "files", "reftable" })
	void theCommandsDeletionAndRestoreHoldSwapsOffAndLoseNothing(String from) throws Exception {
		String to = from.equals("files") ? "reftable" : "files";
		String name = uniqueName("command-delete-" + from);
		TempRepo repo = repoWithBranches(name, 3000, from);
		Map<String, String> branches = new HashMap<>(refs(repo));
		branches.keySet().removeIf((ref) -> !ref.startsWith("refs/heads/b/"));
		Writers writers = new Writers(name, repo, main(repo)).paced(PACE).start();
		Path manifest = repo.dir().resolve("command-delete.manifest");
		List<String> said = writers.around(() -> {
			List<String> outcomes = new ArrayList<>();
			outcomes.add(runBesideMigration(name, repo, to, "delete-refs", "--prefix=refs/heads/b/", "--chunk-size=20",
					"--manifest=" + manifest.getFileName()));
			Map<String, String> left = refs(repo);
			assertThat(branches.keySet()).as("branches left after the deletion").noneMatch(left::containsKey);
			outcomes.add(runBesideMigration(name, repo, from, "restore-refs", "--manifest=" + manifest.getFileName()));
			return outcomes;
		});
		Map<String, String> present = writers.check();
		branches.forEach((ref, value) -> assertThat(present.get(ref)).as("restored " + ref).isEqualTo(value));
		System.out.println(name + ": " + said);
	}

	/**
	 * Starts the command with {@code args}, launches an API migration to {@code format}
	 * once the command has begun, and returns how both ended: the command must succeed;
	 * the job completes or fails with a clean message.
	 */
	private String runBesideMigration(String name, TempRepo repo, String format, String... args) throws Exception {
		// the command has begun once its owner record is there (the application's is
		// already)
		Path owners = repo.dir().resolve("refstore-owners");
		Set<Path> before = owners(owners);
		Process command = refstoreCommand(repo.dir(), args).redirectError(ProcessBuilder.Redirect.PIPE).start();
		Awaitility.await("the command's owner record")
			.atMost(Duration.ofMinutes(2))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> !command.isAlive() || !before.containsAll(owners(owners)));
		long id = launch("/api/jobs/migrations", """
				{"repository": "%s", "targetFormat": "%s", "chunkSize": 500}""".formatted(name, format), "admin");
		String error = new String(command.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
		command.waitFor();
		assertThat(command.exitValue()).as(args[0] + " beside an API migration: " + error).isZero();
		DocumentContext job = awaitOutcome(id, "migration.backup");
		String status = job.read("$.status", String.class);
		String message = String.valueOf(job.read("$.exitMessage", String.class));
		assertThat(status).as("the migration's job: " + message).isIn("COMPLETED", "FAILED");
		if (status.equals("FAILED")) {
			assertThat(message).doesNotContain("Exception").doesNotContain("\tat ");
		}
		return args[0] + ": exit 0; the migration to " + format + ": " + status
				+ (status.equals("FAILED") ? " (" + message.strip() + ")" : "");
	}

	private static Set<Path> owners(Path dir) throws IOException {
		try (Stream<Path> files = Files.list(dir)) {
			return files.collect(Collectors.toSet());
		}
		catch (NoSuchFileException ex) {
			return Set.of();
		}
	}

	/**
	 * Waits until {@code file} exists (at most 2 minutes), or {@code process} (if any)
	 * has ended.
	 */
	private static void awaitFile(Path file, Process process) {
		Awaitility.await(file.toString())
			.atMost(Duration.ofMinutes(2))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> Files.exists(file) || (process != null && !process.isAlive()));
	}

	/**
	 * Reads {@code ref} back right after its write of {@code value} was confirmed: it
	 * must show that value (or, during a swap, answer 503).
	 */
	private void readBack(Writers writers, String name, String ref, String value, List<String> stale) throws Exception {
		MockHttpServletResponse response = writers.send(get(refUri(name, ref, "")));
		if (response.getStatus() == 503) {
			return;
		}
		String shown = (response.getStatus() == 200)
				? JsonPath.parse(response.getContentAsString()).read("$.object.sha", String.class) : null;
		if (!value.equals(shown)) {
			synchronized (stale) {
				stale.add(ref + " read after " + value + " was confirmed: " + response.getStatus() + " "
						+ response.getContentAsString());
			}
		}
	}

	/**
	 * Runs the {@code refstore} command, a JVM of its own, in {@code dir}; it must
	 * succeed. Returns its standard error's summary and output.
	 */
	private static String refstore(Path dir, String... args) throws Exception {
		GitCli.Result result = GitCli.command(javaCommand()).run(dir, args);
		assertThat(result.exitCode()).as(String.join(" ", args) + ": " + result.stderr()).isZero();
		return result.stdout() + result.stderr();
	}

	/** How many writes the API confirmed so far (200 and 201 answers). */
	private static int apiWrites(Writers writers) {
		return writers.statuses.getOrDefault(200, 0) + writers.statuses.getOrDefault(201, 0);
	}

	/**
	 * The {@code refstore} command with {@code args} in {@code dir}, to start; its output
	 * is discarded.
	 */
	private static ProcessBuilder refstoreCommand(Path dir, String... args) throws Exception {
		List<String> command = javaCommand();
		command.addAll(List.of(args));
		return new ProcessBuilder(command).directory(dir.toFile())
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.redirectError(ProcessBuilder.Redirect.DISCARD);
	}

	private static List<String> javaCommand() throws Exception {
		String classes = Path.of(Refstore.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
		return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classes, Refstore.class.getName()));
	}

}
