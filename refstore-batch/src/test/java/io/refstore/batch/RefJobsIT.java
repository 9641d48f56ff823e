package io.refstore.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.journal.JournalEntry;
import io.refstore.core.journal.JournalHook;
import io.refstore.core.journal.JournalReader;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.GeneratedHistory;
import io.refstore.core.testing.TempRepo;

/**
 * Every refstore job end to end through {@link RefJobs}, in one application on an H2 file
 * database, on repositories made by real gits in both formats, judged by git: migration
 * there and back, deletion planned, executed and restored; refusals of bad parameters and
 * of a second job on a repository; stop and restart. Maintenance and verification are in
 * {@link MaintenanceJobsIT}.
 */
class RefJobsIT {

	@TempDir
	static Path dir;

	static Path root;

	static ConfigurableApplicationContext context;

	static RefJobs jobs;

	static final List<RefJobEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();

	@BeforeAll
	static void start() throws Exception {
		root = Files.createDirectories(dir.resolve("repos"));
		context = BatchTestApplication.start(dir.resolve("db/history"), root, "it-instance");
		context.addApplicationListener(ApplicationListener.<RefJobEvent>forPayload(events::add));
		jobs = context.getBean(RefJobs.class);
	}

	@AfterAll
	static void stop() {
		context.close();
	}

