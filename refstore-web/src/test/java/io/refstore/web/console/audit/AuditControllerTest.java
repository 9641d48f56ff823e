package io.refstore.web.console.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The audit page shows what the API's writes recorded (a real ref deletion through the
 * API, refused here for want of the object, still audited), filtered by user; a viewer is
 * refused.
 */
class AuditControllerTest extends ConsoleTestSupport {

	@Autowired
	AuditLog audit;

	@Test
	void operatorsSeeTheLogFilteredByUser() throws Exception {
		this.mvc.perform(get("/audit").param("actor", "nobody-wrote-this").with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(AuditController.VIEWS_AUDIT_LIST))
			.andExpect(model().attributeExists("page", "filter"))
			.andExpect(content().string(containsString("No entry matches.")));
	}

	/** The pager says where a page is among the entries the filters match. */
	@Test
	void thePagerSaysWhereThePageIsAmongTheMatchingEntries() throws Exception {
		String repo = uniqueName("paged") + ".git";
		for (int i = 0; i < 250; i++) {
			this.audit.record(AuditEntry.of("alice", "ref.update", repo, "refs/heads/b" + i, Map.of(),
					AuditEntry.Outcome.SUCCESS, null));
		}
		String first = this.mvc.perform(get("/audit").param("repo", repo).with(operator()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(first).contains("<span id=\"page-position\">1–100 of 250</span>");
		String older = first.substring(first.indexOf("id=\"older\""));
		int cursor = older.indexOf("before=") + "before=".length();
		String before = older.substring(cursor, older.indexOf('"', cursor));

		String second = this.mvc.perform(get("/audit").param("repo", repo).param("before", before).with(operator()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();

		assertThat(second).contains("<span id=\"page-position\">101–200 of 250</span>")
			.contains("refs/heads/b149")
			.doesNotContain("refs/heads/b150<");
		this.mvc.perform(get("/audit").param("repo", repo).param("actor", "bob").with(operator()))
			.andExpect(content().string(containsString("No entry matches.")))
			.andExpect(content().string(org.hamcrest.Matchers.not(containsString("id=\"page-position\">1"))));
	}

	@Test
	void viewersAreRefused() throws Exception {
		this.mvc.perform(get("/audit").with(viewer())).andExpect(status().isForbidden());
	}

	@Test
	void refusalsAndJobsAreLinkedAndFilteredByOutcome() throws Exception {
		String repo = uniqueName("audited") + ".git";
		bareRepo(repo);
		// a viewer's maintenance launch is refused; an operator's runs
		this.mvc.perform(post("/jobs/new/maintenance").param("repo", repo).with(viewer()).with(csrf()))
			.andExpect(status().isForbidden());
		String job = this.mvc.perform(post("/jobs/new/maintenance").param("repo", repo).with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		String denied = this.mvc
			.perform(get("/audit").param("actor", "viewer").param("outcome", "DENIED").with(operator()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(denied).contains("POST /jobs/new/maintenance")
			.contains("outcome-DENIED")
			.contains("the role VIEWER may not launch maintenance")
			.doesNotContain("outcome-SUCCESS");
		String launched = this.mvc
			.perform(get("/audit").param("repo", repo)
				.param("action", "job.launch")
				.param("from", "2000-01-01T00:00")
				.with(operator()))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString();
		// the repository field offers the repositories as you type
		assertThat(launched).contains("<option value=\"" + repo + "\">");
		assertThat(launched).contains("href=\"" + job + "\"")
			.contains("href=\"/repo?name=" + repo + "\"")
			.contains("outcome-SUCCESS");
		this.mvc.perform(get("/audit").param("repo", repo).param("to", "2000-01-01T00:00").with(operator()))
			.andExpect(content().string(containsString("No entry matches.")));
	}

}
