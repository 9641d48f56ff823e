package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The job API's reads, refusals and roles on real repositories: the history filtered by
 * status, type, repository, user and time, paged with a next link; unknown executions are
 * 404; bad input is a 400 naming the parameter and launches nothing; anonymous callers
 * get 401, callers without the role 403, and each role may launch exactly what issue #6
 * gives it.
 */
class JobApiIT extends JobApiTestSupport {

	private long verify(String repo, String user) throws Exception {
		return id(this.mvc
			.perform(postJson("/api/jobs/verifications", "{\"repository\": \"" + repo + "\"}").with(as(user)))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
	}

	@Test
	void theHistoryIsFilteredAndPagedNewestFirst() throws Exception {
		String name = uniqueName("jobs-list");
		repoWithBranches(name, 5);
		List<Long> ids = new ArrayList<>();
		LocalDateTime start = LocalDateTime.now().minusSeconds(1);
		for (String user : new String[] { "operator", "operator", "admin" }) {
			long id = verify(name, user);
			assertThat(awaitEnd(id).read("$.status", String.class)).isEqualTo("COMPLETED");
			ids.add(id);
		}
		String body = this.mvc.perform(get("/api/jobs").param("repository", name).param("size", "2").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.jobs[*].id").value(contains(ids.get(2).intValue(), ids.get(1).intValue())))
			.andExpect(header().string("Link", containsString("rel=\"next\"")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		String next = JsonPath.read(body, "$.next");
		assertThat(next).contains("page=1").contains("repository=" + name);
		this.mvc.perform(get(java.net.URI.create(next)).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.jobs[*].id").value(contains(ids.get(0).intValue())))
			.andExpect(jsonPath("$.next").value(nullValue()))
			.andExpect(header().doesNotExist("Link"));
		this.mvc.perform(get("/api/jobs").param("repository", name).param("user", "admin").with(as("viewer")))
			.andExpect(jsonPath("$.jobs[*].id").value(contains(ids.get(2).intValue())));
		this.mvc
			.perform(get("/api/jobs").param("repository", name)
				.param("type", "verify")
				.param("status", "completed")
				.with(as("viewer")))
			.andExpect(jsonPath("$.jobs.length()").value(3))
			.andExpect(jsonPath("$.jobs[*].status").value(everyItem(is("COMPLETED"))))
			.andExpect(jsonPath("$.jobs[0].steps[0].name").value("verifyStoreStep"))
			.andExpect(jsonPath("$.jobs[0].results['verify.format']").value("files"));
		this.mvc.perform(get("/api/jobs").param("repository", name).param("status", "FAILED").with(as("viewer")))
			.andExpect(jsonPath("$.jobs.length()").value(0));
		this.mvc.perform(get("/api/jobs").param("repository", name).param("type", "migrate").with(as("viewer")))
			.andExpect(jsonPath("$.jobs.length()").value(0));
		this.mvc
			.perform(get("/api/jobs").param("repository", name)
				.param("from", start.toString())
				.param("to", LocalDateTime.now().plusMinutes(1).toString())
				.with(as("viewer")))
			.andExpect(jsonPath("$.jobs.length()").value(3));
		this.mvc.perform(get("/api/jobs").param("repository", name).param("to", start.toString()).with(as("viewer")))
			.andExpect(jsonPath("$.jobs.length()").value(0));
		this.mvc.perform(get("/api/jobs/" + ids.get(0)).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.id").value(ids.get(0)))
			.andExpect(jsonPath("$.repository").value(name))
			.andExpect(jsonPath("$.running").value(false))
			.andExpect(jsonPath("$.steps[0].status").value("COMPLETED"))
			.andExpect(jsonPath("$.progress.step").value("verifyStoreStep"));
	}

	@Test
	void unknownExecutionsAreNotFound() throws Exception {
		for (var request : List.of(get("/api/jobs/987654321"), post("/api/jobs/987654321/stop"),
				post("/api/jobs/987654321/restart"))) {
			this.mvc.perform(request.with(as("operator")))
				.andExpect(status().isNotFound())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.detail").value(containsString("987654321")))
				.andExpect(jsonPath("$.execution").value(987654321));
		}
		this.mvc.perform(get("/api/jobs/nine").with(as("viewer"))).andExpect(status().isBadRequest());
	}

	@Test
	void badInputIsRefusedNamingTheParameterAndLaunchesNothing() throws Exception {
		String name = uniqueName("jobs-bad");
		TempRepo repo = repoWithBranches(name, 3);
		String before = repo.git("for-each-ref");
		String[][] cases = {
				{ "/api/jobs/migrations", "{\"repository\": \"" + name + "\", \"targetFormat\": \"cvs\"}",
						"targetFormat" },
				{ "/api/jobs/migrations", "{\"repository\": \"" + name + "\", \"targetFormat\": \"files\"}",
						"targetFormat" },
				{ "/api/jobs/migrations",
						"{\"repository\": \"" + name + "\", \"targetFormat\": \"reftable\", " + "\"chunkSize\": 0}",
						"chunkSize" },
				{ "/api/jobs/migrations",
						"{\"repository\": \"" + name + "\", \"targetFormat\": \"reftable\", "
								+ "\"throttleMillis\": 60001}",
						"throttleMillis" },
				{ "/api/jobs/migrations", "{\"targetFormat\": \"reftable\"}", "repository" },
				{ "/api/jobs/migrations", "{\"repository\": \"no-such.git\", \"targetFormat\": \"reftable\"}",
						"repository" },
				{ "/api/jobs/maintenance", "{\"repository\": \"../" + name + "\"}", "repository" },
				{ "/api/jobs/deletion-plans", "{\"repository\": \"" + name + "\"}", "prefixes/globs/names/namespaces" },
				{ "/api/jobs/deletion-plans", "{\"repository\": \"" + name + "\", \"prefixes\": [\"a,b\"]}",
						"prefixes" },
				{ "/api/jobs/deletion-plans",
						"{\"repository\": \"" + name + "\", \"globs\": [\"refs/" + "**/".repeat(340) + "x\"]}",
						"globs" },
				{ "/api/jobs/deletion-plans",
						"{\"repository\": \"" + name + "\", \"globs\": [\"refs/x*\"], " + "\"excludes\": ["
								+ "\"refs/y\",".repeat(100) + "\"refs/z\"]}",
						"excludes" },
				{ "/api/jobs/deletions", "{\"confirmRepository\": \"" + name + "\"}", "plan" }, { "/api/jobs/restores",
						"{\"repository\": \"" + name + "\", \"manifest\": \"../../config\"}", "manifest" },
				{ "/api/jobs/rollbacks", "{\"repository\": \"" + name + "\"}", "backup" } };
		for (String[] bad : cases) {
			this.mvc.perform(postJson(bad[0], bad[1]).with(as("admin")))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.parameter").value(bad[2]))
				.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")))
				.andExpect(jsonPath("$.detail").value(containsString(bad[2])));
		}
		this.mvc
			.perform(postJson("/api/jobs/migrations", "{\"repository\": \"" + name + "\", \"chunkSize\": \"lots\"}")
				.with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("chunkSize")));
		this.mvc.perform(postJson("/api/jobs/migrations", "{\"repository\": ").with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("malformed JSON")));
		String[][] query = { { "status", "BOGUS" }, { "type", "bogus" }, { "size", "0" }, { "page", "-1" },
				{ "from", "yesterday" } };
		for (String[] bad : query) {
			ResultActions refused = this.mvc.perform(get("/api/jobs").param(bad[0], bad[1]).with(as("viewer")))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.detail").value(containsString(bad[0])));
			if (!bad[0].equals("from")) {
				// a date that does not parse is refused by Spring MVC's own binding,
				// before refstore's checks
				refused.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
			}
		}
		this.mvc.perform(get("/api/jobs").param("repository", name).with(as("viewer")))
			.andExpect(jsonPath("$.jobs.length()").value(0));
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

	@Test
	void eachRoleMayDoWhatItsRoleAllowsAndNoMore() throws Exception {
		String name = uniqueName("jobs-roles");
		TempRepo repo = repoWithBranches(name, 3);
		String before = repo.git("for-each-ref");
		String repoBody = "{\"repository\": \"" + name + "\"}";
		this.mvc.perform(get("/api/jobs")).andExpect(status().isUnauthorized());
		this.mvc.perform(get("/api/jobs/1")).andExpect(status().isUnauthorized());
		this.mvc.perform(postJson("/api/jobs/verifications", repoBody)).andExpect(status().isUnauthorized());
		this.mvc.perform(post("/api/jobs/1/stop")).andExpect(status().isUnauthorized());
		this.mvc.perform(get("/api/jobs").with(as("nobody"))).andExpect(status().isForbidden());
		this.mvc.perform(get("/api/jobs").with(as("viewer"))).andExpect(status().isOk());
		for (String path : List.of("/api/jobs/migrations", "/api/jobs/verifications", "/api/jobs/maintenance",
				"/api/jobs/deletion-plans", "/api/jobs/deletions", "/api/jobs/restores", "/api/jobs/rollbacks")) {
			this.mvc.perform(postJson(path, repoBody).with(as("viewer")))
				.andExpect(status().isForbidden())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		}
		for (String path : List.of("/api/jobs/migrations", "/api/jobs/deletions", "/api/jobs/restores",
				"/api/jobs/rollbacks")) {
			this.mvc.perform(postJson(path, repoBody).with(as("operator"))).andExpect(status().isForbidden());
		}
		this.mvc.perform(get("/api/jobs").param("repository", name).with(as("viewer")))
			.andExpect(jsonPath("$.jobs.length()").value(0));
		this.mvc
			.perform(get("/api/audit").param("actor", "viewer").param("action", "request.denied").with(as("operator")))
			.andExpect(
					jsonPath("$.entries[*].target").value(org.hamcrest.Matchers.hasItem("POST /api/jobs/rollbacks")));
		this.mvc
			.perform(get("/api/audit").param("actor", "operator").param("action", "call.denied").with(as("operator")))
			.andExpect(jsonPath("$.entries[*].target").value(org.hamcrest.Matchers.hasItem("JobService.rollback")));

		long maintain = id(this.mvc
			.perform(postJson("/api/jobs/maintenance", "{\"repository\": \"" + name + "\", \"force\": true}")
				.with(as("operator")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		assertThat(awaitEnd(maintain).read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(job(maintain).read("$.results['maintain.packed']", String.class)).isEqualTo("true");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		assertThat(repo.gitDir().resolve("refs/heads/main")).doesNotExist();
		long dryRun = id(this.mvc
			.perform(postJson("/api/jobs/migrations", "{\"repository\": \"" + name + "\", \"dryRun\": true}")
				.with(as("operator")))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.job").value("verifyRefsJob"))
			.andReturn()
			.getResponse()
			.getContentAsString());
		assertThat(awaitEnd(dryRun).read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("files");
	}

}