	@ParameterizedTest
	@EnumSource(RefFormat.class)
	void migratesToTheOtherFormatAndBackAsGitSeesIt(RefFormat format) throws Exception {
		TempRepo repo = JobFixtures.create(root, "migrate-" + format.configName(), format, 250);
		String refs = JobFixtures.refs(repo.dir());
		String showRef = JobFixtures.showRef(repo.dir());
		RefFormat other = (format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;

		Path backup = null;
		for (RefFormat target : List.of(other, format)) {
			JobSummary launched = jobs.launch(RefJobType.MIGRATE,
					Map.of(JobParameterNames.REPOSITORY, "migrate-" + format.configName(),
							JobParameterNames.TARGET_FORMAT, target.configName(), JobParameterNames.CHUNK_SIZE, "40"),
					"alice");
			JobSummary done = JobFixtures.await(jobs, launched.executionId());

			assertThat(done.status()).as(done.exitMessage()).isEqualTo(JobStatus.COMPLETED);
			assertThat(done.steps()).extracting(JobSummary.StepSummary::name)
				.containsExactly("snapshotRefsStep", "copyRefsStep", "copyReflogsStep", "verifyRefsStep",
						"swapStorageStep");
			JobSummary.StepSummary copy = done.steps().get(1);
			assertThat(copy.done()).isEqualTo(copy.total()).isEqualTo(refs.lines().count());
			// every step has a total: the snapshot one snapshot (its estimate is no count
			// of refs), the others their refs or entries
			assertThat(done.steps()).allSatisfy((step) -> assertThat(step.total()).as(step.name()).isPositive());
			assertThat(done.steps().get(0).done()).isEqualTo(done.steps().get(0).total()).isEqualTo(1);
			// the verification counts the refs it compared, as the copy does: a finished
			// step never reads "0" beside a summary saying the digests match
			JobSummary.StepSummary verify = done.steps().get(3);
			assertThat(verify.done()).as("verified").isEqualTo(verify.total()).isEqualTo(copy.total());
			assertThat(verify.estimate()).isFalse();
			assertThat(done.steps()).allSatisfy((step) -> assertThat(step.done()).as(step.name()).isPositive());
			assertThat(copy.commits()).isGreaterThanOrEqualTo(refs.lines().count() / 40);
			assertThat(done.results()).containsEntry("migration.to", target.configName())
				.containsEntry("migration.refs", Long.toString(refs.lines().count()));
			backup = Path.of(done.results().get("migration.backup"));
			assertThat(backup).isDirectory();
			assertThat(JobFixtures.format(repo.dir())).isEqualTo(target.configName());
			assertThat(JobFixtures.refs(repo.dir())).isEqualTo(refs);
			assertThat(JobFixtures.showRef(repo.dir())).isEqualTo(showRef);
			JobFixtures.assertSound(repo.dir());
		}

		// the way back to the other format: the rollback's total is the backup's refs,
		// shown while it waits to swap (a bulk run holds the repository)
		long rollback;
		try (StoreGate.Run run = StoreGate.of(repo.gitDir()).beginRun(StoreGate.WRITER_WAIT)) {
			rollback = jobs
				.launch(RefJobType.ROLLBACK, Map.of(JobParameterNames.REPOSITORY, "migrate-" + format.configName(),
						JobParameterNames.BACKUP, backup.getFileName().toString()), "alice")
				.executionId();
			await("the rollback to show its total").atMost(Duration.ofSeconds(20))
				.until(() -> jobs.find(rollback).orElseThrow(), (job) -> job.running() && job.steps().size() == 1
						&& job.steps().get(0).total() > 0 && job.steps().get(0).phase() != null);
		}
		JobSummary rolledBack = JobFixtures.await(jobs, rollback);
		assertThat(rolledBack.status()).as(rolledBack.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(rolledBack.steps()).singleElement().satisfies((step) -> {
			assertThat(step.name()).isEqualTo("restoreBackupStep");
			assertThat(step.done()).isEqualTo(step.total()).isEqualTo(refs.lines().count());
			assertThat(step.ratePerSecond()).isPositive();
			// a phase is what a running step does
			assertThat(step.phase()).isNull();
		});
		assertThat(JobFixtures.format(repo.dir())).isEqualTo(other.configName());
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(refs);
		JobFixtures.assertSound(repo.dir());
		assertThat(events).anySatisfy((event) -> {
			assertThat(event.action()).isEqualTo(RefJobEvent.Action.LAUNCH);
			assertThat(event.actor()).isEqualTo("alice");
			assertThat(event.repository()).isEqualTo("migrate-" + format.configName());
			assertThat(event.outcome()).isEqualTo("ACCEPTED");
		});
		assertThat(events).anySatisfy((event) -> {
			assertThat(event.action()).isEqualTo(RefJobEvent.Action.FINISH);
			assertThat(event.outcome()).startsWith("COMPLETED");
		});
	}

	@ParameterizedTest
	@EnumSource(RefFormat.class)
	void plansThenDeletesThenRestoresAsGitSeesIt(RefFormat format) throws Exception {
		String name = "delete-" + format.configName();
		TempRepo repo = JobFixtures.create(root, name, format, 120);
		String before = JobFixtures.refs(repo.dir());
		try (Repository repository = Repository.open(repo.dir(), GitCli.system().environment())) {
			JournalHook.install(repository, JournalHook.DEFAULT_WRITER_ENV);
		}

		JobSummary planned = JobFixtures.await(jobs,
				jobs.launch(RefJobType.DELETE,
						Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.PREFIXES, "refs/heads/b/",
								JobParameterNames.EXCLUDES, "refs/heads/b/0000*", JobParameterNames.PLAN_ONLY, "true"),
						"bob")
					.executionId());
		assertThat(planned.status()).as(planned.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(planned.steps()).extracting(JobSummary.StepSummary::name).containsExactly("planDeletionStep");
		assertThat(planned.results()).containsEntry("plan.count", "110");
		assertThat(planned.results().get("plan.sample")).startsWith("refs/heads/b/00010\nrefs/heads/b/00011\n");
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(before);
		Path plan = Path.of(planned.results().get("plan.path"));
		String relative = repo.gitDir().resolve("refstore-plans").relativize(plan).toString();

		JobSummary deleted = JobFixtures.await(jobs, jobs
			.launch(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.PLAN, relative,
					JobParameterNames.CHUNK_SIZE, "25"), "bob")
			.executionId());
		assertThat(deleted.status()).as(deleted.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(deleted.steps().get(1).done()).isEqualTo(110);
		String after = JobFixtures.refs(repo.dir());
		assertThat(after.lines().filter((line) -> line.startsWith("refs/heads/b/"))).hasSize(10)
			.allMatch((line) -> line.startsWith("refs/heads/b/0000"));
		assertThat(before.lines().filter((line) -> !line.startsWith("refs/heads/b/")))
			.containsExactlyElementsOf(after.lines().filter((line) -> !line.startsWith("refs/heads/b/")).toList());
		JobFixtures.assertSound(repo.dir());

		JobSummary restored = JobFixtures
			.await(jobs,
					jobs.launch(RefJobType.RESTORE, Map.of(JobParameterNames.REPOSITORY, name,
							JobParameterNames.MANIFEST, plan.getParent().getFileName().toString()), "bob")
						.executionId());
		assertThat(restored.status()).as(restored.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(restored.results()).containsEntry("restore.restored", "110");
		assertThat(restored.steps()).singleElement().satisfies((step) -> {
			assertThat(step.done()).isEqualTo(step.total()).isEqualTo(110);
			assertThat(step.ratePerSecond()).isPositive();
		});
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(before);
		JobFixtures.assertSound(repo.dir());
		// the journal's hook recorded both jobs' changes as the jobs', by their launcher
		List<JournalEntry> journal = new ArrayList<>();
		try (JournalReader reader = JournalReader.open(repo.gitDir().resolve("refstore/journal"))) {
			for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
				journal.add(entry);
			}
		}
		assertThat(journal).isNotEmpty()
			.allSatisfy((entry) -> assertThat(entry.writer().word() + " " + entry.identity())
				.isEqualTo("job REMOTE_USER=bob"));
		assertThat(journal.stream().filter((entry) -> !entry.newValue().matches("0+")).map(JournalEntry::refName))
			.hasSize(110)
			.doesNotHaveDuplicates()
			.allMatch((ref) -> ref.startsWith("refs/heads/b/"));
		assertThat(journal.stream().filter((entry) -> entry.newValue().matches("0+")).map(JournalEntry::refName))
			.containsAll(journal.stream()
				.filter((entry) -> !entry.newValue().matches("0+"))
				.map(JournalEntry::refName)
				.toList());
	}

	/**
	 * A restore meets the lock of a writer that holds it longer than git's 100 ms (a
	 * large stack's automatic compaction, a busy host): it waits for it
	 * ({@code JobLocks.WAIT}) instead of failing, and completes once it is released.
	 */
	@ParameterizedTest
	@EnumSource(RefFormat.class)
	void aRestoreWaitsForALockAnotherWriterHoldsForAMoment(RefFormat format) throws Exception {
		String name = "restore-locked-" + format.configName();
		TempRepo repo = JobFixtures.create(root, name, format, 30);
		String before = JobFixtures.refs(repo.dir());
		JobSummary deleted = JobFixtures.await(jobs,
				jobs.launch(RefJobType.DELETE,
						Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.PREFIXES, "refs/heads/b/"), "bob")
					.executionId());
		assertThat(deleted.status()).as(deleted.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		String manifest = Path.of(deleted.results().get("plan.path")).getParent().getFileName().toString();
		// the lock the restore's first chunk needs, as a writer holds it
		Path lock = repo.gitDir()
			.resolve((format == RefFormat.REFTABLE) ? "reftable/tables.list.lock" : "refs/heads/b/00000.lock");
		Files.createDirectories(lock.getParent());
		Files.createFile(lock);

		long id = jobs
			.launch(RefJobType.RESTORE,
					Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.MANIFEST, manifest), "bob")
			.executionId();
		// still waiting for the lock, not failed, throughout; its total, the manifest's
		// refs, is there before its first chunk
		await("the restore to show its total").atMost(Duration.ofSeconds(30))
			.until(() -> jobs.find(id).orElseThrow().steps(),
					(steps) -> steps.size() == 1 && steps.get(0).total() == 30);
		await("the restore to wait for the lock").during(Duration.ofMillis(700))
			.atMost(Duration.ofSeconds(30))
			.until(() -> jobs.find(id).orElseThrow().running());
		assertThat(jobs.find(id).orElseThrow().steps().get(0)).satisfies((step) -> {
			assertThat(step.total()).isEqualTo(30);
			assertThat(step.done()).isZero();
			assertThat(step.ended()).isNull();
		});
		Files.delete(lock);
		JobSummary restored = JobFixtures.await(jobs, id);

		assertThat(restored.status()).as(restored.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(before);
		JobFixtures.assertSound(repo.dir());
	}

	/**
	 * A plan by criteria (branches merged into main and dated before a time) selects what
	 * git's {@code for-each-ref --merged} and {@code %(creatordate)} say, and is executed
	 * and restored like any plan.
	 */
	@ParameterizedTest
	@EnumSource(RefFormat.class)
	void plansByCriteriaThenDeletesThenRestoresAsGitSeesIt(RefFormat format) throws Exception {
		String name = "criteria-" + format.configName();
		TempRepo repo = TempRepo.init(JobFixtures.NEWEST, root.resolve(name), "--ref-format=" + format.configName());
		GeneratedHistory.generate(repo, new java.util.Random(11), 300);
		String before = JobFixtures.refs(repo.dir());
		List<String> expected = new ArrayList<>();
		List<String> merged = repo.git("for-each-ref", "--merged", "main", "--format=%(refname)", "refs/heads/")
			.lines()
			.toList();
		repo.git("for-each-ref", "--format=%(creatordate:unix) %(refname)", "refs/heads/").lines().forEach((line) -> {
			String[] fields = line.split(" ");
			if (Long.parseLong(fields[0]) < 1_620_000_000L && merged.contains(fields[1])
					&& !fields[1].equals("refs/heads/main")) {
				expected.add(fields[1]);
			}
		});
		assertThat(expected).hasSizeGreaterThan(10);

		JobSummary planned = JobFixtures.await(jobs,
				jobs.launch(RefJobType.DELETE,
						Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.NAMESPACES, "refs/heads/",
								JobParameterNames.MERGED_INTO, "HEAD", JobParameterNames.OLDER_THAN, "@1620000000",
								JobParameterNames.PLAN_ONLY, "true"),
						"bob")
					.executionId());
		assertThat(planned.status()).as(planned.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(planned.results()).containsEntry("plan.count", Integer.toString(expected.size()));
		assertThat(planned.results().get("plan.criteria")).contains(" merged into refs/heads/main (")
			.contains(" dated before 2021-05-03 00:00:00 UTC");
		assertThat(planned.results().get("plan.reasons").lines().findFirst().orElseThrow())
			.startsWith("merged into refs/heads/main; committed 20");
		Path plan = Path.of(planned.results().get("plan.path"));

		JobSummary deleted = JobFixtures
			.await(jobs, jobs
				.launch(RefJobType.DELETE,
						Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.PLAN,
								repo.gitDir().resolve("refstore-plans").relativize(plan).toString()),
						"bob")
				.executionId());
		assertThat(deleted.status()).as(deleted.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		List<String> gone = new ArrayList<>(before.lines().toList());
		gone.removeAll(JobFixtures.refs(repo.dir()).lines().toList());
		assertThat(gone).extracting((line) -> line.split(" ")[0]).containsExactlyElementsOf(expected);
		JobFixtures.assertSound(repo.dir());

		JobSummary restored = JobFixtures
			.await(jobs,
					jobs.launch(RefJobType.RESTORE, Map.of(JobParameterNames.REPOSITORY, name,
							JobParameterNames.MANIFEST, plan.getParent().getFileName().toString()), "bob")
						.executionId());
		assertThat(restored.status()).as(restored.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(before);
		JobFixtures.assertSound(repo.dir());

		assertThatThrownBy(() -> jobs.launch(RefJobType.DELETE,
				Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.NAMESPACES, "refs/heads/",
						JobParameterNames.MERGED_INTO, "nothing", JobParameterNames.PLAN_ONLY, "true"),
				"bob"))
			.isInstanceOf(InvalidJobParameterException.class)
			.hasMessageContaining("mergedInto")
			.hasMessageContaining("no such branch");
		assertThatThrownBy(() -> jobs.launch(RefJobType.DELETE,
				Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.NAMESPACES, "refs/heads/",
						JobParameterNames.OLDER_THAN, "ninety days", JobParameterNames.PLAN_ONLY, "true"),
				"bob"))
			.isInstanceOf(InvalidJobParameterException.class)
			.hasMessageContaining("olderThan");
	}

	@Test
	void aStalePlanIsRefusedNamingTheRef() throws Exception {
		TempRepo repo = JobFixtures.create(root, "stale", RefFormat.FILES, 30);
		JobSummary planned = JobFixtures
			.await(jobs,
					jobs.launch(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, "stale",
							JobParameterNames.PREFIXES, "refs/heads/b/", JobParameterNames.PLAN_ONLY, "true"), "carol")
						.executionId());
		repo.git("update-ref", "refs/heads/b/00099", "HEAD");
		String relative = repo.gitDir()
			.resolve("refstore-plans")
			.relativize(Path.of(planned.results().get("plan.path")))
			.toString();
		String before = JobFixtures.refs(repo.dir());

		JobSummary refused = JobFixtures.await(jobs,
				jobs.launch(RefJobType.DELETE,
						Map.of(JobParameterNames.REPOSITORY, "stale", JobParameterNames.PLAN, relative), "carol")
					.executionId());

		assertThat(refused.status()).isEqualTo(JobStatus.FAILED);
		assertThat(refused.exitMessage())
			.contains("is stale: 'refs/heads/b/00099' is selected now but is not in the plan");
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(before);
	}

