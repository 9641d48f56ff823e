package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Jobs run end to end through the API on real repositories, judged by git: a migration
 * reaches COMPLETED and the reftable git reads exactly the refs the system git listed
 * before, and its rollback brings the files store back; a deletion plan, its confirmed
 * execution and the restore round-trip; a throttled migration holds its repository (409
 * naming it), is stopped, and its restart completes it. Every launch, stop and restart is
 * in the audit log with its parameters and outcome.
 */
class JobRunApiIT extends JobApiTestSupport {

	@Test
	void aMigrationCompletesGitReadsTheResultAndARollbackRestoresTheFilesStore() throws Exception {
		String name = uniqueName("jobs-migrate");
		TempRepo repo = repoWithBranches(name, 300);
		String before = repo.git("for-each-ref");
		String body = this.mvc
			.perform(postJson("/api/jobs/migrations", """
					{"repository": "%s", "targetFormat": "reftable", "chunkSize": 100}""".formatted(name))
				.with(as("admin")))
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", startsWith("/api/jobs/")))
			.andExpect(jsonPath("$.job").value("migrateRefsJob"))
			.andExpect(jsonPath("$.type").value("migrate"))
			.andExpect(jsonPath("$.user").value("admin"))
			.andExpect(jsonPath("$.parameters.chunkSize").value("100"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		long id = id(body);
		DocumentContext done = awaitResult(id, "migration.backup");
		assertThat(done.read("$.status", String.class)).isEqualTo("COMPLETED");
		List<String> steps = done.read("$.steps[*].name");
		assertThat(steps).contains("copyRefsStep");
		assertThat(done.read("$.steps[?(@.name == 'copyRefsStep')].done", List.class)).containsExactly(302);
		assertThat(done.read("$.steps[?(@.name == 'copyRefsStep')].total", List.class)).containsExactly(302);
		assertThat(done.read("$.steps[?(@.name == 'copyRefsStep')].ratePerSecond", List.class)).first()
			.satisfies((rate) -> assertThat(((Number) rate).doubleValue()).isPositive());
		assertThat(done.read("$.progress.percent", Double.class)).isEqualTo(100.0);
		assertThat(done.read("$.links.self", String.class)).isEqualTo("/api/jobs/" + id);
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
		assertThat(GitCli.reftable().ok(repo.dir(), "for-each-ref")).isEqualTo(before);

		String backup = Path.of(done.read("$.results['migration.backup']", String.class)).getFileName().toString();
		String rollback = """
				{"repository": "%s", "backup": "%s"}""".formatted(name, backup);
		this.mvc.perform(postJson("/api/jobs/rollbacks", rollback).with(as("operator")))
			.andExpect(status().isForbidden());
		long rolledBack = id(this.mvc.perform(postJson("/api/jobs/rollbacks", rollback).with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		assertThat(awaitEnd(rolledBack).read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("files");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		this.mvc.perform(get("/api/audit").param("action", "job.launch").param("repository", name).with(as("operator")))
			.andExpect(jsonPath("$.entries.length()").value(2))
			.andExpect(jsonPath("$.entries[0].actor").value("admin"))
			.andExpect(jsonPath("$.entries[0].target").value("rollbackMigrationJob #" + rolledBack))
			.andExpect(jsonPath("$.entries[0].parameters.backup").value(containsString(backup)))
			.andExpect(jsonPath("$.entries[1].actor").value("admin"))
			.andExpect(jsonPath("$.entries[1].parameters.targetFormat").value("reftable"))
			.andExpect(jsonPath("$.entries[1].outcome").value("SUCCESS"));
	}

	@Test
	void aDeletionPlanItsConfirmedExecutionAndTheRestoreRoundTrip() throws Exception {
		String name = uniqueName("jobs-delete");
		TempRepo repo = repoWithBranches(name, 30);
		String before = repo.git("for-each-ref");
		long plan = id(this.mvc
			.perform(postJson("/api/jobs/deletion-plans",
					"""
							{"repository": "%s", "prefixes": ["refs/heads/b/"], "excludes": ["refs/heads/b/00029"]}"""
						.formatted(name))
				.with(as("operator")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		DocumentContext planned = awaitResult(plan, "plan.count");
		assertThat(planned.read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(planned.read("$.results['plan.count']", String.class)).isEqualTo("29");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);

		String confirmed = """
				{"plan": %d, "confirmRepository": "%s", "confirmCount": "29"}""".formatted(plan, name);
		this.mvc.perform(postJson("/api/jobs/deletions", confirmed).with(as("operator")))
			.andExpect(status().isForbidden());
		this.mvc.perform(postJson("/api/jobs/deletions", confirmed.replace("\"29\"", "\"30\"")).with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.parameter").value("confirmCount"))
			.andExpect(jsonPath("$.detail").value(containsString("29")));
		this.mvc
			.perform(get("/api/audit").param("action", "job.launch")
				.param("repository", name)
				.param("outcome", "REJECTED")
				.with(as("operator")))
			.andExpect(jsonPath("$.entries.length()").value(1))
			.andExpect(jsonPath("$.entries[0].actor").value("admin"))
			.andExpect(jsonPath("$.entries[0].target").value("deleteRefsJob"))
			.andExpect(jsonPath("$.entries[0].parameters.confirmCount").value("30"))
			.andExpect(jsonPath("$.entries[0].detail").value(containsString("confirmCount")));
		this.mvc
			.perform(postJson("/api/jobs/deletions", """
					{"plan": %d, "confirmRepository": "%s", "confirmCount": "29"}""".formatted(plan + 100_000, name))
				.with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("plan"));
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		long deletion = id(this.mvc.perform(postJson("/api/jobs/deletions", confirmed).with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		assertThat(awaitEnd(deletion).read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(repo.git("for-each-ref", "--format=%(refname)")).isEqualTo("refs/heads/b/00029\nrefs/heads/main\n");

		this.mvc.perform(postJson("/api/jobs/restores", "{\"deletion\": " + deletion + "}").with(as("operator")))
			.andExpect(status().isForbidden());
		this.mvc.perform(postJson("/api/jobs/restores", "{\"deletion\": " + plan + "}").with(as("admin")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("deletion"));
		long restore = id(
				this.mvc.perform(postJson("/api/jobs/restores", "{\"deletion\": " + deletion + "}").with(as("admin")))
					.andExpect(status().isCreated())
					.andExpect(jsonPath("$.job").value("restoreRefsJob"))
					.andReturn()
					.getResponse()
					.getContentAsString());
		assertThat(awaitEnd(restore).read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

	@Test
	void aRunningMigrationHoldsItsRepositoryIsStoppedAndItsRestartCompletesIt() throws Exception {
		String name = uniqueName("jobs-stop");
		TempRepo repo = repoWithBranches(name, 2000);
		String before = repo.git("for-each-ref");
		long id = id(this.mvc
			.perform(postJson("/api/jobs/migrations",
					"""
							{"repository": "%s", "targetFormat": "reftable", "chunkSize": 50, "throttleMillis": 150}"""
						.formatted(name))
				.with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		await(id, Duration.ofSeconds(60),
				(job) -> job.read("$.steps[?(@.name == 'copyRefsStep')]", List.class).size() == 1);

		this.mvc.perform(postJson("/api/jobs/maintenance", "{\"repository\": \"" + name + "\"}").with(as("operator")))
			.andExpect(status().isConflict())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.execution").value(id))
			.andExpect(jsonPath("$.detail").value(containsString(Long.toString(id))));
		this.mvc.perform(post("/api/jobs/" + id + "/stop").with(as("viewer"))).andExpect(status().isForbidden());
		this.mvc.perform(post("/api/jobs/" + id + "/stop").with(as("operator")))
			.andExpect(status().isAccepted())
			.andExpect(jsonPath("$.id").value(id));
		DocumentContext stopped = awaitEnd(id);
		assertThat(stopped.read("$.status", String.class)).isEqualTo("STOPPED");
		assertThat(stopped.read("$.links.restart", String.class)).isEqualTo("/api/jobs/" + id + "/restart");
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("files");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
		this.mvc.perform(post("/api/jobs/" + id + "/stop").with(as("operator")))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.status").value("STOPPED"));

		this.mvc.perform(post("/api/jobs/" + id + "/restart").with(as("viewer"))).andExpect(status().isForbidden());
		this.mvc.perform(post("/api/jobs/" + id + "/restart").with(as("operator"))).andExpect(status().isForbidden());
		String body = this.mvc.perform(post("/api/jobs/" + id + "/restart").with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		long restarted = id(body);
		assertThat(restarted).isNotEqualTo(id);
		DocumentContext completed = awaitEnd(restarted);
		assertThat(completed.read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(completed.read("$.instanceId", Long.class)).isEqualTo(stopped.read("$.instanceId", Long.class));
		assertThat(GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
		assertThat(GitCli.reftable().ok(repo.dir(), "for-each-ref")).isEqualTo(before);
		this.mvc.perform(post("/api/jobs/" + restarted + "/restart").with(as("admin")))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.detail").value(containsString("COMPLETED")));

		this.mvc.perform(get("/api/audit").param("repository", name).param("limit", "50").with(as("operator")))
			.andExpect(jsonPath("$.entries[*].action").value(hasItem("job.stop")))
			.andExpect(jsonPath("$.entries[*].action").value(hasItem("job.restart")))
			.andExpect(jsonPath("$.entries[?(@.action == 'job.launch' && @.outcome == 'REJECTED')].target")
				.value(hasItem("maintainRefsJob")))
			.andExpect(jsonPath("$.entries[?(@.action == 'job.restart' && @.outcome == 'SUCCESS')].target")
				.value(hasItem("migrateRefsJob #" + restarted)));
	}

	@Test
	void restartingAFailedRollbackNeedsAdminAsLaunchingItDoes() throws Exception {
		String name = uniqueName("jobs-rollback-fail");
		TempRepo repo = repoWithBranches(name, 3);
		String before = repo.git("for-each-ref");
		// a backup directory with no store in it: the rollback is launched, then fails
		java.nio.file.Files.createDirectories(repo.gitDir().resolve("refstore-backup/empty"));
		long id = id(this.mvc
			.perform(postJson("/api/jobs/rollbacks", "{\"repository\": \"" + name + "\", \"backup\": \"empty\"}")
				.with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		DocumentContext failed = awaitEnd(id);
		assertThat(failed.read("$.status", String.class)).isEqualTo("FAILED");
		assertThat(failed.read("$.exitMessage", String.class)).isNotBlank();
		this.mvc.perform(post("/api/jobs/" + id + "/restart").with(as("operator"))).andExpect(status().isForbidden());
		long again = id(this.mvc.perform(post("/api/jobs/" + id + "/restart").with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		assertThat(awaitEnd(again).read("$.status", String.class)).isEqualTo("FAILED");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

}
