package io.refstore.web.console.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
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
import org.junit.jupiter.api.Test;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.MvcResult;

import com.jayway.jsonpath.JsonPath;

import io.refstore.core.repo.DiscoveredRepositories;
import io.refstore.core.repo.DiscoveredRepositories.SkipReason;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.repos.RepoHealth;

/**
 * The dashboard over repositories made by git: counts per namespace and store statistics
 * as core reads them, worst first (a store with enough loose refs for git's
 * {@code pack-refs --auto} before a packed one), other orders, a refused order, and who
 * may see it.
 */
class DashboardControllerTest extends ConsoleTestSupport {

	static String messy;

	static String tidy;

	@BeforeAll
	static void repositories() {
		messy = uniqueName("dash-a-messy");
		TempRepo loose = bareRepo(messy);
		String commit = loose.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 20; i++) {
			updates.append("create refs/heads/topic-").append(i).append(' ').append(commit).append('\n');
		}
		loose.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		tidy = uniqueName("dash-b-tidy");
		TempRepo packed = bareRepo(tidy);
		String c = packed.commit("two", null);
		for (int i = 0; i < 30; i++) {
			packed.git("update-ref", "refs/tags/v" + i, c);
		}
		packed.git("pack-refs", "--all");
	}

	@Test
	void showsEveryRepositoryWorstFirst() throws Exception {
		MvcResult result = this.mvc.perform(get("/").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(DashboardController.VIEWS_REPO_LIST))
			.andExpect(model().attribute("sort", "worst"))
			.andExpect(content().string(containsString(messy)))
			.andReturn();
		List<RepoHealth> repos = repos(result);
		RepoHealth loose = find(repos, messy);
		RepoHealth packed = find(repos, tidy);
		assertThat(loose.summary().refCount()).isEqualTo(20);
		assertThat(loose.summary().namespaces()).containsEntry("refs/heads", 20L);
		assertThat(loose.statistics().looseRefs()).isEqualTo(20);
		assertThat(loose.statistics().maintenanceDue()).isTrue();
		assertThat(packed.statistics().packedRefs()).isEqualTo(30);
		assertThat(packed.statistics().looseRefs()).isZero();
		assertThat(packed.statistics().maintenanceDue()).isFalse();
		assertThat(repos.indexOf(loose)).isLessThan(repos.indexOf(packed));
		assertThat(repos.get(0).statistics().maintenanceDue()).isTrue();
		assertThat((Long) result.getModelAndView().getModel().get("dueCount")).isPositive();
	}

	@Test
	@SuppressWarnings("unchecked")
	void lastMaintenanceIsTheEndOfTheNewestCompletedMaintenanceOfEachRepository() throws Exception {
		String name = uniqueName("dash-maintained");
		TempRepo repo = bareRepo(name);
		repo.git("update-ref", "refs/heads/main", repo.commit("one", null));
		this.mvc.perform(get("/").with(viewer()))
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
		MvcResult result = this.mvc.perform(get("/").with(viewer())).andExpect(status().isOk()).andReturn();
		Map<String, Instant> last = (Map<String, Instant>) result.getModelAndView().getModel().get("lastMaintenance");
		String newest = this.mvc
			.perform(get("/api/jobs").param("repository", name).param("size", "1").with(as("viewer")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		LocalDateTime ended = LocalDateTime.parse(JsonPath.<String>read(newest, "$.jobs[0].ended"));
		assertThat(last).containsEntry(name, ended.atZone(ZoneId.systemDefault()).toInstant());
		assertThat(last.get(name)).isAfterOrEqualTo(launched.minusSeconds(1));
		assertThat(last).doesNotContainKey(tidy);
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
	 * of 8 levels is not, and the dashboard says how many directories were skipped and
	 * why.
	 */
	@Test
	void findsHashedStorageAndSaysWhatTheWalkSkipped() throws Exception {
		String group = uniqueName("dash-layouts");
		String hash = "6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b";
		String hashed = group + "/@hashed/6b/86/" + hash + ".git";
		bareRepo(hashed);
		String deep = group + "/l2/l3/l4/l5/l6/l7/l8/l9/deep.git";
		bareRepo(deep);
		MvcResult result = this.mvc.perform(get("/").param("sort", "name").with(viewer()))
			.andExpect(status().isOk())
			.andReturn();
		assertThat(repos(result)).extracting(RepoHealth::name).contains(hashed).doesNotContain(deep);
		DiscoveredRepositories discovered = (DiscoveredRepositories) result.getModelAndView()
			.getModel()
			.get("discovered");
		assertThat(discovered.maxDepth()).isEqualTo(8);
		assertThat(discovered.skipped().get(SkipReason.TOO_DEEP)).isPositive();
		String html = result.getResponse().getContentAsString();
		assertThat(html).contains(discovered.describeSkipped())
			.containsPattern("\\d+ director(y|ies) skipped: [^<]*\\d+ deeper than 8 levels");
	}

	@Test
	void sortsByNameRefsOrSize() throws Exception {
		List<RepoHealth> byName = repos(this.mvc.perform(get("/").param("sort", "name").with(viewer()))
			.andExpect(status().isOk())
			.andExpect(model().attribute("sort", "name"))
			.andReturn());
		assertThat(byName).extracting(RepoHealth::name).isSorted();
		List<RepoHealth> byRefs = repos(this.mvc.perform(get("/").param("sort", "refs").with(viewer())).andReturn());
		assertThat(byRefs).extracting((repo) -> -repo.summary().refCount()).isSorted();
		List<RepoHealth> bySize = repos(this.mvc.perform(get("/").param("sort", "size").with(viewer())).andReturn());
		assertThat(bySize).extracting((repo) -> -repo.statistics().bytes()).isSorted();
	}

	@Test
	void anUnknownOrderIsABadRequestNamingTheParameter() throws Exception {
		this.mvc.perform(get("/").param("sort", "random").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(view().name("system/error"))
			.andExpect(model().attribute("explanation", containsString("parameter 'sort'")));
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
	static List<RepoHealth> repos(MvcResult result) {
		return (List<RepoHealth>) result.getModelAndView().getModel().get("repos");
	}

	static RepoHealth find(List<RepoHealth> repos, String name) {
		return repos.stream()
			.filter((repo) -> repo.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError(name + " is not on the dashboard"));
	}

}
