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
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.schedules.TypedParameters;

/**
 * The console's campaign pages, one test per handler, on the real application: the launch
 * form stores a campaign over the repositories it selects, with the job's parameters from
 * its typed fields; every refused field comes back on the form at once, the list and
 * detail pages show the progress, cancel cancels the pending repositories.
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

	/**
	 * A deletion campaign's form with four bad fields shows all four at once: each beside
	 * its field, and in the summary above the form, in words, never a class name; nothing
	 * is launched.
	 */
	@Test
	void aFormWithSeveralBadFieldsShowsEveryErrorAtOnce() throws Exception {
		int before = asViewer(() -> this.campaigns.list(1000)).size();
		String page = this.mvc
			.perform(post("/campaigns/new").with(admin())
				.with(csrf())
				.param("jobType", "DELETE")
				.param("parametersFor", "DELETE")
				.param("targetKind", "GLOB")
				.param("target", uniqueName("nothing-matches") + "-*.git")
				.param("concurrency", "99")
				.param("values[planOnly]", "true")
				.param("values[prefixes]", "refs/pull/")
				.param("values[chunkSize]", "0")
				.param("values[olderThan]", "someday"))
			.andExpect(status().isOk())
			.andExpect(view().name(CampaignController.VIEWS_CAMPAIGN_FORM))
			.andExpect(model().attributeHasFieldErrors("form", "target", "concurrency", "values[chunkSize]",
					"values[olderThan]"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(page).contains("id=\"error-summary\"")
			.contains("4 things stop this campaign from being launched:")
			.contains("Repository, glob or number of loose refs: selects no repository")
			.contains("Repositories at a time: must be a whole number from 1 to 64")
			.contains("Refs per chunk must be a whole number from 1 to 100,000")
			.contains("Tip older than: give an age such as 90d")
			.contains("href=\"#param-chunkSize\"")
			.contains("href=\"#concurrency\"")
			.contains("id=\"param-olderThan-error\"")
			.contains("value=\"refs/pull/\"")
			.doesNotContain("Exception")
			.doesNotContain("java.")
			.doesNotContain("key=value");
		// each message beside its field as well as in the summary
		assertThat(page.split("Refs per chunk must be a whole number", -1)).hasSize(3);
		assertThat(asViewer(() -> this.campaigns.list(1000))).hasSize(before);
	}

	/**
	 * The typed fields make the campaign's job parameters: a deletion's plan only, prefix
	 * and chunk size, a maintenance's force; a flag left at its default is left out. The
	 * fields of a job are served alone for htmx as the job changes.
	 */
	@Test
	void theTypedFieldsMakeTheCampaignsParameters() throws Exception {
		String stem = uniqueName("typed-campaign");
		bareRepo(stem + "-0.git");
		long deletion = launchedTyped(stem, "DELETE", "values[planOnly]", "true", "values[prefixes]", "refs/pull/",
				"values[chunkSize]", "500", "values[olderThan]", "");
		assertThat(asViewer(() -> this.campaigns.find(deletion)).orElseThrow().parameters())
			.containsExactlyInAnyOrderEntriesOf(
					Map.of("planOnly", "true", "prefixes", "refs/pull/", "chunkSize", "500"));
		long maintenance = launchedTyped(stem, "MAINTAIN", "values[force]", "true");
		assertThat(asViewer(() -> this.campaigns.find(maintenance)).orElseThrow().parameters())
			.containsExactlyEntriesOf(Map.of("force", "true"));
		long unforced = launchedTyped(stem, "MAINTAIN");
		assertThat(asViewer(() -> this.campaigns.find(unforced)).orElseThrow().parameters()).isEmpty();
		this.mvc.perform(get("/campaigns/new").with(operator()))
			.andExpect(content().string(containsString("id=\"param-force\"")))
			.andExpect(content().string(containsString("hx-get=\"/campaigns/parameters\"")))
			.andExpect(content().string(not(containsString("key=value"))));
		this.mvc.perform(get("/campaigns/parameters").param("jobType", "MIGRATE").with(admin()))
			.andExpect(view().name(TypedParameters.VIEWS_PARAMETERS))
			.andExpect(content().string(containsString("id=\"param-targetFormat\"")))
			.andExpect(content().string(containsString("from 1 to 1,000,000")))
			.andExpect(content().string(not(containsString("<html"))));
		this.mvc.perform(get("/campaigns/parameters").param("jobType", "VERIFY").with(operator()))
			.andExpect(content().string(containsString("This job takes no parameters.")));
	}

	/**
	 * An operator is offered only the jobs it may launch: no migration; a deletion that
	 * plans only. A deletion with plan only unticked is refused on that box, and a job
	 * changed without its fields being swapped (no htmx) shows the new job's fields to
	 * check; nothing is launched.
	 */
	@Test
	void anOperatorIsOfferedOnlyWhatItMayLaunch() throws Exception {
		String stem = uniqueName("operator-campaign");
		bareRepo(stem + "-0.git");
		int before = asViewer(() -> this.campaigns.list(1000)).size();
		this.mvc.perform(get("/campaigns/new").with(operator()))
			.andExpect(content().string(containsString("value=\"DELETE\"")))
			.andExpect(content().string(not(containsString("value=\"MIGRATE\""))));
		this.mvc.perform(get("/campaigns/new").with(admin()))
			.andExpect(content().string(containsString("value=\"MIGRATE\"")));
		this.mvc
			.perform(post("/campaigns/new").with(operator())
				.with(csrf())
				.param("jobType", "DELETE")
				.param("parametersFor", "DELETE")
				.param("targetKind", "GLOB")
				.param("target", stem + "-*.git")
				.param("values[prefixes]", "refs/pull/"))
			.andExpect(status().isOk())
			.andExpect(model().attributeHasFieldErrors("form", "values[planOnly]"))
			.andExpect(content().string(containsString("deleting refs needs the ADMIN role")));
		this.mvc
			.perform(post("/campaigns/new").with(operator())
				.with(csrf())
				.param("jobType", "DELETE")
				.param("parametersFor", "MAINTAIN")
				.param("targetKind", "GLOB")
				.param("target", stem + "-*.git")
				.param("values[force]", "true"))
			.andExpect(status().isOk())
			.andExpect(model().attributeHasFieldErrors("form", "jobType"))
			.andExpect(content().string(containsString("the fields of deletion are below now")))
			.andExpect(content().string(containsString("id=\"param-prefixes\"")));
		assertThat(asViewer(() -> this.campaigns.list(1000))).hasSize(before);
	}

	/**
	 * A campaign launched through the typed fields of {@code jobType} over
	 * {@code stem-*.git}.
	 */
	private long launchedTyped(String stem, String jobType, String... values) throws Exception {
		MockHttpServletRequestBuilder form = post("/campaigns/new").with(admin())
			.with(csrf())
			.param("jobType", jobType)
			.param("parametersFor", jobType)
			.param("targetKind", "GLOB")
			.param("target", stem + "-*.git")
			.param("concurrency", "1");
		for (int i = 0; i < values.length; i += 2) {
			form.param(values[i], values[i + 1]);
		}
		String location = this.mvc.perform(form)
			.andExpect(status().is3xxRedirection())
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		return Long.parseLong(location.substring("/campaigns/".length()));
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
