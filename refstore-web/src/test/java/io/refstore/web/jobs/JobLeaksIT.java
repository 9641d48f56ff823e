package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.TempRepo;

/**
 * A job as a VIEWER reads it, in the API and the console, shows no server path and no
 * exception: the repository by name, a migration's backup by its name, a failure's cause
 * in words.
 */
class JobLeaksIT extends JobApiTestSupport {

	private String asViewer(long id) throws Exception {
		return this.mvc.perform(get("/api/jobs/" + id).with(as("viewer")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
	}

	private String consolePage(long id) throws Exception {
		return this.mvc
			.perform(get("/jobs/" + id).with(SecurityMockMvcRequestPostProcessors.user("viewer").roles("VIEWER")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
	}

	private static void assertNoLeak(String body) {
		assertThat(body).doesNotContain(ROOT.toString(), HOME.toString(), "repositoryPath", "Exception", "\tat ",
				"java.", "io.refstore.");
	}

	@Test
	void aCompletedMigrationShowsItsBackupByName() throws Exception {
		String name = uniqueName("leaks-migrate");
		repoWithBranches(name, 5);
		long id = id(this.mvc.perform(postJson("/api/jobs/migrations", """
				{"repository": "%s", "targetFormat": "reftable"}""".formatted(name)).with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		DocumentContext done = awaitResult(id, "migration.backup");
		assertThat(done.read("$.status", String.class)).isEqualTo("COMPLETED");
		String body = asViewer(id);
		assertNoLeak(body);
		Map<String, String> parameters = done.read("$.parameters");
		assertThat(parameters).doesNotContainKey("repositoryPath").containsEntry("repository", name);
		assertThat(done.read("$.results['migration.backup']", String.class)).isNotBlank().doesNotContain("/");
		assertNoLeak(consolePage(id));
	}

	@Test
	void aFailedRollbackSaysWhyInWords() throws Exception {
		String name = uniqueName("leaks-rollback");
		TempRepo repo = repoWithBranches(name, 3);
		String before = repo.git("for-each-ref");
		Files.createDirectories(repo.gitDir().resolve("refstore-backup/empty"));
		long id = id(this.mvc
			.perform(postJson("/api/jobs/rollbacks", "{\"repository\": \"" + name + "\", \"backup\": \"empty\"}")
				.with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		DocumentContext failed = awaitEnd(id);
		assertThat(failed.read("$.status", String.class)).isEqualTo("FAILED");
		String body = asViewer(id);
		assertNoLeak(body);
		DocumentContext viewed = com.jayway.jsonpath.JsonPath.parse(body);
		assertThat(viewed.read("$.exitMessage", String.class)).isNotBlank();
		assertThat(viewed.read("$.steps[*].exitMessage", java.util.List.class))
			.allSatisfy((message) -> assertThat(String.valueOf(message)).doesNotContain("\n"));
		assertNoLeak(consolePage(id));
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

}
