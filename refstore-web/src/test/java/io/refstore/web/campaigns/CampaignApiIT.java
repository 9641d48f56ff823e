package io.refstore.web.campaigns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * {@code /api/campaigns} on the real application (H2, real jobs on repositories made by
 * git): a maintenance campaign that never runs more jobs than its concurrency and packs
 * every repository as git sees it, a busy repository skipped, refused fields named,
 * roles, cancel.
 */
class CampaignApiIT extends ApiTestSupport {

	@Autowired
	CampaignStore store;

	@Autowired
	RefJobs jobs;

	private ResultActions create(String user, String json) throws Exception {
		return this.mvc
			.perform(post("/api/campaigns").with(as(user)).contentType(MediaType.APPLICATION_JSON).content(json));
	}

	/** A bare repository with {@code refs} loose branches, made by git. */
	static TempRepo repoWithLooseRefs(String name, int refs) {
		TempRepo git = bareRepo(name);
		String commit = git.commit("base", null);
		for (int i = 0; i < refs; i++) {
			git.git("update-ref", "refs/heads/b" + i, commit);
		}
		return git;
	}

	private long idOf(ResultActions created) throws Exception {
		String location = created.andReturn().getResponse().getHeader("Location");
		return Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
	}

	private Campaign awaitEnd(long id) {
		return await("campaign " + id + " to end").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> this.store.find(id).orElseThrow(), (campaign) -> campaign.state() != Campaign.State.RUNNING);
	}

	@Test
	void aMaintenanceCampaignRunsAtMostItsConcurrencyAndPacksEveryRepository() throws Exception {
		String stem = uniqueName("fleet");
		List<TempRepo> repos = new ArrayList<>();
		Map<TempRepo, String> before = new LinkedHashMap<>();
		for (int i = 0; i < 5; i++) {
			TempRepo git = repoWithLooseRefs(stem + "-" + i + ".git", 20);
			repos.add(git);
			before.put(git, git.git("for-each-ref"));
		}
		bareRepo(uniqueName("outside") + ".git");
		long id = idOf(create("operator",
				"""
						{"jobType":"maintain","targetKind":"GLOB","target":"%s-*.git","concurrency":2,"parameters":{"force":"true"}}"""
					.formatted(stem))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.concurrency").value(2))
			.andExpect(jsonPath("$.counts.PENDING").value(5)));

		Campaign ended = awaitEnd(id);
		assertThat(ended.state()).isEqualTo(Campaign.State.FINISHED);
		List<CampaignTarget> targets = this.store.targets(id);
		assertThat(targets).extracting(CampaignTarget::state).containsOnly(CampaignTarget.State.DONE);
		assertThat(targets).extracting(CampaignTarget::repository).allMatch((name) -> name.startsWith(stem));
		List<JobSummary> executions = targets.stream()
			.map((t) -> this.jobs.find(t.executionId()).orElseThrow())
			.toList();
		assertThat(executions).allMatch((job) -> job.actor().equals("campaign:" + id))
			.allMatch((job) -> job.type() == RefJobType.MAINTAIN);
		assertThat(mostAtOnce(executions)).isBetween(1, 2);
		for (TempRepo git : repos) {
			assertThat(git.git("for-each-ref")).isEqualTo(before.get(git));
			try (Stream<Path> loose = Files.list(git.gitDir().resolve("refs/heads"))) {
				assertThat(loose).isEmpty();
			}
			assertThat(git.git("show-ref", "--verify", "refs/heads/b19")).isNotBlank();
		}
		this.mvc.perform(get("/api/campaigns/" + id).with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.campaign.state").value("FINISHED"))
			.andExpect(jsonPath("$.campaign.counts.DONE").value(5))
			.andExpect(jsonPath("$.repositories.length()").value(5))
			.andExpect(jsonPath("$.repositories[0].state").value("DONE"));
		this.mvc
			.perform(get("/api/audit").param("actor", "operator").param("action", "campaign.create").with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.entries[?(@.target == '" + id + "')].outcome")
				.value(org.hamcrest.Matchers.contains("SUCCESS")));
	}

	/** The most executions whose [start, end] intervals overlap at one instant. */
	static int mostAtOnce(List<JobSummary> executions) {
		int most = 0;
		for (JobSummary a : executions) {
			LocalDateTime at = a.started();
			int overlapping = 0;
			for (JobSummary b : executions) {
				if (!b.started().isAfter(at) && !b.ended().isBefore(at)) {
					overlapping++;
				}
			}
			most = Math.max(most, overlapping);
		}
		return most;
	}

	@Test
	void aRepositoryAnotherJobHoldsIsSkippedAsBusy() throws Exception {
		String stem = uniqueName("busy");
		repoWithLooseRefs(stem + "-free.git", 3);
		repoWithLooseRefs(stem + "-held.git", 8);
		JobSummary holder = this.jobs.launch(RefJobType.MIGRATE, Map.of("repository", stem + "-held.git",
				"targetFormat", "reftable", "chunkSize", "1", "throttleMillis", "1000"), "test");
		try {
			long id = idOf(create("operator", """
					{"jobType":"maintain","target":"%s-*.git","concurrency":2}""".formatted(stem))
				.andExpect(status().isCreated()));
			assertThat(awaitEnd(id).state()).isEqualTo(Campaign.State.FINISHED);
			List<CampaignTarget> targets = this.store.targets(id);
			assertThat(targets.get(0).repository()).isEqualTo(stem + "-free.git");
			assertThat(targets.get(0).state()).isEqualTo(CampaignTarget.State.DONE);
			assertThat(targets.get(1).state()).isEqualTo(CampaignTarget.State.SKIPPED_BUSY);
			// the repository by its name, the job by its type: no server path, no bean
			// name
			assertThat(targets.get(1).detail()).contains(Long.toString(holder.executionId()), "a migrate job")
				.doesNotContain(ROOT.toString(), "migrateRefsJob");
		}
		finally {
			this.jobs.stop(holder.executionId(), "test");
		}
	}

	@Test
	void refusalsNameTheField() throws Exception {
		String repo = uniqueName("refused") + ".git";
		bareRepo(repo);
		create("operator", """
				{"jobType":"explode","target":"%s"}""".formatted(repo)).andExpect(status().isBadRequest())
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.parameter").value("jobType"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", """
				{"jobType":"verify","target":"%s","concurrency":0}""".formatted(repo))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("concurrency"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", """
				{"jobType":"verify","target":"no-such-*.git"}""").andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("target"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", """
				{"jobType":"verify","targetKind":"GLOB","target":"x/[abc"}""").andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("target"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator", """
				{"jobType":"verify","targetKind":"GLOB","target":"%s"}""".formatted("**/".repeat(342) + "x"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("target"))
			.andExpect(jsonPath("$.detail").value(containsString("1027 bytes long")));
		create("operator", """
				{"jobType":"verify","targetKind":"SOMEWHERE","target":"%s"}""".formatted(repo))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("targetKind"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		create("operator",
				"""
						{"jobType":"verify","targetKind":"REPOSITORY","target":"%s","parameters":{"repository":"x"}}"""
					.formatted(repo))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("parameters.repository"))
			.andExpect(jsonPath("$.type").value(endsWith("/invalid-parameter")));
		this.mvc.perform(get("/api/campaigns/999999").with(as("viewer")))
			.andExpect(status().isNotFound())
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.type").value(endsWith("/campaign-not-found")));
	}

	@Test
	void operatorsRunCampaignsButOnlyAdminsDestructiveOnes() throws Exception {
		String repo = uniqueName("roles") + ".git";
		bareRepo(repo);
		String verify = """
				{"jobType":"verify","targetKind":"REPOSITORY","target":"%s"}""".formatted(repo);
		this.mvc.perform(post("/api/campaigns").contentType(MediaType.APPLICATION_JSON).content(verify))
			.andExpect(status().isUnauthorized());
		create("viewer", verify).andExpect(status().isForbidden());
		String migrate = """
				{"jobType":"migrate","targetKind":"REPOSITORY","target":"%s","parameters":{"targetFormat":"reftable"}}"""
			.formatted(repo);
		create("operator", migrate).andExpect(status().isForbidden());
		long id = idOf(create("operator", verify).andExpect(status().isCreated()));
		this.mvc.perform(get("/api/campaigns").with(as("viewer")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.id == " + id + ")].jobType").value(org.hamcrest.Matchers.contains("VERIFY")));
		this.mvc.perform(post("/api/campaigns/" + id + "/cancel").with(as("viewer"))).andExpect(status().isForbidden());
		assertThat(awaitEnd(id).counts().get(CampaignTarget.State.DONE)).isEqualTo(1);
	}

	@Test
	void aMissingPlanIsRefusedWithoutShowingAPlanDirectory() throws Exception {
		String stem = uniqueName("plan-dir");
		repoWithLooseRefs(stem + "-a.git", 2);
		repoWithLooseRefs(stem + "-b.git", 2);
		// the plan is looked for in each selected repository's refstore-plans when the
		// campaign is created: there is none, and the refusal names the parameter and the
		// repository, not the server's directories
		String refusal = create("admin",
				"""
						{"jobType":"delete","target":"%s-*.git","concurrency":2,"parameters":{"plan":"no-such/plan"}}"""
					.formatted(stem))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(refusal).contains("parameters.plan", stem + "-")
			.doesNotContain(ROOT.toString(), HOME.toString(), "refstore-plans/no-such");
	}

	@Test
	void cancelLeavesPendingRepositoriesUnlaunched() throws Exception {
		String stem = uniqueName("cancel");
		for (int i = 0; i < 4; i++) {
			repoWithLooseRefs(stem + "-" + i + ".git", 6);
		}
		long id = idOf(create("admin", """
				{"jobType":"delete","target":"%s-*.git","concurrency":1,
				 "parameters":{"prefixes":"refs/heads/","chunkSize":"1","throttleMillis":"300"}}""".formatted(stem))
			.andExpect(status().isCreated()));
		this.mvc.perform(post("/api/campaigns/" + id + "/cancel").with(as("admin")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.cancelRequested").value(true));
		Campaign ended = awaitEnd(id);
		assertThat(ended.state()).isEqualTo(Campaign.State.CANCELLED);
		List<CampaignTarget> targets = this.store.targets(id);
		assertThat(targets).filteredOn((t) -> t.state() == CampaignTarget.State.CANCELLED)
			.isNotEmpty()
			.allMatch((t) -> t.executionId() == null && t.detail().equals("cancelled by admin"));
		assertThat(ended.counts().get(CampaignTarget.State.CANCELLED)).isGreaterThanOrEqualTo(3);
	}

}
