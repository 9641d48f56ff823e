package io.refstore.web.console.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.MvcResult;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;

/**
 * The dashboard over repositories made by git: counts per namespace and store statistics as core reads them,
 * worst first (a store with enough loose refs for git's {@code pack-refs --auto} before a packed one), other
 * orders, a refused order, and who may see it.
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
