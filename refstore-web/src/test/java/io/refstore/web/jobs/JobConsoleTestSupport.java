package io.refstore.web.jobs;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrlPattern;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;

import org.springframework.test.web.servlet.MvcResult;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * What the job pages' tests share: repositories of branches made by git, the id a launch
 * redirected to, the wait for an execution's end, and launches of a verification and of a
 * slowed-down migration.
 */
abstract class JobConsoleTestSupport extends ConsoleTestSupport {

	@org.springframework.beans.factory.annotation.Autowired
	protected JobService jobs;

	protected static TempRepo repo(String name, int branches) {
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder("create refs/heads/main " + commit + "\n");
		for (int i = 0; i < branches; i++) {
			updates.append("create refs/heads/b/")
				.append(String.format("%05d", i))
				.append(' ')
				.append(commit)
				.append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		return repo;
	}

	/** The id a launch or action redirected to. */
	protected static long redirectedId(MvcResult result) {
		String url = result.getResponse().getRedirectedUrl();
		return Long.parseLong(url.substring(url.lastIndexOf('/') + 1));
	}

	/**
	 * Waits until execution {@code id} has ended (with its results saved, when
	 * {@code key} is given).
	 */
	protected String awaitEnd(long id, String key) {
		String body = await("execution " + id + " to end").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.mvc.perform(get("/api/jobs/" + id).with(as("operator")))
				.andReturn()
				.getResponse()
				.getContentAsString(),
					(now) -> !JsonPath.<Boolean>read(now, "$.running") && (key == null
							|| JsonPath.<java.util.Map<String, ?>>read(now, "$.results").containsKey(key)));
		return JsonPath.read(body, "$.status");
	}

	/** Launches a verification of {@code name} through the API, not waiting for it. */
	protected long verification(String name) throws Exception {
		String body = this.mvc
			.perform(post("/api/jobs/verifications").contentType(org.springframework.http.MediaType.APPLICATION_JSON)
				.content("{\"repository\": \"" + name + "\"}")
				.with(as("operator")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		return JsonPath.parse(body).read("$.id", Long.class);
	}

	/** A migration of {@code name} by an ADMIN, slowed down to last several seconds. */
	protected long slowMigration(String name) throws Exception {
		return redirectedId(this.mvc
			.perform(post("/jobs/new/migration").param("repo", name)
				.param("targetFormat", "reftable")
				.param("chunkSize", "50")
				.param("throttleMillis", "150")
				.param("readersChecked", "true")
				.with(admin())
				.with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn());
	}

}
