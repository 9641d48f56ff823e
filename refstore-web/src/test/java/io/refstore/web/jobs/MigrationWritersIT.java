package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The lost-write scenario of a migration run while everyone writes: API clients creating refs in batches and
 * one by one with {@code If-None-Match: *}, and git processes (2.39 and 2.55) creating refs with
 * {@code update-ref}, all while {@code migrateRefsJob} moves the repository between formats, both ways. Every
 * write that was confirmed (a 200/201 answer, git's exit code 0) is in the repository afterwards with its value, as
 * git 2.55 reads it; every batch is all or nothing; a write refused during the swap is a 503 with
 * {@code Retry-After}, never a 500.
 */
class MigrationWritersIT extends JobApiTestSupport {

	private static final int BATCH_CLIENTS = 4;

	private static final int CAS_CLIENTS = 2;

	private static final int BATCH_SIZE = 20;

	@Test
	void filesToReftableLosesNoConfirmedWrite() throws Exception {
		migrateWhileWriting("files", "reftable");
	}

	@Test
	void reftableToFilesLosesNoConfirmedWrite() throws Exception {
		migrateWhileWriting("reftable", "files");
	}

	private void migrateWhileWriting(String from, String to) throws Exception {
		String name = uniqueName("writers-" + from);
		TempRepo repo = repoWithBranches(name, 3000);
		String commit = repo.git("rev-parse", "refs/heads/main").trim();
		if (from.equals("reftable")) {
			GitCli.reftable().ok(repo.dir(), "refs", "migrate", "--ref-format=reftable");
		}
		Map<String, String> confirmed = new ConcurrentHashMap<>();
		List<List<String>> okBatches = java.util.Collections.synchronizedList(new ArrayList<>());
		List<List<String>> refusedBatches = java.util.Collections.synchronizedList(new ArrayList<>());
		Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService pool = Executors.newFixedThreadPool(BATCH_CLIENTS + CAS_CLIENTS + 2);
		List<Future<?>> writers = new ArrayList<>();
		for (int client = 0; client < BATCH_CLIENTS; client++) {
			int me = client;
			writers.add(pool.submit(() -> {
				for (int n = 0; !stop.get(); n++) {
					List<String> refs = new ArrayList<>();
					StringBuilder json = new StringBuilder("{\"updates\": [");
					for (int i = 0; i < BATCH_SIZE; i++) {
						String ref = "refs/heads/api/b" + me + "/" + n + "/" + i;
						refs.add(ref);
						json.append((i > 0) ? "," : "").append("{\"ref\": \"").append(ref).append("\", \"new\": \"")
							.append(commit).append("\"}");
					}
					MockHttpServletResponse response = this.mvc
						.perform(post(repoUri(name, "/refs:batch")).with(as("admin"))
							.contentType(MediaType.APPLICATION_JSON)
							.content(json.append("]}").toString()))
						.andReturn()
						.getResponse();
					count(statuses, response);
					if (response.getStatus() == 200) {
						refs.forEach((ref) -> confirmed.put(ref, commit));
						okBatches.add(refs);
					}
					else {
						refusedBatches.add(refs);
					}
				}
				return null;
			}));
		}
		for (int client = 0; client < CAS_CLIENTS; client++) {
			int me = client;
			writers.add(pool.submit(() -> {
				for (int n = 0; !stop.get(); n++) {
					String ref = "refs/heads/api/cas" + me + "/" + n;
					MockHttpServletResponse response = this.mvc
						.perform(put(refUri(name, ref, "")).with(as("admin"))
							.header("If-None-Match", "*")
							.contentType(MediaType.APPLICATION_JSON)
							.content("{\"sha\": \"" + commit + "\"}"))
						.andReturn()
						.getResponse();
					count(statuses, response);
					if (response.getStatus() == 200 || response.getStatus() == 201) {
						confirmed.put(ref, commit);
					}
				}
				return null;
			}));
		}
		Map<String, Integer> gitRuns = new ConcurrentHashMap<>();
		for (String which : List.of("git239", "git255")) {
			GitCli git = which.equals("git239") ? GitCli.system() : GitCli.reftable();
			writers.add(pool.submit(() -> {
				for (int n = 0; !stop.get(); n++) {
					String ref = "refs/heads/" + which + "/" + n;
					GitCli.Result result = git.run(repo.dir(), "update-ref", ref, commit);
					gitRuns.merge(which + ((result.exitCode() == 0) ? " ok" : " failed"), 1, Integer::sum);
					if (result.exitCode() == 0) {
						confirmed.put(ref, commit);
					}
				}
				return null;
			}));
		}
		Thread.sleep(300);
		long id = id(this.mvc.perform(postJson("/api/jobs/migrations", """
				{"repository": "%s", "targetFormat": "%s", "chunkSize": 500}""".formatted(name, to))
			.with(as("operator")))
			.andReturn()
			.getResponse()
			.getContentAsString());
		DocumentContext done = awaitResult(id, "migration.backup");
		Thread.sleep(300);
		stop.set(true);
		for (Future<?> writer : writers) {
			writer.get();
		}
		pool.shutdown();

		assertThat(done.read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo(to);
		assertThat(statuses).as("answers by status").doesNotContainKey(500).isNotEmpty();
		Map<String, String> present = refs(repo);
		Map<String, String> lost = new HashMap<>();
		confirmed.forEach((ref, value) -> {
			if (!value.equals(present.get(ref))) {
				lost.put(ref, present.get(ref));
			}
		});
		assertThat(lost).as("confirmed writes lost (" + confirmed.size() + " confirmed, statuses " + statuses
				+ ", git " + gitRuns + ")").isEmpty();
		for (List<String> batch : refusedBatches) {
			assertThat(batch).as("a refused batch wrote nothing").noneMatch(present::containsKey);
		}
		assertThat(okBatches).as("batches confirmed").isNotEmpty();
		assertThat(gitRuns).as("git writers ran").containsKeys("git239 ok", "git255 ok");
		assertThat(GitCli.reftable().run(repo.dir(), "fsck", "--no-dangling").exitCode()).isZero();
	}

	private static void count(Map<Integer, Integer> statuses, MockHttpServletResponse response) {
		statuses.merge(response.getStatus(), 1, Integer::sum);
		if (response.getStatus() == 503) {
			assertThat(response.getHeader("Retry-After")).as("a 503 says when to retry").isNotBlank();
		}
	}

	/** Every ref and its value, as git 2.55 reads the repository. */
	private static Map<String, String> refs(TempRepo repo) {
		Map<String, String> refs = new HashMap<>();
		for (String line : GitCli.reftable().ok(repo.dir(), "for-each-ref", "--format=%(objectname) %(refname)")
			.split("\n")) {
			if (!line.isEmpty()) {
				refs.put(line.substring(line.indexOf(' ') + 1), line.substring(0, line.indexOf(' ')));
			}
		}
		return refs;
	}

}
