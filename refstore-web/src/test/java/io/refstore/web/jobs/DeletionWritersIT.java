package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The lost-write scenario ({@link WritersTestSupport}) while {@code deleteRefsJob}
 * deletes a plan of 3000 branches, and while {@code restoreRefsJob} puts them back, in
 * both formats. During the deletion one more writer keeps moving three of the planned
 * branches, by compare-and-swap ({@code git update-ref <ref> <new> <old>} and PUT with
 * {@code If-Match}), once the deletion has begun: each of them must hold the last value
 * that writer confirmed, or be deleted with exactly that value as a committed chunk of
 * the manifest records; a chunk that meets a moved branch stops the deletion, which fails
 * naming the branch.
 */
class DeletionWritersIT extends WritersTestSupport {

	private static final int PLANNED = 3000;

	/**
	 * The planned branches the extra writer moves: in the second and the last of the
	 * 1000-ref chunks.
	 */
	private static final List<String> MOVED = List.of("refs/heads/b/01900", "refs/heads/b/02500", "refs/heads/b/02999");

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "files", "reftable" })
	void aDeletionLosesNoConfirmedWrite(String format) throws Exception {
		String name = uniqueName("writers-delete-" + format);
		TempRepo repo = repoWithBranches(name, PLANNED, format);
		String commit = main(repo);
		List<String> values = List.of(child(repo, commit, "two"), child(repo, commit, "three"), commit);
		long plan = plan(name);
		Path planFile = planFile(name);

		Writers writers = new Writers(name, repo, commit).start();
		Map<String, String> last = new ConcurrentHashMap<>();
		MOVED.forEach((ref) -> last.put(ref, commit));
		writers.loop((n) -> {
			if (writers.send(get(refUri(name, "refs/heads/b/00000", ""))).getStatus() != 404) {
				// the first chunk is not deleted yet: moving a planned branch now would
				// only make the plan stale
				Thread.sleep(5);
				return;
			}
			String ref = MOVED.get(n % MOVED.size());
			String old = last.get(ref);
			String value = values.get((values.indexOf(old) + 1) % values.size());
			boolean confirmed;
			if (n % 2 == 0) {
				confirmed = writers.git(format.equals("files") ? "git239" : "git255", "update-ref", ref, value, old)
					.exitCode() == 0;
			}
			else {
				int status = writers
					.send(put(refUri(name, ref, "")).header("If-Match", "\"" + old + "\"")
						.contentType(MediaType.APPLICATION_JSON)
						.content("{\"sha\": \"" + value + "\"}"))
					.getStatus();
				confirmed = status == 200 || status == 201;
			}
			if (confirmed) {
				last.put(ref, value);
			}
		});
		// the status and exit message are all this reads of the execution: no need to
		// wait for its context
		DocumentContext done = writers.around(() -> awaitEnd(launch("/api/jobs/deletions", """
				{"plan": %d, "confirmRepository": "%s", "confirmCount": "%d"}""".formatted(plan, name, PLANNED),
				"admin")));

		Map<String, String> present = writers.check();
		List<String> failures = new ArrayList<>();
		Map<String, String> deleted = deleted(planFile, failures);
		for (String ref : MOVED) {
			if (present.containsKey(ref)) {
				assertThat(present.get(ref)).as("the last value confirmed of " + ref).isEqualTo(last.get(ref));
			}
			else {
				assertThat(deleted.get(ref)).as("the value the deletion of " + ref + " recorded")
					.isEqualTo(last.get(ref));
			}
		}
		for (int i = 0; i < PLANNED; i++) {
			String ref = "refs/heads/b/" + String.format("%05d", i);
			if (!MOVED.contains(ref)) {
				assertThat(present.get(ref)).as(ref).isEqualTo(deleted.containsKey(ref) ? null : commit);
				assertThat(deleted.get(ref)).as(ref).isIn(null, commit);
			}
		}
		String status = done.read("$.status", String.class);
		if (status.equals("COMPLETED")) {
			assertThat(failures).isEmpty();
			assertThat(deleted).hasSize(PLANNED);
		}
		else {
			// the chunk that met a moved branch failed as a whole, naming the branch, and
			// the job says so
			assertThat(status).as(done.jsonString()).isEqualTo("FAILED");
			assertThat(done.read("$.exitMessage", String.class)).containsAnyOf(MOVED.toArray(String[]::new));
			assertThat(failures).allSatisfy(
					(line) -> assertThat(line).startsWith("failed ").containsAnyOf(MOVED.toArray(String[]::new)));
			assertThat(deleted).hasSizeLessThan(PLANNED);
		}
		System.out.println("deletion " + status + " (" + done.read("$.exitMessage", String.class) + "): "
				+ deleted.size() + " deleted, moved " + last + ", failures " + failures);
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "files", "reftable" })
	void aRestoreLosesNoConfirmedWrite(String format) throws Exception {
		String name = uniqueName("writers-restore-" + format);
		TempRepo repo = repoWithBranches(name, PLANNED, format);
		String commit = main(repo);
		long plan = plan(name);
		Path planFile = planFile(name);
		long deletion = launch("/api/jobs/deletions", """
				{"plan": %d, "confirmRepository": "%s", "confirmCount": "%d"}""".formatted(plan, name, PLANNED),
				"admin");
		assertThat(awaitEnd(deletion).read("$.status", String.class)).isEqualTo("COMPLETED");
		Map<String, String> deleted = deleted(planFile, new ArrayList<>());
		assertThat(deleted).hasSize(PLANNED);

		Writers writers = new Writers(name, repo, commit).start();
		DocumentContext done = writers
			.around(() -> awaitOutcome(launch("/api/jobs/restores", "{\"deletion\": " + deletion + "}", "admin"),
					"restore.restored"));

		assertThat(done.read("$.status", String.class)).as(done.jsonString()).isEqualTo("COMPLETED");
		assertThat(done.read("$.results['restore.restored']", String.class)).isEqualTo(Integer.toString(PLANNED));
		Map<String, String> present = writers.check();
		assertThat(present).containsAllEntriesOf(deleted);
	}

	/**
	 * A new commit on top of {@code parent} with its tree, made by git 2.55 (which reads
	 * either format).
	 */
	private static String child(TempRepo repo, String parent, String message) {
		return GitCli.reftable().ok(repo.dir(), "commit-tree", "-p", parent, "-m", message, parent + "^{tree}").trim();
	}

	/**
	 * Plans the deletion of every {@code refs/heads/b/} branch and waits for the plan.
	 */
	private long plan(String name) throws Exception {
		long plan = launch("/api/jobs/deletion-plans", """
				{"repository": "%s", "prefixes": ["refs/heads/b/"]}""".formatted(name), "operator");
		DocumentContext planned = awaitResult(plan, "plan.count");
		assertThat(planned.read("$.results['plan.count']", String.class)).isEqualTo(Integer.toString(PLANNED));
		return plan;
	}

	/**
	 * The plan file of the repository's one plan: the API shows a plan by name only,
	 * never its server path.
	 */
	private static Path planFile(String name) throws IOException {
		try (Stream<Path> plans = Files.list(ROOT.resolve(name).resolve("refstore-plans"))) {
			List<Path> found = plans.map((dir) -> dir.resolve("plan")).filter(Files::isRegularFile).toList();
			assertThat(found).as("plans of " + name).hasSize(1);
			return found.get(0);
		}
	}

	/**
	 * What the manifests beside {@code plan} record as deleted: the refs of committed
	 * chunks, with their values; the {@code failed} and {@code in-doubt} lines go to
	 * {@code failures}.
	 */
	private static Map<String, String> deleted(Path plan, List<String> failures) throws IOException {
		Map<String, String> deleted = new HashMap<>();
		List<Path> manifests;
		try (Stream<Path> files = Files.list(plan.getParent())) {
			manifests = files.filter((file) -> file.getFileName().toString().startsWith("manifest-")).sorted().toList();
		}
		for (Path manifest : manifests) {
			Map<String, String> chunk = new HashMap<>();
			for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
				String[] fields = line.split(" ");
				switch (fields[0]) {
					case "chunk" -> chunk.clear();
					case "ref" -> chunk.put(fields[1], fields[2]);
					case "committed" -> deleted.putAll(chunk);
					case "failed", "in-doubt" -> failures.add(line);
					default -> {
					}
				}
			}
		}
		return deleted;
	}

}
