package io.refstore.web.branches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrlPattern;

import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MvcResult;

import io.refstore.core.testing.TempRepo;
import io.refstore.web.console.ConsoleTestSupport;
import io.refstore.web.refs.BranchList;
import io.refstore.web.refs.BranchRow;

/**
 * The Branches view with a protection of its own
 * ({@code refstore.deletion.protected-refs} = {@code HEAD} and
 * {@code refs/heads/release/**}): a release branch says which pattern protects it, has no
 * checkbox and no Delete, a forged delete of it changes nothing, and "Delete merged
 * branches" counts without it exactly what its plan then takes, the plan reporting it
 * kept by that pattern. Judged by git.
 */
@TestPropertySource(properties = "refstore.deletion.protected-refs=HEAD,refs/heads/release/**")
class BranchesProtectionTest extends ConsoleTestSupport {

	@Test
	void aProtectedBranchIsShownKeptAndTheMergedPlanLeavesItAsTheViewSaid() throws Exception {
		String name = uniqueName("protected-branches");
		TempRepo repo = bareRepo(name);
		String base = repo.commit("base", null);
		String main = repo.commit("main", base);
		for (String branch : List.of("main", "release/1.0", "done/a", "done/b")) {
			repo.git("update-ref", "refs/heads/" + branch, branch.equals("main") ? main : base);
		}
		repo.git("update-ref", "refs/heads/wip", repo.commit("wip", main));
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");

		MvcResult result = this.mvc
			.perform(get("/repo/branches").param("name", name).param("sort", "name").with(admin()))
			.andReturn();
		BranchRow release = ((BranchList) result.getModelAndView().getModel().get("list")).rows()
			.stream()
			.filter((row) -> row.name().equals("refs/heads/release/1.0"))
			.findFirst()
			.orElseThrow();
		assertThat(release.protectedBy()).isEqualTo("refs/heads/release/**");
		assertThat(release.deletable()).isFalse();
		String html = result.getResponse().getContentAsString();
		assertThat(html).contains("Protected by refs/heads/release/** (refstore.deletion.protected-refs).")
			.doesNotContain("value=\"refs/heads/release/1.0\"")
			.doesNotContain("branch=refs/heads/release/1.0\"")
			.contains("Delete merged branches (2)…");
		this.mvc
			.perform(get("/repo/branches/delete").param("name", name)
				.param("branch", "refs/heads/release/1.0")
				.with(admin()))
			.andExpect(content().string(containsString("id=\"delete-refused\"")))
			.andExpect(content().string(not(containsString("id=\"delete-branch\""))));
		this.mvc
			.perform(post("/repo/branches/delete").param("name", name)
				.param("branch", "refs/heads/release/1.0")
				.param("expected", base)
				.with(admin())
				.with(csrf()))
			.andExpect(flash().attribute("problem", containsString("protected by refs/heads/release/**")));
		assertThat(repo.git("rev-parse", "refs/heads/release/1.0").trim()).isEqualTo(base);

		List<String> merged = repo.git("branch", "--merged", "main", "--format=%(refname)")
			.lines()
			.filter((ref) -> !ref.equals("refs/heads/main") && !ref.startsWith("refs/heads/release/"))
			.toList();
		assertThat(merged).containsExactly("refs/heads/done/a", "refs/heads/done/b");
		String before = repo.git("for-each-ref");
		String planned = this.mvc
			.perform(post("/repo/branches/merged").param("name", name).with(operator()).with(csrf()))
			.andExpect(redirectedUrlPattern("/jobs/*"))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		DocumentContext plan = awaitJob(planned.substring(planned.lastIndexOf('/') + 1));
		assertThat(plan.read("$.results['plan.count']", String.class)).isEqualTo("2");
		assertThat(plan.read("$.results['plan.sample']", String.class).lines()).containsExactlyElementsOf(merged);
		assertThat(plan.read("$.results['plan.protected.byPattern']", String.class))
			.isEqualTo("1 HEAD\n1 refs/heads/release/**");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

	private DocumentContext awaitJob(String id) throws Exception {
		Awaitility.await("job " + id).atMost(Duration.ofSeconds(60)).until(() -> {
			String status = JsonPath.parse(job(id)).read("$.status", String.class);
			return !status.equals("STARTING") && !status.equals("STARTED");
		});
		return JsonPath.parse(job(id));
	}

	private String job(String id) throws Exception {
		return this.mvc.perform(get("/api/jobs/" + id).with(as("operator")))
			.andReturn()
			.getResponse()
			.getContentAsString();
	}

}
