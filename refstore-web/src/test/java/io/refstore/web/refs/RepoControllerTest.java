package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.model;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.view;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MvcResult;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.repos.RepoHealth;

/**
 * The repository page over a repository made by git: keyset pages that together hold
 * every ref once and in git's order, prefix and glob search, the namespace chart's
 * figures, the role-dependent job links, and the error pages for a missing repository, a
 * refused name and refused parameters.
 */
class RepoControllerTest extends ConsoleTestSupport {

	static String name;

	static List<String> expected;

	@BeforeAll
	static void repository() {
		name = uniqueName("browse");
		TempRepo repo = bareRepo(name);
		String commit = repo.commit("one", null);
		StringBuilder updates = new StringBuilder();
		for (int i = 0; i < 120; i++) {
			updates.append("create refs/heads/topic-")
				.append(String.format("%03d", i))
				.append(' ')
				.append(commit)
				.append('\n');
		}
		for (int i = 0; i < 15; i++) {
			updates.append("create refs/tags/v1.").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(updates.toString().getBytes(), "update-ref", "--stdin").requireOk();
		repo.git("pack-refs", "--all");
		expected = List.of(repo.git("for-each-ref", "--format=%(refname)").split("\n"));
	}

	@Test
	void pagesThroughEveryRefOnceInGitsOrder() throws Exception {
		List<String> seen = new ArrayList<>();
		String after = "";
		int pages = 0;
		do {
			MvcResult result = this.mvc
				.perform(get("/repo").param("name", name).param("limit", "50").param("after", after).with(viewer()))
				.andExpect(status().isOk())
				.andExpect(view().name(RepoController.VIEWS_REPO_DETAILS))
				.andReturn();
			RefPage page = (RefPage) result.getModelAndView().getModel().get("page");
			assertThat(page.refs()).hasSizeLessThanOrEqualTo(50);
			page.refs().stream().map(RefView::ref).forEach(seen::add);
			after = page.next();
			pages++;
		}
		while (after != null);
		assertThat(seen).isEqualTo(expected);
		assertThat(pages).isEqualTo(3);
	}

	@Test
	void searchesByPrefixAndByGlob() throws Exception {
		RefPage byPrefix = page(
				this.mvc.perform(get("/repo").param("name", name).param("prefix", "refs/tags/").with(viewer()))
					.andExpect(status().isOk())
					.andReturn());
		assertThat(byPrefix.refs()).hasSize(15).allSatisfy((ref) -> assertThat(ref.ref()).startsWith("refs/tags/"));
		RefPage byGlob = page(
				this.mvc.perform(get("/repo").param("name", name).param("glob", "refs/tags/v1.1*").with(viewer()))
					.andExpect(status().isOk())
					.andReturn());
		assertThat(byGlob.refs()).extracting(RefView::ref)
			.containsExactly("refs/tags/v1.1", "refs/tags/v1.10", "refs/tags/v1.11", "refs/tags/v1.12",
					"refs/tags/v1.13", "refs/tags/v1.14");
		assertThat(byGlob.next()).isNull();
		RefPage both = page(this.mvc
			.perform(get("/repo").param("name", name)
				.param("prefix", "refs/heads/")
				.param("glob", "refs/heads/*-11?")
				.with(viewer()))
			.andExpect(status().isOk())
			.andReturn());
		assertThat(both.refs()).hasSize(10);
		assertThat(both.refs().get(0).object().type()).isEqualTo("commit");
	}

	@Test
	void loadsTheHealthSeparatelyFromThePageOfRefs() throws Exception {
		this.mvc.perform(get("/repo").param("name", name).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(model().attributeDoesNotExist("repo", "chartLabels"))
			.andExpect(content().string(containsString("hx-get=\"/repo/health?name=" + name + "\"")))
			.andExpect(content().string(containsString("refs/heads/topic-000")))
			.andExpect(content().string(containsString("rel=\"next\"")));
	}

	@Test
	void showsTheNamespaceFiguresAndHealth() throws Exception {
		MvcResult result = this.mvc.perform(get("/repo/health").param("name", name).with(viewer()))
			.andExpect(status().isOk())
			.andExpect(view().name(RepoController.VIEWS_REPO_HEALTH))
			.andExpect(model().attribute("chartLabels", List.of("refs/heads", "refs/tags")))
			.andExpect(model().attribute("chartValues", List.of(120L, 15L)))
			.andExpect(content().string(containsString("id=\"namespace-chart\"")))
			.andExpect(content().string(not(containsString("<html"))))
			.andReturn();
		RepoHealth health = (RepoHealth) result.getModelAndView().getModel().get("repo");
		assertThat(health.summary().refCount()).isEqualTo(135);
		assertThat(health.statistics().packedRefs()).isEqualTo(135);
		assertThat(health.statistics().looseRefs()).isZero();
		this.mvc.perform(get("/repo/health").param("name", "no-such-repo").with(viewer()))
			.andExpect(status().isNotFound());
	}

	@Test
	void offersJobsOnlyToOperatorsAndRestoreOnlyToAdmins() throws Exception {
		this.mvc.perform(get("/repo").param("name", name).with(viewer()))
			.andExpect(content().string(not(containsString("repo-actions"))));
		// a real migration needs ADMIN: an operator is offered the dry run alone
		this.mvc.perform(get("/repo").param("name", name).with(operator()))
			.andExpect(content().string(containsString("Dry run a migration…")))
			.andExpect(content().string(not(containsString(">Migrate…"))))
			.andExpect(content().string(not(containsString("Restore…"))));
		this.mvc.perform(get("/repo").param("name", name).with(admin()))
			.andExpect(content().string(containsString(">Migrate…")))
			.andExpect(content().string(containsString("Restore…")));
	}

	@Test
	void aMissingRepositoryIsNotFound() throws Exception {
		this.mvc.perform(get("/repo").param("name", "no-such-repo").with(viewer()))
			.andExpect(status().isNotFound())
			.andExpect(view().name("system/error"))
			.andExpect(model().attribute("explanation", containsString("no-such-repo")));
	}

	@Test
	void refusedNamesAndParametersAreBadRequestsNamingTheCulprit() throws Exception {
		this.mvc.perform(get("/repo").param("name", "../etc").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("'..'")));
		this.mvc.perform(get("/repo").param("name", name).param("limit", "7").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("parameter 'limit'")));
		this.mvc.perform(get("/repo").param("name", name).param("glob", "refs/[ab").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("parameter 'glob'")));
		this.mvc.perform(get("/repo").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(model().attribute("explanation", containsString("'name'")));
	}

	private static RefPage page(MvcResult result) {
		return (RefPage) result.getModelAndView().getModel().get("page");
	}

}
