package io.refstore.web.console.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.MvcResult;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.repo.DiscoveredRepositories;
import io.refstore.core.repo.DiscoveredRepositories.SkipReason;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.fleet.FleetMembership;
import io.refstore.web.jobs.JobPage;

/**
 * The dashboard over repositories made by git, as this node's inventory recorded them
 * ({@link FleetMembership#refreshInventory()}, which the node runs at start and every
 * minute): worst first (a store with enough loose refs for git's {@code pack-refs --auto}
 * before a packed one), its rows' counts per namespace and store statistics read live,
 * other orders, the search (as a page and as htmx's fragment), the filters, the pager's
 * text and links, the empty state, a refused order or format, and who may see it. Each
 * test selects its own repositories by a name only they contain, among the shared root's.
 */
class DashboardControllerTest extends ConsoleTestSupport {

	static String group;

	static String messy;

	static String tidy;

	@Autowired
	FleetMembership membership;

	@BeforeAll
	static void repositories() {
		group = uniqueName("dash-group");
		messy = group + "/a-messy.git";
		TempRepo loose = bareRepo(messy);
		String commit = loose.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 20; i++) {
			updates.append("create refs/heads/topic-").append(i).append(' ').append(commit).append('\n');
		}
		loose.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		tidy = group + "/b-tidy.git";
		TempRepo packed = bareRepo(tidy);
		String c = packed.commit("two", null);
		for (int i = 0; i < 30; i++) {
			packed.git("update-ref", "refs/tags/v" + i, c);
		}
		packed.git("pack-refs", "--all");
	}

	@BeforeEach
	void inventory() {
		this.membership.refreshInventory();
	}

	@Test
	void showsTheRepositoriesWorstFirstWithTheirStoresReadLive() throws Exception {
		MvcResult result = this.mvc.perform(get("/").param("q", group).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(DashboardController.VIEWS_REPO_LIST))
			.andExpect(model().attribute("sort", "worst"))
			.andExpect(content().string(containsString(messy)))
			.andReturn();
		List<DashboardRow> rows = rows(result);
		assertThat(rows).extracting(DashboardRow::name).containsExactly(messy, tidy);
		DashboardRow loose = rows.get(0);
		assertThat(loose.live().refCount()).isEqualTo(20);
		assertThat(loose.live().namespaces()).containsEntry("refs/heads", 20L);
		assertThat(loose.live().looseRefs()).isEqualTo(20);
		assertThat(loose.stored().looseRefs()).isEqualTo(20);
		assertThat(loose.due()).isTrue();
		DashboardRow packed = rows.get(1);
		assertThat(packed.live().packedRefs()).isEqualTo(30);
		assertThat(packed.live().looseRefs()).isZero();
		assertThat(packed.due()).isFalse();
		assertThat((Long) result.getModelAndView().getModel().get("dueCount")).isPositive();
		String html = result.getResponse().getContentAsString();
		assertThat(html).contains("id=\"page-position\">1–2 of 2<").doesNotContain("id=\"page-next\"");
	}

	@Test
	void theSearchIgnoresCaseAndAnswersHtmxWithTheResultsAlone() throws Exception {
		String fragment = this.mvc
			.perform(get("/").param("q", group.toUpperCase() + "/A-MESSY")
				.header("HX-Request", "true")
				.header("HX-Target", "dashboard-results")
				.with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(DashboardController.VIEWS_REPO_RESULTS))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(fragment).startsWith("<div id=\"dashboard-results\">")
			.contains("data-repo=\"" + messy + "\"")
			.doesNotContain("data-repo=\"" + tidy + "\"")
			.doesNotContain("<html")
			.contains("1–1 of 1");
	}

	@Test
	void filtersByMaintenanceAndFormat() throws Exception {
		assertThat(rows(this.mvc.perform(get("/").param("q", group).param("due", "true").with(viewer())).andReturn()))
			.extracting(DashboardRow::name)
			.containsExactly(messy);
		assertThat(rows(this.mvc.perform(get("/").param("q", group).param("due", "false").with(viewer())).andReturn()))
			.extracting(DashboardRow::name)
			.containsExactly(tidy);
		assertThat(
				rows(this.mvc.perform(get("/").param("q", group).param("format", "files").with(viewer())).andReturn()))
			.hasSize(2);
		this.mvc.perform(get("/").param("q", group).param("format", "reftable").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("No repository matches these filters.")))
			.andExpect(content().string(containsString("<a href=\"/\">Clear the filters</a>")));
		this.mvc.perform(get("/").param("format", "svn").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("parameter 'format'")));
	}

	@Test
	void pagesSayWhereTheyAreAndKeepTheFilters() throws Exception {
		String many = uniqueName("dash-many");
		for (int i = 0; i < 120; i++) {
			bareRepo(String.format("%s/r-%03d.git", many, i));
		}
		this.membership.refreshInventory();
		MvcResult first = this.mvc.perform(get("/").param("q", many).param("sort", "name").with(viewer()))
			.andExpect(status().isOk())
			.andReturn();
		assertThat(rows(first)).hasSize(50);
		assertThat(rows(first).get(0).name()).isEqualTo(many + "/r-000.git");
		String html = first.getResponse().getContentAsString();
		assertThat(html).contains("id=\"page-position\">1–50 of 120<")
			.contains("<span class=\"muted\">First</span>")
			.contains("href=\"/?q=" + many + "&amp;sort=name&amp;offset=50\" id=\"page-next\"")
			.contains("href=\"/?q=" + many + "&amp;sort=name&amp;offset=100\" id=\"page-last\"");
		MvcResult second = this.mvc
			.perform(get("/").param("q", many).param("sort", "name").param("offset", "50").with(viewer()))
			.andReturn();
		assertThat(rows(second).get(0).name()).isEqualTo(many + "/r-050.git");
		assertThat(second.getResponse().getContentAsString()).contains("id=\"page-position\">51–100 of 120<")
			.contains("href=\"/?q=" + many + "&amp;sort=name\" id=\"page-first\"");
		JobPage last = (JobPage) this.mvc
			.perform(get("/").param("q", many).param("sort", "name").param("offset", "100").with(viewer()))
			.andReturn()
			.getModelAndView()
			.getModel()
			.get("page");
		assertThat(last.text()).isEqualTo("101–120 of 120");
		assertThat(last.hasNext()).isFalse();
		this.mvc.perform(get("/").param("offset", "-1").with(viewer())).andExpect(status().isBadRequest());
	}

	@Test
	@SuppressWarnings("unchecked")
	void lastMaintenanceIsTheEndOfTheNewestCompletedMaintenanceOfEachRepository() throws Exception {
		String name = uniqueName("dash-maintained");
		TempRepo repo = bareRepo(name);
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		this.membership.refreshInventory();
		this.mvc.perform(get("/").param("q", name).with(viewer()))
			.andExpect(model().attribute("lastMaintenance",
					org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey(name))));
		Instant launched = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
		for (int i = 0; i < 2; i++) {
			String location = this.mvc
				.perform(post("/jobs/new/maintenance").param("repo", name)
					.param("force", "true")
					.with(operator())
					.with(SecurityMockMvcRequestPostProcessors.csrf()))
				.andExpect(status().is3xxRedirection())
				.andReturn()
				.getResponse()
				.getRedirectedUrl();
			awaitCompleted(Long.parseLong(location.substring(location.lastIndexOf('/') + 1)));
		}
		MvcResult result = this.mvc.perform(get("/").param("q", name).with(viewer()))
			.andExpect(status().isOk())
			.andReturn();
		Map<String, Instant> last = (Map<String, Instant>) result.getModelAndView().getModel().get("lastMaintenance");
		String newest = this.mvc
			.perform(get("/api/jobs").param("repository", name).param("size", "1").with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		LocalDateTime ended = LocalDateTime.parse(JsonPath.<String>read(newest, "$.jobs[0].ended"));
		assertThat(last).containsEntry(name, ended.atZone(ZoneId.systemDefault()).toInstant());
		assertThat(last.get(name)).isAfterOrEqualTo(launched.minusSeconds(1));
		String html = result.getResponse().getContentAsString();
		String row = html.substring(html.indexOf(">" + name + "</a>"));
		row = row.substring(0, row.indexOf("</tr>"));
		assertThat(row).contains(new io.refstore.web.console.ConsoleFormat().time(last.get(name)))
			.doesNotContain("none recorded");
	}

	private void awaitCompleted(long id) {
		String body = await("maintenance " + id + " to end").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.mvc.perform(get("/api/jobs/" + id).with(as("viewer")))
				.andReturn()
				.getResponse()
				.getContentAsString(), (now) -> !JsonPath.<Boolean>read(now, "$.running"));
		assertThat(JsonPath.<String>read(body, "$.status")).isEqualTo("COMPLETED");
	}

	/**
	 * A repository in GitLab's hashed layout is listed; one deeper than the default bound
	 * of 8 levels is not, and the dashboard says how many directories the inventory's
	 * walk skipped and why.
	 */
	@Test
	void findsHashedStorageAndSaysWhatTheWalkSkipped() throws Exception {
		String layouts = uniqueName("dash-layouts");
		String hash = "6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b";
		String hashed = layouts + "/@hashed/6b/86/" + hash + ".git";
		bareRepo(hashed);
		String deep = layouts + "/l2/l3/l4/l5/l6/l7/l8/l9/deep.git";
		bareRepo(deep);
		this.membership.refreshInventory();
		MvcResult result = this.mvc.perform(get("/").param("sort", "name").param("q", layouts).with(viewer()))
			.andExpect(status().isOk())
			.andReturn();
		assertThat(rows(result)).extracting(DashboardRow::name).containsExactly(hashed);
		DiscoveredRepositories walked = (DiscoveredRepositories) result.getModelAndView().getModel().get("walked");
		assertThat(walked.maxDepth()).isEqualTo(8);
		assertThat(walked.skipped().get(SkipReason.TOO_DEEP)).isPositive();
		String html = result.getResponse().getContentAsString();
		assertThat(html).contains(walked.describeSkipped())
			.containsPattern("\\d+ director(y|ies) skipped: [^<]*\\d+ deeper than 8 levels");
	}

	@Test
	void sortsByNameRefsOrSizeFromTheInventory() throws Exception {
		List<DashboardRow> byName = rows(this.mvc.perform(get("/").param("sort", "name").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(model().attribute("sort", "name"))
			.andReturn());
		assertThat(byName).extracting(DashboardRow::name).isSorted();
		List<DashboardRow> byRefs = rows(
				this.mvc.perform(get("/").param("sort", "refs").param("q", group).with(viewer())).andReturn());
		assertThat(byRefs).extracting(DashboardRow::name).containsExactly(tidy, messy);
		List<DashboardRow> bySize = rows(this.mvc.perform(get("/").param("sort", "size").with(viewer())).andReturn());
		assertThat(bySize).extracting((row) -> -row.stored().bytes()).isSorted();
	}

	@Test
	void anUnknownOrderIsABadRequestNamingTheParameter() throws Exception {
		this.mvc.perform(get("/").param("sort", "random").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(view().name("system/error"))
			.andExpect(model().attribute("explanation", containsString("parameter 'sort'")));
	}

	@Test
	void aViewerIsNotOfferedMaintainAllDue() throws Exception {
		this.mvc.perform(get("/").param("q", group).with(viewer()))
			.andExpect(content().string(not(containsString("maintain-due-button"))));
		this.mvc.perform(get("/").param("q", group).with(operator()))
			.andExpect(content().string(containsString("href=\"/maintain-due?q=" + group + "\"")))
			.andExpect(content().string(containsString("Maintain all due (1)…")));
	}

	@Test
	void anonymousUsersAreSentToTheLoginPage() throws Exception {
		this.mvc.perform(get("/")).andExpect(status().isFound()).andExpect(redirectedUrl("/login"));
	}

	@Test
	void aUserWithoutARoleIsRefusedByTheService() throws Exception {
		this.mvc.perform(get("/").with(SecurityMockMvcRequestPostProcessors.user("nobody").roles()))
			.andExpect(status().isForbidden());
	}

	@SuppressWarnings("unchecked")
	static List<DashboardRow> rows(MvcResult result) {
		return (List<DashboardRow>) result.getModelAndView().getModel().get("rows");
	}

}
