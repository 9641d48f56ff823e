package io.refstore.web.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.MediaType;

import com.jayway.jsonpath.JsonPath;

import io.refstore.web.ApiTestSupport;

/**
 * {@code GET /api/audit}: OPERATOR and ADMIN read it with filters and keyset paging;
 * entries published as application events (how another module audits) are stored like the
 * web's own.
 */
class AuditApiIT extends ApiTestSupport {

	@Autowired
	ApplicationEventPublisher events;

	@Test
	void publishedEntriesAreStoredAndPagedNewestFirst() throws Exception {
		String repository = uniqueName("audited");
		Instant start = Instant.now().minusSeconds(1);
		for (int i = 0; i < 5; i++) {
			this.events.publishEvent(
					AuditEntry.of("batch-user", "job.launch", repository, "job " + i, Map.of("type", "migrate"),
							(i == 4) ? AuditEntry.Outcome.ERROR : AuditEntry.Outcome.SUCCESS, "step " + i));
		}
		List<String> targets = new ArrayList<>();
		String before = "";
		do {
			String body = this.mvc
				.perform(get("/api/audit?limit=2&repository=" + repository + before).with(as("operator")))
				.andExpect(status().isOk())
				.andReturn()
				.getResponse()
				.getContentAsString();
			targets.addAll(JsonPath.read(body, "$.entries[*].target"));
			Object next = JsonPath.read(body, "$.next");
			before = (next == null) ? null : "&before=" + next;
		}
		while (before != null);
		assertThat(targets).containsExactly("job 4", "job 3", "job 2", "job 1", "job 0");
		this.mvc.perform(get("/api/audit?outcome=ERROR&repository=" + repository).with(as("admin")))
			.andExpect(jsonPath("$.entries.length()").value(1))
			.andExpect(jsonPath("$.entries[0].detail").value("step 4"))
			.andExpect(jsonPath("$.entries[0].parameters.type").value("migrate"));
		this.mvc.perform(
				get("/api/audit?repository=" + repository + "&from=" + start + "&to=" + Instant.now().plusSeconds(1))
					.with(as("admin")))
			.andExpect(jsonPath("$.entries.length()").value(5));
		this.mvc.perform(get("/api/audit?repository=" + repository + "&to=" + start).with(as("admin")))
			.andExpect(jsonPath("$.entries.length()").value(0));
	}

	@Test
	void aJobsEntriesShowItsRepositoryNotTheServersPaths() throws Exception {
		String repository = uniqueName("audit-paths") + ".git";
		bareRepo(repository);
		// an entry stored as jobs' entries were before their parameters were redacted
		this.events.publishEvent(AuditEntry.of("system", "job.finish", repository, "verifyRefsJob #0",
				Map.of("repository", repository, "repositoryPath", ROOT.resolve(repository).toString(), "backup",
						ROOT.resolve(repository).resolve("refstore-backup/files-1").toString()),
				AuditEntry.Outcome.SUCCESS, "COMPLETED"));
		this.mvc
			.perform(post("/api/jobs/verifications").with(as("operator"))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"repository\": \"" + repository + "\"}"))
			.andExpect(status().isCreated());
		String body = await("the job's launch and finish are audited").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> this.mvc.perform(get("/api/audit?repository=" + repository).with(as("operator")))
				.andExpect(status().isOk())
				.andReturn()
				.getResponse()
				.getContentAsString(),
					(now) -> actions(now).contains("job.launch")
							&& Collections.frequency(actions(now), "job.finish") >= 2);
		assertThat(JsonPath.<List<String>>read(body, "$.entries[*].parameters.repository")).containsOnly(repository);
		assertThat(body).doesNotContain(HOME.toString(), "repositoryPath").contains("\"backup\":\"files-1\"");
	}

	private static List<String> actions(String body) {
		return body.isEmpty() ? List.of() : JsonPath.read(body, "$.entries[*].action");
	}

	@Test
	void theAuditLogIsForOperatorsAndAdmins() throws Exception {
		this.mvc.perform(get("/api/audit")).andExpect(status().isUnauthorized());
		this.mvc.perform(get("/api/audit").with(as("nobody"))).andExpect(status().isForbidden());
		this.mvc.perform(get("/api/audit").with(as("viewer"))).andExpect(status().isForbidden());
		this.mvc.perform(get("/api/audit").with(as("operator"))).andExpect(status().isOk());
		this.mvc.perform(get("/api/audit").with(as("admin"))).andExpect(status().isOk());
	}

	@Test
	void badFiltersAreNamed() throws Exception {
		this.mvc.perform(get("/api/audit?limit=0").with(as("operator")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("limit"));
		this.mvc.perform(get("/api/audit?outcome=MAYBE").with(as("operator")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("outcome")));
		this.mvc.perform(get("/api/audit?from=yesterday").with(as("operator")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.detail").value(containsString("from")));
	}

}