	@Test
	void protectedRefsAreKeptUnlessAnOverrideWithAReasonLetsThemGo() throws Exception {
		TempRepo repo = JobFixtures.create(root, "protected", RefFormat.FILES, 5);
		String commit = repo.git("rev-parse", "refs/heads/main").trim();
		List<String> protectedRefs = List.of("refs/changes/34/1234/meta", "refs/heads/main",
				"refs/keep-around/" + commit, "refs/meta/config", "refs/notes/commits");
		for (String name : protectedRefs) {
			repo.git("update-ref", name, commit);
		}
		JobSummary planned = JobFixtures.await(jobs,
				jobs.launch(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, "protected",
						JobParameterNames.PREFIXES, "refs/", JobParameterNames.PLAN_ONLY, "true"), "dave")
					.executionId());
		assertThat(planned.status()).as(planned.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(planned.parameters()).containsEntry(JobParameterNames.OVERRIDE_PROTECTION, "false")
			.containsEntry(JobParameterNames.PROTECTED_REFS, String.join(",", ProtectedRefs.DEFAULT_PATTERNS));
		assertThat(planned.results()).containsEntry("plan.protected.count", "5")
			.containsEntry("plan.protected.byPattern",
					"1 refs/keep-around/**\n1 refs/changes/**/meta\n" + "1 refs/notes/**\n1 refs/meta/**\n1 HEAD");
		assertThat(planned.results().get("plan.protected.sample").lines()).contains("refs/heads/main (HEAD)",
				"refs/notes/commits (refs/notes/**)");
		String relative = repo.gitDir()
			.resolve("refstore-plans")
			.relativize(Path.of(planned.results().get("plan.path")))
			.toString();
		assertRefused(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, "protected", JobParameterNames.PLAN,
				relative, JobParameterNames.OVERRIDE_PROTECTION, "true"), JobParameterNames.OVERRIDE_PROTECTION);

