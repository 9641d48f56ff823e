package io.refstore.web.fleet;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The fleet dashboard: this node up with its storage, and a repository made by git listed
 * under its qualified name with its node, format and ref count, found by the path filter
 * and not by another format; the page's link opens the repository by that name.
 */
class FleetControllerTest extends ConsoleTestSupport {

	@Autowired
	FleetMembership membership;

	@Test
	void theDashboardListsTheNodesAndTheirRepositories() throws Exception {
		String name = uniqueName("console-fleet") + ".git";
		TempRepo repo = bareRepo(name);
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		this.membership.refreshInventory();

		String here = this.membership.node();
		this.mvc.perform(get("/fleet").param("q", name).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("data-node=\"" + here + "\" data-up=\"true\"")))
			.andExpect(content().string(containsString("<a href=\"/fleet?storage=default\">default</a>")))
			.andExpect(content().string(containsString("id=\"fleet-total\">1 repositories<")))
			.andExpect(content().string(containsString("data-name=\"default/" + name + "\" data-available=\"true\"")))
			.andExpect(content().string(containsString("href=\"/repo?name=default/" + name + "\"")));
		this.mvc.perform(get("/repo").param("name", "default/" + name).with(viewer())).andExpect(status().isOk());

		this.mvc.perform(get("/fleet").param("q", name).param("format", "reftable").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"fleet-total\">0 repositories<")))
			.andExpect(content().string(not(containsString("data-name=\"default/" + name))));
	}

}
