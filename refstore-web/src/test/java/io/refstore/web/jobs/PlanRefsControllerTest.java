package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.MvcResult;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.refs.PlanRefPage;
import io.refstore.web.refs.PlanRefRow;
import io.refstore.web.refs.PlanRefService;

/**
 * A deletion plan's whole list in the ref browser ({@code GET /repo/refs?name=&plan=}):
 * the plan's page links to it, a VIEWER pages through exactly the refs the plan selected
 * with the values {@code for-each-ref} gave when it was made, and each ref's value now is
 * {@code for-each-ref}'s after git moved one and deleted another, those two marked.
 */
class PlanRefsControllerTest extends JobConsoleTestSupport {

	@Test
	void aPlansRefsOpenInTheRefBrowserPagedWithTheirPlannedValuesAndGitsValuesNow() throws Exception {
		String name = uniqueName("plan-refs");
		TempRepo repo = repo(name, 150);
		Map<String, String> planned = values(repo);
		long plan = redirectedId(this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("prefixes", "refs/heads/b/")
				.with(operator())
				.with(csrf()))
			.andReturn());
		assertThat(awaitEnd(plan, "plan.count")).isEqualTo("COMPLETED");
		// after the plan, git moves one ref and deletes another
		String main = repo.git("rev-parse", "refs/heads/main").trim();
		repo.git("update-ref", "refs/heads/b/00003", repo.commit("two", main));
		repo.git("update-ref", "-d", "refs/heads/b/00120");
		Map<String, String> now = values(repo);
		assertThat(now).doesNotContainKey("refs/heads/b/00120");
		assertThat(now.get("refs/heads/b/00003")).isNotEqualTo(planned.get("refs/heads/b/00003"));

		this.mvc.perform(get("/jobs/" + plan).with(viewer()))
			.andExpect(content().string(containsString(
					"id=\"plan-browse\" href=\"/repo/refs?name=" + name + "&amp;plan=" + plan + "\">Open in the ref")));

		List<PlanRefRow> rows = new ArrayList<>();
		MvcResult first = page(name, plan, 1);
		PlanRefPage one = list(first);
		assertThat(one.page()).isEqualTo(1);
		assertThat(one.pages()).isEqualTo(2);
		assertThat(one.total()).isEqualTo(planned.size());
		assertThat(one.rows()).hasSize(PlanRefService.PAGE_SIZE);
		rows.addAll(one.rows());
		PlanRefPage two = list(page(name, plan, 2));
		assertThat(two.from()).isEqualTo(101);
		assertThat(two.to()).isEqualTo(150);
		rows.addAll(two.rows());
		assertThat(rows).extracting(PlanRefRow::name).containsExactlyElementsOf(planned.keySet());
		for (PlanRefRow row : rows) {
			assertThat(row.planned()).as(row.name()).isEqualTo(planned.get(row.name()));
			assertThat(row.current()).as(row.name()).isEqualTo(now.get(row.name()));
		}
		assertThat(rows).filteredOn(PlanRefRow::moved)
			.extracting(PlanRefRow::name)
			.containsExactly("refs/heads/b/00003");
		assertThat(rows).filteredOn(PlanRefRow::gone)
			.extracting(PlanRefRow::name)
			.containsExactly("refs/heads/b/00120");

		String html = first.getResponse().getContentAsString();
		assertThat(html).contains("1–100 of 150")
			.contains("Download all 150 as CSV")
			.containsPattern("(?s)data-ref=\"refs/heads/b/00003\"[^>]*>(?:(?!</tr>).)*moved since the plan")
			.contains("<strong id=\"moved-count\">1</strong>")
			.contains("<strong id=\"gone-count\">0</strong>");
		assertThat(page(name, plan, 2).getResponse().getContentAsString())
			.containsPattern("(?s)data-ref=\"refs/heads/b/00120\"[^>]*>(?:(?!</tr>).)*>gone</span>");
		// a page past the last shows the last
		assertThat(list(page(name, plan, 9)).page()).isEqualTo(2);
	}

	@Test
	void refusedParametersAreBadRequestsNamingThemAndARoleIsNeeded() throws Exception {
		String name = uniqueName("plan-refs-refused");
		repo(name, 3);
		long plan = redirectedId(this.mvc
			.perform(post("/jobs/new/deletion").param("repo", name)
				.param("prefixes", "refs/heads/b/")
				.with(operator())
				.with(csrf()))
			.andReturn());
		assertThat(awaitEnd(plan, "plan.count")).isEqualTo("COMPLETED");
		this.mvc.perform(get("/repo/refs").param("name", name).param("plan", Long.toString(plan)).with(viewer()))
			.andExpect(status().isOk());
		this.mvc
			.perform(get("/repo/refs").param("name", name)
				.param("plan", Long.toString(plan))
				.param("page", "0")
				.with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(content().string(containsString("page")));
		this.mvc.perform(get("/repo/refs").param("name", "other.git").param("plan", Long.toString(plan)).with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(content().string(containsString("of the repository " + name)));
		this.mvc.perform(get("/repo/refs").param("name", name).param("plan", "999999").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(content().string(containsString("plan")));
		this.mvc.perform(get("/repo/refs").param("name", name).param("plan", "x").with(viewer()))
			.andExpect(status().isBadRequest())
			.andExpect(content().string(containsString("plan")));
		this.mvc
			.perform(get("/repo/refs").param("name", name)
				.param("plan", Long.toString(plan))
				.with(SecurityMockMvcRequestPostProcessors.user("nobody").roles()))
			.andExpect(status().isForbidden());
	}

	private MvcResult page(String name, long plan, int page) throws Exception {
		return this.mvc
			.perform(get("/repo/refs").param("name", name)
				.param("plan", Long.toString(plan))
				.param("page", Integer.toString(page))
				.with(viewer()))
			.andExpect(status().isOk())
			.andReturn();
	}

	private static PlanRefPage list(MvcResult result) {
		return (PlanRefPage) result.getModelAndView().getModel().get("list");
	}

	/** The branches under {@code refs/heads/b/} and their values, as git lists them. */
	private static Map<String, String> values(TempRepo repo) {
		Map<String, String> values = new LinkedHashMap<>();
		for (String line : repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/b/")
			.lines()
			.toList()) {
			values.put(line.substring(0, line.indexOf(' ')), line.substring(line.indexOf(' ') + 1));
		}
		return values;
	}

}
