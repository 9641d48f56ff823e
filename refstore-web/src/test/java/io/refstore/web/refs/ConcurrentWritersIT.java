package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * 120 clients each write a batch of 50 new refs into one repository at the same moment,
 * on each format: the application's writers wait for each other (and for the repository's
 * lock, with git's timeout, against git itself), so every batch is applied, none answered
 * 409, and git reads all 6,000 refs.
 */
class ConcurrentWritersIT extends ApiTestSupport {

	private static final int CLIENTS = 120;

	private static final int REFS = 50;

	@Test
	void concurrentBatchesOnAFilesRepositoryAllApply() throws Exception {
		String name = uniqueName("writers-files");
		writeConcurrently(name, bareRepo(name));
	}

	@Test
	void concurrentBatchesOnAReftableRepositoryAllApply() throws Exception {
		String name = uniqueName("writers-reftable");
		writeConcurrently(name,
				TempRepo.init(GitCli.reftable(), ROOT.resolve(name), "--bare", "--ref-format=reftable"));
	}

	private void writeConcurrently(String name, TempRepo repo) throws Exception {
		String commit = repo.commit("one", null);
		ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<MockHttpServletResponse>> clients = new ArrayList<>();
		for (int client = 0; client < CLIENTS; client++) {
			StringBuilder json = new StringBuilder("{\"updates\": [");
			for (int i = 0; i < REFS; i++) {
				json.append((i > 0) ? "," : "")
					.append("{\"ref\": \"refs/heads/c")
					.append(client)
					.append("/")
					.append(i)
					.append("\", \"new\": \"")
					.append(commit)
					.append("\"}");
			}
			String body = json.append("]}").toString();
			clients.add(pool.submit(() -> {
				start.await();
				return this.mvc
					.perform(post(repoUri(name, "/refs:batch")).with(as("admin"))
						.contentType(MediaType.APPLICATION_JSON)
						.content(body))
					.andReturn()
					.getResponse();
			}));
		}
		start.countDown();
		List<String> refused = new ArrayList<>();
		for (Future<MockHttpServletResponse> client : clients) {
			MockHttpServletResponse response = client.get();
			if (response.getStatus() != 200) {
				String body = response.getContentAsString();
				refused.add(response.getStatus() + " " + body.substring(0, Math.min(200, body.length())));
			}
		}
		pool.shutdown();
		assertThat(refused).as("refused batches").isEmpty();
		GitCli git = name.contains("reftable") ? GitCli.reftable() : GitCli.system();
		assertThat(git.ok(repo.dir(), "for-each-ref", "--format=%(refname)", "refs/heads/").lines().count())
			.isEqualTo((long) CLIENTS * REFS);
		git.ok(repo.dir(), "fsck", "--no-dangling");
	}

}