		JobSummary deleted = JobFixtures.await(jobs,
				jobs.launch(RefJobType.DELETE,
						Map.of(JobParameterNames.REPOSITORY, "protected", JobParameterNames.PLAN, relative), "dave")
					.executionId());
		assertThat(deleted.status()).as(deleted.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(repo.git("for-each-ref", "--format=%(refname)").lines()).containsExactlyElementsOf(protectedRefs);
		JobFixtures.assertSound(repo.dir());

		assertRefused(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, "protected", JobParameterNames.PREFIXES,
				"refs/", JobParameterNames.OVERRIDE_PROTECTION, "true"), JobParameterNames.OVERRIDE_REASON);
		assertRefused(RefJobType.DELETE,
				Map.of(JobParameterNames.REPOSITORY, "protected", JobParameterNames.PREFIXES, "refs/",
						JobParameterNames.OVERRIDE_PROTECTION, "true", JobParameterNames.OVERRIDE_REASON, " \t"),
				JobParameterNames.OVERRIDE_REASON);
		assertRefused(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, "protected", JobParameterNames.PREFIXES,
				"refs/", JobParameterNames.OVERRIDE_REASON, "why not"), JobParameterNames.OVERRIDE_REASON);
		assertRefused(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, "protected", JobParameterNames.PREFIXES,
				"refs/", JobParameterNames.PROTECTED_REFS, ""), JobParameterNames.PROTECTED_REFS);
		assertThat(repo.git("for-each-ref", "--format=%(refname)").lines()).containsExactlyElementsOf(protectedRefs);

		JobSummary overridden = JobFixtures.await(jobs,
				jobs.launch(RefJobType.DELETE,
						Map.of(JobParameterNames.REPOSITORY, "protected", JobParameterNames.PREFIXES, "refs/",
								JobParameterNames.OVERRIDE_PROTECTION, "true", JobParameterNames.OVERRIDE_REASON,
								" project archived: its review data goes too "),
						"dave")
					.executionId());
		assertThat(overridden.status()).as(overridden.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(overridden.parameters())
			.containsEntry(JobParameterNames.OVERRIDE_REASON, "project archived: its review data goes too")
			.containsEntry(JobParameterNames.PROTECTED_REFS, "");
		assertThat(overridden.results()).containsEntry("plan.protected.count", "0");
		assertThat(repo.git("for-each-ref", "--format=%(refname)")).isEmpty();
		assertThat(events).anySatisfy((event) -> {
			assertThat(event.executionId()).isEqualTo(overridden.executionId());
			assertThat(event.action()).isEqualTo(RefJobEvent.Action.LAUNCH);
			assertThat(event.parameters()).containsEntry(JobParameterNames.OVERRIDE_REASON,
					"project archived: its review data goes too");
		});
	}

	@Test
	void aPlannedRefThatHeadPointsToByExecutionIsKept() throws Exception {
		TempRepo repo = JobFixtures.create(root, "head-moved", RefFormat.FILES, 5);
		JobSummary planned = JobFixtures.await(
				jobs, jobs
					.launch(RefJobType.DELETE,
							Map.of(JobParameterNames.REPOSITORY, "head-moved", JobParameterNames.PREFIXES,
									"refs/heads/b/", JobParameterNames.PLAN_ONLY, "true"),
							"dave")
					.executionId());
		assertThat(planned.results()).containsEntry("plan.count", "5");
		repo.git("symbolic-ref", "HEAD", "refs/heads/b/00001");
		String relative = repo.gitDir()
			.resolve("refstore-plans")
			.relativize(Path.of(planned.results().get("plan.path")))
			.toString();

		JobSummary deleted = JobFixtures
			.await(jobs,
					jobs.launch(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, "head-moved",
							JobParameterNames.PLAN, relative, JobParameterNames.CHUNK_SIZE, "2"), "dave")
						.executionId());
		assertThat(deleted.status()).as(deleted.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(deleted.results()).containsEntry("delete.protected", "1");
		assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/b/").lines())
			.containsExactly("refs/heads/b/00001");
		JobFixtures.assertSound(repo.dir());
	}

	@Test
	void badParametersAreRefusedNamingTheParameterBeforeAnythingStarts() {
		JobFixtures.create(root, "params", RefFormat.FILES, 3);
		int before = jobs.list(io.refstore.batch.api.JobFilter.all(1000)).size();

		assertRefused(RefJobType.MIGRATE,
				Map.of(JobParameterNames.REPOSITORY, "../escape", JobParameterNames.TARGET_FORMAT, "reftable"),
				JobParameterNames.REPOSITORY);
		assertRefused(RefJobType.MIGRATE,
				Map.of(JobParameterNames.REPOSITORY, "nothing-here", JobParameterNames.TARGET_FORMAT, "reftable"),
				JobParameterNames.REPOSITORY);
		assertRefused(RefJobType.MIGRATE,
				Map.of(JobParameterNames.REPOSITORY, "params", JobParameterNames.TARGET_FORMAT, "fancy"),
				JobParameterNames.TARGET_FORMAT);
		assertRefused(RefJobType.MIGRATE,
				Map.of(JobParameterNames.REPOSITORY, "params", JobParameterNames.TARGET_FORMAT, "files"),
				JobParameterNames.TARGET_FORMAT);
		assertRefused(RefJobType.MIGRATE, Map.of(JobParameterNames.REPOSITORY, "params",
				JobParameterNames.TARGET_FORMAT, "reftable", JobParameterNames.CHUNK_SIZE, "0"),
				JobParameterNames.CHUNK_SIZE);
		assertRefused(RefJobType.DELETE,
				Map.of(JobParameterNames.REPOSITORY, "params", JobParameterNames.GLOBS, "refs/heads/[oops"),
				JobParameterNames.GLOBS);
		assertRefused(RefJobType.DELETE,
				Map.of(JobParameterNames.REPOSITORY, "params", JobParameterNames.PREFIXES, "heads/"),
				JobParameterNames.PREFIXES);
		assertRefused(RefJobType.VERIFY, Map.of(JobParameterNames.REPOSITORY, "params", "colour", "red"), "colour");
		assertRefused(RefJobType.ROLLBACK,
				Map.of(JobParameterNames.REPOSITORY, "params", JobParameterNames.BACKUP, "../../config"),
				JobParameterNames.BACKUP);
		assertThat(jobs.list(io.refstore.batch.api.JobFilter.all(1000))).hasSize(before);
		assertThat(events).anySatisfy((event) -> assertThat(event.outcome()).startsWith("REFUSED: parameter 'globs'"));
	}

	/**
	 * The journal's retention is the application's to apply ({@code JournalRetainer}):
	 * without one, its job fails saying so, and the repository is left as it was.
	 */
	@Test
	void aJournalRetentionWithoutAJournalFailsSayingSo() throws Exception {
		TempRepo repo = JobFixtures.create(root, "no-journal", RefFormat.FILES, 3);
		String before = repo.git("for-each-ref");
		JobSummary retention = JobFixtures.await(jobs,
				jobs.launch(RefJobType.JOURNAL_RETENTION, Map.of(JobParameterNames.REPOSITORY, "no-journal"), "erin")
					.executionId());
		assertThat(retention.status()).isEqualTo(io.refstore.batch.api.JobStatus.FAILED);
		assertThat(retention.exitMessage()).contains("this application keeps no ref journal to apply a retention to");
		assertThat(repo.git("for-each-ref")).isEqualTo(before);
	}

	/**
	 * The steps a job runs, named before it runs, are those its execution ran; the
	 * counters by status count what the filter selects, its own status, offset and limit
	 * aside.
	 */
	@Test
	void theStepsOfAJobAreKnownBeforeItRunsAndExecutionsAreCountedByStatus() throws Exception {
		JobFixtures.create(root, "counted", RefFormat.FILES, 3);
		JobSummary migration = JobFixtures.await(
				jobs, jobs
					.launch(RefJobType.MIGRATE,
							Map.of(JobParameterNames.REPOSITORY, "counted", JobParameterNames.TARGET_FORMAT,
									"reftable"),
							"hank")
					.executionId());
		JobSummary plan = JobFixtures.await(jobs,
				jobs.launch(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, "counted",
						JobParameterNames.PREFIXES, "refs/heads/b/", JobParameterNames.PLAN_ONLY, "true"), "hank")
					.executionId());
		assertThat(migration.status()).as(migration.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(jobs.steps(RefJobType.MIGRATE, migration.parameters())).hasSize(5)
			.containsExactlyElementsOf(migration.steps().stream().map(JobSummary.StepSummary::name).toList());
		assertThat(jobs.steps(RefJobType.DELETE, plan.parameters()))
			.containsExactlyElementsOf(plan.steps().stream().map(JobSummary.StepSummary::name).toList());
		assertThat(jobs.steps(RefJobType.DELETE, Map.of())).containsExactly("planDeletionStep", "deleteRefsStep");
		assertThat(jobs.steps(RefJobType.VERIFY, Map.of())).containsExactly("verifyStoreStep");

		assertThat(jobs.countByStatus(new JobFilter(JobStatus.FAILED, null, "counted", null, null, null, 5, 1)))
			.containsExactly(Map.entry(JobStatus.COMPLETED, 2L));
		assertThat(jobs.countByStatus(new JobFilter(null, RefJobType.DELETE, "count?d", "hank", null, null, 0, 1)))
			.containsExactly(Map.entry(JobStatus.COMPLETED, 1L));
		assertThat(jobs.countByStatus(new JobFilter(null, null, "counted", "nobody", null, null, 0, 1))).isEmpty();
		long all = jobs.countByStatus(JobFilter.all(1)).values().stream().mapToLong(Long::longValue).sum();
		assertThat(all).isEqualTo(jobs.list(JobFilter.all(1000)).size());
	}

	@Test
	void anUnknownExecutionIsNotFoundAndCannotBeStoppedOrRestarted() {
		assertThat(jobs.find(987_654_321L)).isEmpty();
		assertThatThrownBy(() -> jobs.stop(987_654_321L, "eve")).isInstanceOf(InvalidJobParameterException.class)
			.hasMessageContaining("no refstore job execution has that id");
		assertThatThrownBy(() -> jobs.restart(987_654_321L, "eve")).isInstanceOf(InvalidJobParameterException.class)
			.hasMessageContaining("no refstore job execution has that id");
	}

	private static void assertRefused(RefJobType type, Map<String, String> parameters, String parameter) {
		assertThatThrownBy(() -> jobs.launch(type, parameters, "eve")).isInstanceOf(InvalidJobParameterException.class)
			.hasMessageStartingWith("parameter '" + parameter + "'")
			.satisfies((ex) -> assertThat(((InvalidJobParameterException) ex).parameter()).isEqualTo(parameter));
	}

	@Test
	void aSecondJobOnARepositoryIsRefusedAndAStoppedMigrationRestartsFromItsCheckpoint() throws Exception {
		TempRepo repo = JobFixtures.create(root, "busy", RefFormat.FILES, 200);
		String refs = JobFixtures.refs(repo.dir());
		JobSummary running = jobs.launch(
				RefJobType.MIGRATE, Map.of(JobParameterNames.REPOSITORY, "busy", JobParameterNames.TARGET_FORMAT,
						"reftable", JobParameterNames.CHUNK_SIZE, "10", JobParameterNames.THROTTLE_MILLIS, "100"),
				"frank");

		assertThatThrownBy(() -> jobs.launch(RefJobType.MAINTAIN, Map.of(JobParameterNames.REPOSITORY, "busy"), "gina"))
			.isInstanceOf(JobConflictException.class)
			.hasMessageContaining("a migrate job (execution " + running.executionId() + ")");
		awaitCopied(running.executionId(), 30);
		assertThat(jobs.stop(running.executionId(), "frank")).isTrue();
		JobSummary stopped = JobFixtures.await(jobs, running.executionId());
		assertThat(stopped.status()).isEqualTo(JobStatus.STOPPED);
		long copied = stopped.steps().get(1).done();
		assertThat(copied).isBetween(30L, refs.lines().count() - 10);
		assertThat(JobFixtures.format(repo.dir())).isEqualTo("files");

		JobSummary restarted = JobFixtures.await(jobs, jobs.restart(running.executionId(), "frank").executionId());

		assertThat(restarted.status()).as(restarted.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(restarted.instanceId()).isEqualTo(running.instanceId());
		JobSummary.StepSummary copy = restarted.steps()
			.stream()
			.filter((step) -> step.name().equals("copyRefsStep"))
			.findFirst()
			.orElseThrow();
		assertThat(copy.done()).isEqualTo(refs.lines().count());
		assertThat(context.getBean(org.springframework.batch.core.repository.JobRepository.class)
			.getStepExecution(copy.stepExecutionId())
			.getExecutionContext()
			.getLong("copy.resumedFrom")).isEqualTo(copied);
		assertThat(JobFixtures.refs(repo.dir())).isEqualTo(refs);
		JobFixtures.assertSound(repo.dir());
		assertThat(events).anySatisfy((event) -> {
			assertThat(event.action()).isEqualTo(RefJobEvent.Action.STOP);
			assertThat(event.executionId()).isEqualTo(running.executionId());
		});
	}

	private static void awaitCopied(long executionId, long refs) {
		await("execution " + executionId + " to copy " + refs + " refs").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(25))
			.until(() -> jobs.find(executionId).orElseThrow(),
					(now) -> now.steps().size() > 1 && now.steps().get(1).done() >= refs);
	}

}
