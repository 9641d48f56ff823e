package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.awaitility.Awaitility;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * What the job API tests share: JSON posts, reading an execution back, waiting for it to
 * reach a state, and repositories with many refs made by git's own
 * {@code update-ref --stdin}.
 */
abstract class JobApiTestSupport extends ApiTestSupport {

	/** A POST of {@code json} to {@code path}. */
	static MockHttpServletRequestBuilder postJson(String path, String json) {
		return post(path).contentType(MediaType.APPLICATION_JSON).content(json);
	}

	/** The execution as {@code GET /api/jobs/{id}} shows it to an operator. */
	DocumentContext job(long id) throws Exception {
		String body = this.mvc.perform(get("/api/jobs/" + id).with(as("operator")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		return JsonPath.parse(body);
	}

	/**
	 * Polls execution {@code id} until {@code until} holds (at most {@code timeout});
	 * returns its last view.
	 */
	DocumentContext await(long id, Duration timeout, Predicate<DocumentContext> until) {
		AtomicReference<DocumentContext> last = new AtomicReference<>();
		Awaitility.await("execution " + id).atMost(timeout).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
			DocumentContext job = job(id);
			last.set(job);
			assertThat(until.test(job)).as("execution %d still %s", id, job.read("$.status", String.class)).isTrue();
		});
		return last.get();
	}

	/** Polls execution {@code id} until it has ended; returns its last view. */
	DocumentContext awaitEnd(long id) throws Exception {
		return await(id, Duration.ofSeconds(90), (job) -> !job.read("$.running", Boolean.class));
	}

	/**
	 * Polls execution {@code id} until it has ended and its results hold {@code key}: the
	 * job repository saves an ended job's context just after its status, so a reader can
	 * briefly see one without the other.
	 */
	DocumentContext awaitResult(long id, String key) throws Exception {
		return await(id, Duration.ofSeconds(90), (job) -> !job.read("$.running", Boolean.class)
				&& job.read("$.results", java.util.Map.class).containsKey(key));
	}

	/** The execution id of a 201 answer's body. */
	static long id(String body) {
		return JsonPath.parse(body).read("$.id", Long.class);
	}

	/**
	 * A bare repository of {@code count} branches {@code refs/heads/b/NNNNN} plus
	 * {@code main}, all on one commit.
	 */
	static TempRepo repoWithBranches(String name, int count) {
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder("create refs/heads/main " + commit + "\n");
		for (int i = 0; i < count; i++) {
			updates.append("create refs/heads/b/")
				.append(String.format("%05d", i))
				.append(' ')
				.append(commit)
				.append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		return repo;
	}

}
