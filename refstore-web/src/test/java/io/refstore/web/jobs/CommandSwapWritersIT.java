package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;

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

	@ParameterizedTest(name = "from {0}")
	@ValueSource(strings = { "files", "reftable" })
	void theCommandsSwapsLoseNoConfirmedWriteAndShowNoStaleRead(String from) throws Exception {
		String to = from.equals("files") ? "reftable" : "files";
		String name = uniqueName("command-swap-" + from);
		TempRepo repo = repoWithBranches(name, 3000, from);
		String commit = main(repo);
		List<String> values = List.of(commit,
				GitCli.reftable().ok(repo.dir(), "commit-tree", "-p", commit, "-m", "two", commit + "^{tree}").trim());
		Writers writers = new Writers(name, repo, commit).start();
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
		String classes = Path.of(Refstore.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
						"-XX:+UseSerialGC", "-cp", classes, Refstore.class.getName()));
		GitCli.Result result = GitCli.command(command).run(dir, args);
		assertThat(result.exitCode()).as(String.join(" ", args) + ": " + result.stderr()).isZero();
		return result.stdout() + result.stderr();
	}

}
