package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Parallel clients doing compare-and-swap through {@code refs:batch} on the same two refs
 * lose no successful update: every accepted swap starts from the value the previous
 * accepted one left, the accepted swaps form one chain from the first value to the value
 * git reads at the end, and the two refs of each batch always move together.
 */
class ConcurrentBatchIT extends ApiTestSupport {

	private static final int CLIENTS = 4;

	private static final int ATTEMPTS = 25;

	@Test
	void compareAndSwapLosesNoSuccessfulUpdate() throws Exception {
		String name = uniqueName("concurrent");
		TempRepo repo = bareRepo(name);
		List<String> commits = repo.commits(CLIENTS * ATTEMPTS + 1, "c");
		String initial = commits.get(0);
		repo.git("update-ref", "refs/heads/a", initial);
		repo.git("update-ref", "refs/heads/b", initial);
		Map<String, String> accepted = new ConcurrentHashMap<>();
		ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
		List<Future<Integer>> clients = new ArrayList<>();
		for (int client = 0; client < CLIENTS; client++) {
			List<String> mine = commits.subList(1 + client * ATTEMPTS, 1 + (client + 1) * ATTEMPTS);
			clients.add(pool.submit(() -> swap(name, mine, accepted)));
		}
		int conflicts = 0;
		for (Future<Integer> client : clients) {
			conflicts += client.get();
		}
		pool.shutdown();
		String finalA = repo.git("rev-parse", "refs/heads/a").trim();
		assertThat(repo.git("rev-parse", "refs/heads/b").trim()).as("both refs of every batch moved together")
			.isEqualTo(finalA);
		Map<String, String> chain = new HashMap<>(accepted);
		String value = initial;
		int steps = 0;
		while (chain.containsKey(value)) {
			value = chain.remove(value);
			steps++;
		}
		assertThat(chain).as("accepted swaps outside the chain (lost updates)").isEmpty();
		assertThat(steps).isEqualTo(accepted.size());
		assertThat(value).isEqualTo(finalA);
		assertThat(accepted.size() + conflicts).isEqualTo(CLIENTS * ATTEMPTS);
		assertThat(accepted).isNotEmpty();
	}

	/**
	 * Reads a, then swaps a and b from that value to the next of {@code mine}; returns
	 * how many were refused.
	 */
	private int swap(String name, List<String> mine, Map<String, String> accepted) throws Exception {
		int refused = 0;
		for (String next : mine) {
			String body = this.mvc.perform(get(refUri(name, "refs/heads/a", "")).with(as("admin")))
				.andReturn()
				.getResponse()
				.getContentAsString();
			String old = JsonPath.read(body, "$.object.sha");
			String json = """
					{"updates": [{"ref": "refs/heads/a", "old": "%s", "new": "%s"},
					             {"ref": "refs/heads/b", "old": "%s", "new": "%s"}]}""".formatted(old, next, old, next);
			int status = this.mvc
				.perform(post(repoUri(name, "/refs:batch")).with(as("admin"))
					.contentType(MediaType.APPLICATION_JSON)
					.content(json))
				.andReturn()
				.getResponse()
				.getStatus();
			if (status == 200) {
				assertThat(accepted.put(old, next)).as("two accepted swaps from " + old).isNull();
			}
			else {
				assertThat(status).isEqualTo(409);
				refused++;
			}
		}
		return refused;
	}

}
