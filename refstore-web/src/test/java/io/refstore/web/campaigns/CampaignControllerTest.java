package io.refstore.web.campaigns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.refstore.web.console.ConsoleTestSupport;

/**
 * The console's campaign pages, one test per handler, on the real application: the launch
 * form stores a campaign over the repositories it selects, a refused field comes back on
 * the form, the list and detail pages show the progress, cancel cancels the pending
 * repositories.
 */
class CampaignControllerTest extends ConsoleTestSupport {

	@Autowired
	CampaignService campaigns;

	private long launched(String stem, String jobType, int repos) throws Exception {
		for (int i = 0; i < repos; i++) {
			bareRepo(stem + "-" + i + ".git");
		}
		String location = this.mvc
			.perform(post("/campaigns/new").with(operator())
				.with(csrf())
				.param("jobType", jobType)
				.param("targetKind", "GLOB")
				.param("target", stem + "-*.git")
				.param("concurrency", "1"))
			.andExpect(status().is3xxRedirection())
			.andExpect(flash().attribute("message", containsString("launched over " + repos + " repositories")))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		return Long.parseLong(location.substring("/campaigns/".length()));
	}

	@Test
	void launchFormStartsWithDefaults() throws Exception {
		this.mvc.perform(get("/campaigns/new").with(operator()))
			.andExpect(status().isOk())
			.andExpect(view().name(CampaignController.VIEWS_CAMPAIGN_FORM))
			.andExpect(model().attributeExists("form", "jobTypes"));
	}

	@Test
	void launchingStoresTheCampaignOverTheSelectedRepositories() throws Exception {
		String stem = uniqueName("console-launch");
		long id = launched(stem, "VERIFY", 3);
		Campaign campaign = asViewer(() -> this.campaigns.find(id).orElseThrow());
		assertThat(campaign.createdBy()).isEqualTo("operator");
		assertThat(campaign.concurrency()).isEqualTo(1);
		assertThat(asViewer(() -> this.campaigns.targets(id))).extracting(CampaignTarget::repository)
			.isEqualTo(List.of(stem + "-0.git", stem + "-1.git", stem + "-2.git"));
	}

	@Test
	void aRefusedFieldComesBackOnTheForm() throws Exception {
		this.mvc
			.perform(post("/campaigns/new").with(operator())
				.with(csrf())
				.param("jobType", "VERIFY")
				.param("targetKind", "GLOB")
				.param("target", "nothing-matches-*.git")
				.param("concurrency", "2"))
			.andExpect(status().isOk())
			.andExpect(view().name(CampaignController.VIEWS_CAMPAIGN_FORM))
			.andExpect(model().attributeHasFieldErrors("form", "target"));
	}

	@Test
	void listShowsCampaignsWithTheirProgress() throws Exception {
		long id = launched(uniqueName("console-list"), "VERIFY", 2);
		this.mvc.perform(get("/campaigns").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(CampaignController.VIEWS_CAMPAIGN_LIST))
			.andExpect(content().string(containsString("id=\"campaign-" + id + "\"")))
			.andExpect(content().string(containsString("of 2 repositories")));
	}

	@Test
	void detailsShowEveryRepositoryAndUnknownIdsAreNotFound() throws Exception {
		String stem = uniqueName("console-details");
		long id = launched(stem, "VERIFY", 2);
		this.mvc.perform(get("/campaigns/" + id).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(CampaignController.VIEWS_CAMPAIGN_DETAILS))
			.andExpect(model().attributeExists("campaign", "targets"))
			.andExpect(content().string(containsString(stem + "-1.git")));
		this.mvc.perform(get("/campaigns/987654").with(viewer())).andExpect(status().isNotFound());
	}

	@Test
	void cancelCancelsThePendingRepositories() throws Exception {
		long id = launched(uniqueName("console-cancel"), "VERIFY", 4);
		this.mvc.perform(post("/campaigns/" + id + "/cancel").with(operator()).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(flash().attribute("message", containsString("Campaign " + id + " cancelled")));
		assertThat(asViewer(() -> this.campaigns.find(id).orElseThrow()).cancelRequested()).isTrue();
	}

	@Test
	void viewersCannotLaunch() throws Exception {
		this.mvc
			.perform(post("/campaigns/new").with(viewer()).with(csrf()).param("jobType", "VERIFY").param("target", "*"))
			.andExpect(status().isForbidden());
	}

	@Test
	void viewersSeeCampaignsWithoutTheActionsTheyCannotUse() throws Exception {
		long id = launched(uniqueName("console-viewer"), "VERIFY", 2);
		this.mvc.perform(get("/campaigns").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("id=\"campaign-" + id + "\"")))
			.andExpect(content().string(not(containsString("id=\"new-campaign\""))));
		this.mvc.perform(get("/campaigns/new").with(viewer())).andExpect(status().isForbidden());
		this.mvc.perform(get("/campaigns/" + id).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(not(containsString("/cancel"))));
		this.mvc.perform(get("/campaigns").with(operator()))
			.andExpect(content().string(containsString("id=\"new-campaign\"")));
	}

	@Test
	void theProgressPartIsServedAloneForPolling() throws Exception {
		String stem = uniqueName("console-progress");
		long id = launched(stem, "VERIFY", 2);
		this.mvc.perform(get("/campaigns/" + id + "/progress").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(CampaignController.VIEWS_CAMPAIGN_PROGRESS))
			.andExpect(content().string(containsString("id=\"progress\"")))
			.andExpect(content().string(containsString(stem + "-1.git")))
			.andExpect(content().string(not(containsString("<header"))));
	}

}
