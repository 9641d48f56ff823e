package io.refstore.web.campaigns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.RefstoreApplication;
import io.refstore.web.schedules.Schedule;

/**
 * A campaign survives its application: the Spring context is closed while the campaign's
 * jobs run and a new one is started on the same H2 file. The campaign then finishes, each
 * repository's job instance ran exactly once (an interrupted execution is restarted,
 * never launched again), and git finds every selected ref deleted.
 */
class CampaignResumeIT {

	@Test
	void aCampaignContinuesAfterTheApplicationRestarts() throws Exception {
		Path home = Files.createTempDirectory("refstore-campaign-resume").toRealPath();
		Path root = Files.createDirectories(home.resolve("repos"));
		List<TempRepo> repos = new ArrayList<>();
		List<String> names = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			TempRepo git = TempRepo.init(GitCli.system(), root.resolve("resume-" + i + ".git"), "--bare");
			String commit = git.commit("base", null);
			for (int b = 0; b < 6; b++) {
				git.git("update-ref", "refs/heads/b" + b, commit);
			}
			git.git("update-ref", "refs/tags/kept", commit);
			repos.add(git);
			names.add("resume-" + i + ".git");
		}
		long id;
		try (ConfigurableApplicationContext first = start(home)) {
			CampaignStore store = first.getBean(CampaignStore.class);
			id = store.insert(RefJobType.DELETE, Schedule.TargetKind.GLOB, "resume-*.git",
					Map.of("prefixes", "refs/heads/", "chunkSize", "1", "throttleMillis", "400"), 2, "test", names);
			await(store, id, (targets) -> targets.stream().anyMatch((t) -> t.executionId() != null));
			assertThat(store.find(id).orElseThrow().state()).isEqualTo(Campaign.State.RUNNING);
		}
		try (ConfigurableApplicationContext second = start(home)) {
			CampaignStore store = second.getBean(CampaignStore.class);
			RefJobs jobs = second.getBean(RefJobs.class);
			await(store, id, (targets) -> targets.stream().allMatch((t) -> t.state().ended()));
			assertThat(Awaitility.await("campaign " + id + " to end")
				.atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> store.find(id).orElseThrow().state(), (state) -> state != Campaign.State.RUNNING))
				.isEqualTo(Campaign.State.FINISHED);
			List<CampaignTarget> targets = store.targets(id);
			assertThat(targets).extracting(CampaignTarget::state).containsOnly(CampaignTarget.State.DONE);
			assertThat(targets).anyMatch((t) -> t.restarts() == 1);
			for (CampaignTarget target : targets) {
				List<JobSummary> executions = jobs.list(new JobFilter(null, RefJobType.DELETE, target.repository(),
						Campaign.actor(id), null, null, 0, 100));
				assertThat(executions).extracting(JobSummary::instanceId)
					.as(target.repository())
					.containsOnly(executions.get(0).instanceId());
				assertThat(executions).hasSize(1 + target.restarts());
				assertThat(executions.get(0).executionId()).isEqualTo(target.executionId());
			}
		}
		for (TempRepo git : repos) {
			assertThat(git.git("for-each-ref", "refs/heads/")).isBlank();
			assertThat(git.git("for-each-ref", "--format=%(refname)")).isEqualTo("refs/tags/kept\n");
		}
	}

	private static ConfigurableApplicationContext start(Path home) {
		// arguments, not default properties: application.yml would override those. A
		// scheduler name of its own: Quartz registers its job store's data source per
		// scheduler name for the whole JVM, so these applications, closed here, would
		// leave the test contexts of this JVM named "refstore" with a closed pool (every
		// schedule written afterwards failed)
		return new SpringApplicationBuilder(RefstoreApplication.class).run("--refstore.home=" + home,
				"--refstore.repositories.roots[0]=" + home.resolve("repos"), "--refstore.demo.enabled=false",
				"--server.port=0", "--refstore.campaigns.poll-millis=200", "--refstore.jobs.instance-id=resume-test",
				"--spring.quartz.scheduler-name=campaign-resume-test");
	}

	private static void await(CampaignStore store, long id, Predicate<List<CampaignTarget>> done) {
		Awaitility.await("the targets of campaign " + id)
			.atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> {
				List<CampaignTarget> targets = store.targets(id);
				assertThat(done.test(targets)).as("reached in time: " + targets).isTrue();
			});
	}

}
