package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.TempRepo;

/**
 * Protected refs through the API, judged by git: a deletion planned and executed without
 * an override keeps GitLab's keep-around refs, Gerrit's review data and config, notes and
 * {@code HEAD}'s branch, and the plan lists them; an override is 403 for an OPERATOR and
 * 400 naming {@code overrideReason} without a reason; an ADMIN's override with a reason
 * deletes them, and the audit log keeps the reason with the launch. Schedules and
 * campaigns cannot override.
 */
class ProtectedRefsApiIT extends JobApiTestSupport {

	@Autowired
	JobService jobService;

	private long plan(String user, String json) throws Exception {
		return id(this.mvc.perform(postJson("/api/jobs/deletion-plans", json).with(as(user)))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
	}

	private void execute(long plan, String repository, String count) throws Exception {
		long deletion = id(
				this.mvc
					.perform(postJson("/api/jobs/deletions",
							"""
									{"plan": %d, "confirmRepository": "%s", "confirmCount": "%s"}""".formatted(plan,
									repository, count))
						.with(as("admin")))
					.andExpect(status().isCreated())
					.andReturn()
					.getResponse()
					.getContentAsString());
		assertThat(awaitEnd(deletion).read("$.status", String.class)).isEqualTo("COMPLETED");
	}

	@Test
	void aDeletionWithoutOverrideKeepsTheProtectedRefsAndThePlanListsThem() throws Exception {
		String name = uniqueName("protected-kept");
		TempRepo repo = bareRepo(name);
		repo.git("config", "gc.auto", "0");
		String commit = repo.commit("c", null);
		List<String> kept = List.of("refs/changes/34/1234/meta", "refs/heads/main", "refs/keep-around/" + commit,
				"refs/meta/config", "refs/notes/commits");
		for (String ref : kept) {
			repo.git("update-ref", ref, commit);
		}
		for (String ref : List.of("refs/heads/topic", "refs/changes/34/1234/1", "refs/tags/v1")) {
			repo.git("update-ref", ref, commit);
		}
		long plan = plan("operator", """
				{"repository": "%s", "prefixes": ["refs/"]}""".formatted(name));
		DocumentContext planned = awaitResult(plan, "plan.protected.count");
		assertThat(planned.read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(this.jobService.needsAdmin(plan)).isFalse();
		assertThat(planned.read("$.results['plan.count']", String.class)).isEqualTo("3");
		assertThat(planned.read("$.results['plan.protected.count']", String.class)).isEqualTo("5");
		assertThat(planned.read("$.results['plan.protected.byPattern']", String.class))
			.isEqualTo("1 refs/keep-around/**\n1 refs/changes/**/meta\n1 refs/notes/**\n1 refs/meta/**\n1 HEAD");
		assertThat(planned.read("$.results['plan.protected.sample']", String.class).lines())
			.contains("refs/heads/main (HEAD)", "refs/changes/34/1234/meta (refs/changes/**/meta)");
		assertThat(planned.read("$.parameters.protectedRefs", String.class))
			.isEqualTo("refs/keep-around/**,refs/changes/**/meta,refs/notes/**,refs/meta/**,HEAD");

		execute(plan, name, "3");
		assertThat(repo.git("for-each-ref", "--format=%(refname)").lines()).containsExactlyElementsOf(kept);
		repo.git("fsck", "--no-progress");
	}

	@Test
	void anOverrideNeedsAdminAndAReasonAndTheAuditLogKeepsTheReason() throws Exception {
		String name = uniqueName("protected-override");
		TempRepo repo = repoWithBranches(name, 3);
		String commit = repo.git("rev-parse", "refs/heads/main").trim();
		for (String ref : List.of("refs/keep-around/" + commit, "refs/notes/commits", "refs/meta/config")) {
			repo.git("update-ref", ref, commit);
		}
		String before = repo.git("for-each-ref");
		String override = """
				{"repository": "%s", "prefixes": ["refs/"], "overrideProtection": true, "overrideReason": %s}""";

		this.mvc
			.perform(
					postJson("/api/jobs/deletion-plans", override.formatted(name, "\"archived\"")).with(as("operator")))
			.andExpect(status().isForbidden())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		this.mvc.perform(postJson("/api/jobs/deletion-plans", override.formatted(name, "null")).with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.parameter").value("overrideReason"))
			.andExpect(jsonPath("$.detail").value(containsString("overrideProtection")));
		this.mvc.perform(postJson("/api/jobs/deletion-plans", override.formatted(name, "\"  \"")).with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("overrideReason"));
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		this.mvc
			.perform(get("/api/audit").param("action", "call.denied").param("actor", "operator").with(as("operator")))
			.andExpect(jsonPath("$.entries[0].target").value("JobService.planDeletion"));

		String reason = "repository archived; GitLab project deleted";
		long plan = plan("admin", override.formatted(name, "\"" + reason + "\""));
		DocumentContext planned = awaitResult(plan, "plan.protected.count");
		assertThat(this.jobService.needsAdmin(plan)).as("restarting an override needs ADMIN too").isTrue();
		assertThat(planned.read("$.results['plan.count']", String.class)).isEqualTo("7");
		assertThat(planned.read("$.results['plan.protected.count']", String.class)).isEqualTo("0");
		execute(plan, name, "7");
		assertThat(repo.git("for-each-ref")).isEmpty();
		this.mvc
			.perform(get("/api/audit").param("action", "job.launch")
				.param("repository", name)
				.param("outcome", "SUCCESS")
				.with(as("operator")))
			.andExpect(jsonPath("$.entries.length()").value(2))
			.andExpect(jsonPath("$.entries[1].actor").value("admin"))
			.andExpect(jsonPath("$.entries[1].parameters.overrideProtection").value("true"))
			.andExpect(jsonPath("$.entries[1].parameters.overrideReason").value(reason));
	}

	@Test
	void schedulesAndCampaignsCannotOverrideTheProtection() throws Exception {
		String name = uniqueName("protected-unattended");
		repoWithBranches(name, 1);
		this.mvc.perform(post("/api/schedules").with(as("admin")).contentType(MediaType.APPLICATION_JSON).content("""
				{"name": "%s", "jobType": "delete", "targetKind": "REPOSITORY", "target": "%s",
				 "parameters": {"prefixes": "refs/", "overrideProtection": "true", "overrideReason": "nightly"},
				 "cron": "0 0 2 * * ?"}""".formatted(uniqueName("purge"), name)))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("parameters.overrideProtection"));
		this.mvc.perform(post("/api/campaigns").with(as("admin")).contentType(MediaType.APPLICATION_JSON).content("""
				{"jobType": "delete", "targetKind": "REPOSITORY", "target": "%s",
				 "parameters": {"prefixes": "refs/", "overrideReason": "fleet cleanup"}}""".formatted(name)))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("parameters.overrideReason"));
	}

}
