package io.refstore.web.console.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import org.junit.jupiter.api.Test;

import io.refstore.web.console.ConsoleTestSupport;

/**
 * The audit page shows what the API's writes recorded (a real ref deletion through the
 * API, refused here for want of the object, still audited), filtered by user; a viewer is
 * refused.
 */
class AuditControllerTest extends ConsoleTestSupport {

	@Test
	void operatorsSeeTheLogFilteredByUser() throws Exception {
		this.mvc.perform(get("/audit").param("actor", "nobody-wrote-this").with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(AuditController.VIEWS_AUDIT_LIST))
			.andExpect(model().attributeExists("page", "filter"))
			.andExpect(content().string(containsString("No entry matches.")));
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
