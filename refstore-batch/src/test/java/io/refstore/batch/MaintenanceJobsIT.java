package io.refstore.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The maintenance and verification jobs end to end through {@link RefJobs}, in one
 * application on an H2 file database, on repositories made by real gits in both formats,
 * judged by git: a forced pack or compaction keeps every ref and the digest, a due store
 * is left not due with words for what was done (and "nothing to do" when it is not), and
 * a compaction waits for a table lock another writer holds.
 */
class MaintenanceJobsIT {

	@TempDir
	static Path dir;

	static Path root;

	static ConfigurableApplicationContext context;

	static RefJobs jobs;

	@BeforeAll
	static void start() throws Exception {
		root = Files.createDirectories(dir.resolve("repos"));
		context = BatchTestApplication.start(dir.resolve("db/history"), root, "maintenance-instance");
		jobs = context.getBean(RefJobs.class);
	}

	@AfterAll
	static void stop() {
		context.close();
	}

	@ParameterizedTest
	@EnumSource(RefFormat.class)
	void maintenancePacksWhenForcedAndVerifyKeepsTheDigest(RefFormat format) throws Exception {
		String name = "maintain-" + format.configName();
		TempRepo repo = JobFixtures.create(root, name, format, 40);
		for (int i = 0; i < 5; i++) {
			repo.git("update-ref", "refs/heads/loose" + i, "HEAD");
		}
		String before = JobFixtures.refs(repo.dir());
		JobSummary verified = JobFixtures.await(jobs,
				jobs.launch(RefJobType.VERIFY, Map.of(JobParameterNames.REPOSITORY, name), "dan").executionId());

		JobSummary maintained = JobFixtures.await(jobs,
				jobs.launch(RefJobType.MAINTAIN,
						Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.FORCE, "true"), "dan")
					.executionId());

		assertThat(maintained.status()).as(maintained.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(maintained.results()).containsEntry("maintain.packed", "true");
		// the loose refs to pack (files), the tables to compact (reftable)
		assertThat(maintained.steps().get(0).total()).isPositive().isEqualTo(maintained.steps().get(0).done());
		// git packs no symbolic ref: refs/heads/alias stays loose
		assertThat(maintained.results().get("maintain.after"))
			.contains((format == RefFormat.FILES) ? ": 1 loose and " : ": 1 table,");
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(before);
		JobFixtures.assertSound(repo.dir());
		JobSummary again = JobFixtures.await(jobs,
				jobs.launch(RefJobType.VERIFY, Map.of(JobParameterNames.REPOSITORY, name), "dan").executionId());
		assertThat(verified.results()).containsEntry("verify.errors", "0");
		assertThat(again.results().get("verify.digest")).isEqualTo(verified.results().get("verify.digest"));
		assertThat(again.results()).containsEntry("verify.refs", Long.toString(before.lines().count()));
		// the estimate corrected: the refs read, root refs included
		assertThat(verified.steps()).singleElement()
			.satisfies((step) -> assertThat(step.done()).isEqualTo(step.total())
				.isEqualTo(Long.parseLong(verified.results().get("verify.refs"))));
	}

	@ParameterizedTest
	@EnumSource(RefFormat.class)
	void maintenanceOfADueStoreLeavesItNotDueAndSaysWhatItDid(RefFormat format) throws Exception {
		String name = "maintain-due-" + format.configName();
		TempRepo repo = JobFixtures.create(root, name, format, 40);
		// three small tables on top of the first: git's geometric rule merges them
		GitCli noCompaction = JobFixtures.NEWEST.withEnv("GIT_TEST_REFTABLE_AUTOCOMPACTION", "false");
		for (int i = 0; i < 3; i++) {
			noCompaction.ok(repo.dir(), "update-ref", "refs/heads/more" + i, "HEAD");
		}
		String before = JobFixtures.refs(repo.dir());
		StoreStatistics due = statistics(repo);
		assertThat(due.maintenanceDue()).as(due.reason()).isTrue();

		JobSummary maintained = JobFixtures.await(jobs,
				jobs.launch(RefJobType.MAINTAIN, Map.of(JobParameterNames.REPOSITORY, name), "dan").executionId());

		assertThat(maintained.status()).as(maintained.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(maintained.results()).containsEntry(JobResults.MAINTAIN_PACKED, "true");
		StoreStatistics after = statistics(repo);
		assertThat(after.maintenanceDue()).as(after.reason()).isFalse();
		// the 40 branches, main, 5 tags, the annotated tag and the 3 more; the symbolic
		// ref refs/heads/alias stays loose, as git leaves it
		assertThat(maintained.results().get(JobResults.MAINTAIN_DONE)).isEqualTo((format == RefFormat.FILES)
				? "packed 50 loose refs, 1 left loose" : "compacted " + due.tables() + " tables to " + after.tables());
		assertThat(after.tables()).isLessThan((format == RefFormat.FILES) ? 1 : due.tables());
		// the refs it packed, not the symbolic one it left loose (files); the tables
		// (reftable)
		assertThat(maintained.steps().get(0).done()).isEqualTo((format == RefFormat.FILES) ? 50 : due.tables())
			.isEqualTo(maintained.steps().get(0).total());
		assertThat(maintained.results().get(JobResults.MAINTAIN_AFTER)).contains("maintenance not due");
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(before);
		JobFixtures.assertSound(repo.dir());

		JobSummary again = JobFixtures.await(jobs,
				jobs.launch(RefJobType.MAINTAIN, Map.of(JobParameterNames.REPOSITORY, name), "dan").executionId());
		assertThat(again.status()).as(again.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(again.results()).containsEntry(JobResults.MAINTAIN_PACKED, "false");
		assertThat(again.results().get(JobResults.MAINTAIN_DONE)).startsWith("nothing to do: ")
			.contains((format == RefFormat.FILES) ? "0 of 1 loose refs to pack" : "geometric sequence");
	}

	private static StoreStatistics statistics(TempRepo repo) throws Exception {
		try (Repository repository = Repository.open(repo.dir()); RefStore store = RefStores.open(repository)) {
			return store.statistics();
		}
	}

	@Test
	void forcedCompactionWaitsForATableLockThatAnotherWriterReleases() throws Exception {
		String name = "maintain-locked";
		TempRepo repo = JobFixtures.create(root, name, RefFormat.REFTABLE, 10);
		for (int i = 0; i < 3; i++) {
			repo.git("update-ref", "refs/heads/more" + i, "HEAD");
		}
		Path reftable = repo.gitDir().resolve("reftable");
		List<String> tables = Files.readAllLines(reftable.resolve("tables.list"));
		assertThat(tables).as("a stack to compact").hasSizeGreaterThan(1);
		String newest = tables.get(tables.size() - 1);
		// what another writer's automatic compaction holds while it merges
		Path lock = Files.createFile(reftable.resolve(newest + ".lock"));
		String before = JobFixtures.refs(repo.dir());

		long id = jobs
			.launch(RefJobType.MAINTAIN, Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.FORCE, "true"),
					"dan")
			.executionId();
		// still waiting for the lock, not failed, throughout
		await("the compaction to wait for the lock").during(Duration.ofMillis(700))
			.atMost(Duration.ofSeconds(30))
			.until(() -> jobs.find(id).orElseThrow().running());
		Files.delete(lock);
		JobSummary maintained = JobFixtures.await(jobs, id);

		assertThat(maintained.status()).as(maintained.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(maintained.results().get("maintain.after")).contains(": 1 table,");
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(before);
		JobFixtures.assertSound(repo.dir());
	}

}
