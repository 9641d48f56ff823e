package io.refstore.web.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The fleet dashboard: this node up with its storage, and a repository made by git listed
 * with its node, format and ref count, found by the path filter and not by another
 * format. With one storage in the fleet it is named by its path, as the dashboard names
 * it, and a job launched by its qualified name is recorded by that one name too.
 */
class FleetControllerTest extends ConsoleTestSupport {

	@Autowired
	FleetMembership membership;

	@Autowired
	FleetJobs jobs;

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
			.andExpect(content().string(containsString("id=\"fleet-total\">1 repository<")))
			.andExpect(content().string(containsString("data-name=\"default/" + name + "\" data-available=\"true\"")))
			.andExpect(content().string(containsString("href=\"/repo?name=" + name + "\">" + name + "</a>")))
			.andExpect(content().string(not(containsString(">default/" + name + "<"))));
		this.mvc.perform(get("/repo").param("name", "default/" + name).with(viewer())).andExpect(status().isOk());
		assertThat(this.jobs.onlyStorage()).isEqualTo("default");
		assertThat(this.jobs.canonical("default/" + name)).isEqualTo(name);
		assertThat(this.jobs.canonical(name)).isEqualTo(name);
		assertThat(this.jobs.canonical("elsewhere/" + name)).isEqualTo("elsewhere/" + name);
		JobSummary launched = asOperator(() -> this.jobs.launch(RefJobType.INVENTORY,
				Map.of(JobParameterNames.REPOSITORY, "default/" + name), "operator"));
		assertThat(launched.repository()).isEqualTo(name);

		this.mvc.perform(get("/fleet").param("q", name).param("format", "reftable").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"fleet-total\">0 repositories<")))
			.andExpect(content().string(not(containsString("data-name=\"default/" + name))));
	}

}
