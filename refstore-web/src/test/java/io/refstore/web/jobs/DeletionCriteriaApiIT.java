package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Deletion plans by criteria through the API, judged by git: branches merged into HEAD's
 * branch and dated before a day are what {@code for-each-ref --merged} and
 * {@code %(creatordate)} say, the results count each criterion and say why the sampled
 * refs were selected; the plan executes and the deleted refs are exactly those. A
 * criterion that is not well formed, or a branch that does not exist, is a 400 naming it
 * and launches nothing.
 */
class DeletionCriteriaApiIT extends JobApiTestSupport {

	@Test
	void aPlanByCriteriaSelectsWhatGitSaysAndExecutes() throws Exception {
		String name = uniqueName("criteria");
		TempRepo repo = bareRepo(name);
		GitCli at = GitCli.system();
		String base = repo.with(at.withEnv("GIT_COMMITTER_DATE", "@1500000000 +0000")).commit("base", null);
		String old = repo.with(at.withEnv("GIT_COMMITTER_DATE", "@1500100000 +0000")).commit("old", base);
		String recent = repo.with(at.withEnv("GIT_COMMITTER_DATE", "@1700000000 +0000")).commit("recent", old);
		String unmerged = repo.with(at.withEnv("GIT_COMMITTER_DATE", "@1500200000 +0000")).commit("side", base);
		repo.git("update-ref", "refs/heads/main", recent);
		repo.git("update-ref", "refs/heads/merged-old", old);
		repo.git("update-ref", "refs/heads/merged-base", base);
		repo.git("update-ref", "refs/heads/merged-recent", recent);
		repo.git("update-ref", "refs/heads/unmerged-old", unmerged);
		repo.git("update-ref", "refs/tags/v1", old);
		List<String> expected = new ArrayList<>();
		List<String> merged = repo.git("for-each-ref", "--merged", "main", "--format=%(refname)", "refs/heads/")
			.lines()
			.toList();
		repo.git("for-each-ref", "--format=%(creatordate:unix) %(refname)", "refs/heads/").lines().forEach((line) -> {
			String[] fields = line.split(" ");
			if (Long.parseLong(fields[0]) < 1_600_000_000L && merged.contains(fields[1])) {
				expected.add(fields[1]);
			}
		});
		assertThat(expected).containsExactly("refs/heads/merged-base", "refs/heads/merged-old");

		long plan = id(this.mvc
			.perform(postJson("/api/jobs/deletion-plans",
					"""
							{"repository": "%s", "namespaces": ["refs/heads/"], "mergedInto": "HEAD", "olderThan": "2020-09-13"}"""
						.formatted(name))
				.with(as("operator")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		DocumentContext planned = awaitResult(plan, "plan.criteria");
		assertThat(planned.read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(planned.read("$.results['plan.count']", String.class)).isEqualTo("2");
		assertThat(planned.read("$.results['plan.sample']", String.class)).isEqualTo(String.join("\n", expected));
		assertThat(planned.read("$.results['plan.criteria']", String.class)).isEqualTo("""
				4 picked by names, prefixes, globs or namespaces
				3 merged into refs/heads/main (%s)
				3 dated before 2020-09-13 00:00:00 UTC""".formatted(recent.substring(0, 12)));
		assertThat(planned.read("$.results['plan.reasons']", String.class)).isEqualTo("""
				merged into refs/heads/main; committed 2017-07-14 02:40:00 UTC
				merged into refs/heads/main; committed 2017-07-15 06:26:40 UTC""");

		long deletion = id(this.mvc
			.perform(postJson("/api/jobs/deletions", """
					{"plan": %d, "confirmRepository": "%s", "confirmCount": "2"}""".formatted(plan, name))
				.with(as("admin")))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString());
		assertThat(awaitEnd(deletion).read("$.status", String.class)).isEqualTo("COMPLETED");
		assertThat(repo.git("for-each-ref", "--format=%(refname)").lines()).containsExactly("refs/heads/main",
				"refs/heads/merged-recent", "refs/heads/unmerged-old", "refs/tags/v1");
	}

	@Test
	void aBadCriterionIsRefusedNamingIt() throws Exception {
		String name = uniqueName("criteria-bad");
		repoWithBranches(name, 2);
		String[][] cases = { { "\"mergedInto\": \"nothing\"", "mergedInto", "no such branch" },
				{ "\"olderThan\": \"ninety days\"", "olderThan", "90d" },
				{ "\"notUpdatedSince\": \"2999-01-01\"", "notUpdatedSince", "in the future" },
				{ "\"namespaces\": [\"heads\"]", "namespaces", "refs/heads/" },
				{ "\"mergedInto\": \"a b\"", "mergedInto", "one branch" } };
		for (String[] bad : cases) {
			this.mvc
				.perform(postJson("/api/jobs/deletion-plans", """
						{"repository": "%s", "prefixes": ["refs/heads/b/"], %s}""".formatted(name, bad[0]))
					.with(as("operator")))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")))
				.andExpect(jsonPath("$.parameter").value(bad[1]))
				.andExpect(jsonPath("$.detail").value(containsString(bad[2])));
		}
	}

}
