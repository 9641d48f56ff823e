package io.refstore.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.TaskScheduler;

import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.batch.support.JobLeases;
import io.refstore.core.io.LockOwner;
import io.refstore.core.journal.RewindPlan;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.testing.TempRepo;

/**
 * A migration and a deletion killed with {@code kill -9} in a process of their own after
 * some chunks committed (read from the database while the process runs), then the
 * application started again on the same H2 file: the dead execution is marked FAILED with
 * its reason, its lease is gone, the history is all there, and a restart finishes from
 * the last committed chunk, not from zero, with every ref exactly once as git sees it.
 * Also: a lease left by a dead instance refuses a launch until it expires.
 */
class JobKillIT {

	/** The dead instance's lease in the lease test. */
	private static final Duration LEASE = Duration.ofSeconds(10);

	@TempDir
	Path dir;

	@Test
	void aKilledMigrationIsMarkedAndItsRestartFinishesFromTheLastChunk() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		TempRepo repo = JobFixtures.create(root, "killed", RefFormat.FILES, 400);
		String refs = JobFixtures.refs(repo.dir());
		Path db = this.dir.resolve("db/history");

		long execution = runAndKill(db, root, "copyRefsStep", RefJobType.MIGRATE, "repository=killed",
				"targetFormat=reftable", "chunkSize=10", "throttleMillis=50");

		try (ConfigurableApplicationContext context = BatchTestApplication.start(db, root, "kill-instance")) {
			RefJobs jobs = context.getBean(RefJobs.class);
			JobSummary dead = jobs.find(execution).orElseThrow();
			assertThat(dead.status()).isEqualTo(JobStatus.FAILED);
			assertThat(dead.exitMessage()).contains("marked FAILED at startup by instance 'kill-instance'");
			assertThat(context.getBean(JobLeases.class).all()).isEmpty();
			long copied = dead.steps().get(1).done();
			assertThat(copied).as("refs copied before the kill").isBetween(10L, refs.lines().count() - 10);
			assertThat(JobFixtures.format(repo.dir())).isEqualTo("files");
			// what a node of a fleet restarts when it returns: this instance's
			// interrupted
			// executions since a time, not restarted yet
			LocalDateTime before = LocalDateTime.now().minusHours(1);
			assertThat(jobs.interrupted("kill-instance", before)).extracting(JobSummary::executionId)
				.containsExactly(execution);
			assertThat(jobs.interrupted("kill-instance", LocalDateTime.now().plusMinutes(1))).isEmpty();
			assertThat(jobs.interrupted("another-instance", before)).isEmpty();

			JobSummary finished = JobFixtures.await(jobs, jobs.restart(execution, "operator").executionId());
			assertThat(jobs.interrupted("kill-instance", before)).as("restarted already").isEmpty();

			assertThat(finished.status()).as(finished.exitMessage()).isEqualTo(JobStatus.COMPLETED);
			long resumedFrom = stepContext(context, finished, "copyRefsStep").getLong("copy.resumedFrom");
			assertThat(resumedFrom).as("the restart did not start from zero").isEqualTo(copied);
			assertThat(finished.results()).containsEntry("migration.refs", Long.toString(refs.lines().count()));
			assertThat(JobFixtures.format(repo.dir())).isEqualTo("reftable");
			assertThat(JobFixtures.refs(repo.dir())).isEqualTo(refs);
			JobFixtures.assertSound(repo.dir());
		}
	}

	/**
	 * A migration killed while it swaps holds the store's locks (here:
	 * {@code packed-refs.lock} and one lock per loose ref), which stop every git writer:
	 * the application's start marks the execution dead and removes exactly those locks,
	 * so git writes again before anyone restarts the job, and the restart finishes the
	 * migration.
	 */
	@Test
	void aMigrationKilledDuringItsSwapHasItsLocksReleasedAtStartup() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		TempRepo repo = JobFixtures.create(root, "swapping", RefFormat.FILES, 100);
		String commit = repo.git("rev-parse", "HEAD").trim();
		StringBuilder loose = new StringBuilder();
		for (int i = 0; i < 3000; i++) {
			loose.append("create refs/heads/loose/").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(loose.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		String refs = JobFixtures.refs(repo.dir());
		Path db = this.dir.resolve("db/history");
		Path packedLock = repo.gitDir().resolve("packed-refs.lock");

		long execution = runAndKillOnFile(db, root, packedLock, RefJobType.MIGRATE, "repository=swapping",
				"targetFormat=reftable");
		assertThat(packedLock).as("the swap's lock, left by the kill").exists();
		assertThat(JobFixtures.NEWEST.run(repo.dir(), "update-ref", "-d", "refs/heads/loose/1").exitCode())
			.as("git cannot delete a ref while the lock is there")
			.isNotZero();

		try (ConfigurableApplicationContext context = BatchTestApplication.start(db, root, "kill-instance")) {
			RefJobs jobs = context.getBean(RefJobs.class);
			JobSummary dead = jobs.find(execution).orElseThrow();
			assertThat(dead.status()).isEqualTo(JobStatus.FAILED);
			assertThat(dead.exitMessage()).contains("lock(s) it held in the repository");
			assertThat(packedLock).doesNotExist();
			try (var paths = Files.walk(repo.gitDir())) {
				assertThat(paths.filter((path) -> path.toString().endsWith(".lock")).toList()).isEmpty();
			}
			assertThat(JobFixtures.format(repo.dir())).isEqualTo("files");
			repo.git("update-ref", "refs/heads/written-after-the-kill", commit);

			JobSummary finished = JobFixtures.await(jobs, jobs.restart(execution, "operator").executionId());

			assertThat(finished.status()).as(finished.exitMessage()).isEqualTo(JobStatus.COMPLETED);
			assertThat(JobFixtures.format(repo.dir())).isEqualTo("reftable");
			assertThat(JobFixtures.refs(repo.dir())).contains("refs/heads/written-after-the-kill")
				.contains(refs.lines().toList().get(0));
			assertThat(JobFixtures.refs(repo.dir()).lines().count()).isEqualTo(refs.lines().count() + 1);
			JobFixtures.assertSound(repo.dir());
		}
	}

	@Test
	void aKilledDeletionIsMarkedAndItsRestartDeletesEveryPlannedRefOnce() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		TempRepo repo = JobFixtures.create(root, "deleted", RefFormat.REFTABLE, 300);
		String before = JobFixtures.refs(repo.dir());
		Path db = this.dir.resolve("db/history");

		long execution = runAndKill(db, root, "deleteRefsStep", RefJobType.DELETE, "repository=deleted",
				"prefixes=refs/heads/b/", "chunkSize=10", "throttleMillis=50");

		try (ConfigurableApplicationContext context = BatchTestApplication.start(db, root, "kill-instance")) {
			RefJobs jobs = context.getBean(RefJobs.class);
			JobSummary dead = jobs.find(execution).orElseThrow();
			assertThat(dead.status()).isEqualTo(JobStatus.FAILED);
			long deletedBefore = dead.steps().get(1).done();
			assertThat(deletedBefore).as("refs deleted before the kill").isBetween(10L, 290L);
			assertThat(JobFixtures.refs(repo.dir()).lines().filter((l) -> l.startsWith("refs/heads/b/")).count())
				.isBetween(10L, 300 - deletedBefore);

			// the locks the killed run took were its own, recorded, and released at
			// startup; a lock nobody recorded
			// (made here, as a git that crashed leaves one) is never broken on a guess
			// (git's rule too): the restart
			// fails naming it, the operator removes it and restarts again, which goes on
			// from the same checkpoint
			Path lock = repo.gitDir().resolve("reftable/tables.list.lock");
			assertThat(lock).doesNotExist();
			Files.createFile(lock);
			String beforeRestart = JobFixtures.refs(repo.dir());
			JobSummary refused = JobFixtures.await(jobs, jobs.restart(execution, "operator").executionId());
			assertThat(refused.status()).isEqualTo(JobStatus.FAILED);
			assertThat(refused.exitMessage()).contains(lock + " exists");
			assertThat(JobFixtures.refs(repo.dir())).as("a refused restart changes nothing").isEqualTo(beforeRestart);
			Files.delete(lock);
			JobSummary finished = JobFixtures.await(jobs,
					jobs.restart(refused.executionId(), "operator").executionId());

			assertThat(finished.status()).as(finished.exitMessage()).isEqualTo(JobStatus.COMPLETED);
			// the refused restart may have recorded a chunk the killed process committed
			// but never recorded
			assertThat(stepContext(context, finished, "deleteRefsStep").getLong("delete.resumedFrom"))
				.as("the restart did not start from zero")
				.isBetween(deletedBefore, deletedBefore + 10);
			List<String> kept = before.lines().filter((l) -> !l.startsWith("refs/heads/b/")).toList();
			assertThat(JobFixtures.refs(repo.dir()).lines().toList()).isEqualTo(kept);
			JobFixtures.assertSound(repo.dir());
		}
	}

	/**
	 * A point-in-time restore killed while it commits its chunks (as soon as a ref of its
	 * fourth chunk exists): git reads a sound repository in which every ref the plan
	 * names holds its old or its new value, and the restart finishes the plan from what
	 * the refs hold, counting those set before the kill as done, with no lock left.
	 */
	@Test
	void aKilledRewindIsMarkedAndItsRestartSetsEveryRefOnce() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		TempRepo repo = JobFixtures.create(root, "rewound", RefFormat.FILES, 10);
		String commit = repo.git("rev-parse", "refs/heads/main").trim();
		String before = JobFixtures.refs(repo.dir());
		ObjectId target = ObjectId.fromHex(HashAlgorithm.SHA1, commit);
		List<RewindPlan.Step> steps = new ArrayList<>();
		for (int i = 0; i < 6000; i++) {
			steps.add(new RewindPlan.Step(String.format("refs/heads/r/%05d", i), HashAlgorithm.SHA1.zeroId(), target));
		}
		String plan;
		try (Repository repository = Repository.open(repo.dir())) {
			plan = new RewindPlan(HashAlgorithm.SHA1, RepositoryId.of(repository), Instant.now(), "refs/heads/", steps)
				.saveIn(repo.gitDir().resolve("refstore-plans"));
		}
		Path db = this.dir.resolve("db/history");

		// the rewind forces its transactions, so on the files backend each chunk is one
		// rename of packed-refs (docs/guarantees.md): the ref is in it, or loose
		Path loose = repo.gitDir().resolve("refs/heads/r/03500");
		Path packed = repo.gitDir().resolve("packed-refs");
		long execution = runAndKillWhen(db, root, "refs/heads/r/03500 to exist",
				() -> Files.exists(loose) || contains(packed, " refs/heads/r/03500\n"), RefJobType.REWIND,
				"repository=rewound", "plan=" + plan);

		List<String> set = JobFixtures.refs(repo.dir())
			.lines()
			.filter((line) -> line.startsWith("refs/heads/r/"))
			.toList();
		assertThat(set).as("refs set before the kill")
			.hasSizeBetween(3001, 5999)
			.allMatch((line) -> line.contains(commit));
		try (ConfigurableApplicationContext context = BatchTestApplication.start(db, root, "kill-instance")) {
			RefJobs jobs = context.getBean(RefJobs.class);
			assertThat(jobs.find(execution).orElseThrow().status()).isEqualTo(JobStatus.FAILED);
			JobSummary finished = JobFixtures.await(jobs, jobs.restart(execution, "operator").executionId());

			assertThat(finished.status()).as(finished.exitMessage()).isEqualTo(JobStatus.COMPLETED);
			assertThat(finished.results()).containsEntry("rewind.applied", Integer.toString(6000 - set.size()))
				.containsEntry("rewind.present", Integer.toString(set.size()))
				.containsEntry("rewind.conflicts", "0");
		}
		List<String> after = JobFixtures.refs(repo.dir()).lines().toList();
		assertThat(after.stream().filter((line) -> line.startsWith("refs/heads/r/"))).hasSize(6000)
			.allMatch((line) -> line.contains(commit));
		assertThat(after.stream().filter((line) -> !line.startsWith("refs/heads/r/")))
			.containsExactlyElementsOf(before.lines().toList());
		try (var locks = Files.walk(repo.gitDir())) {
			assertThat(locks.filter((file) -> file.toString().endsWith(".lock"))).isEmpty();
		}
		JobFixtures.assertSound(repo.dir());
	}

	/**
	 * A deletion killed inside a chunk's transaction holds {@code packed-refs.lock} and
	 * the chunk's ref locks, which stop every git writer: they are links to the job's
	 * owner record, so the application's start knows them as the dead execution's and
	 * removes them (and only them), and the restart deletes the rest.
	 */
	@Test
	void aDeletionKilledInsideAChunkHasItsLocksReleasedAtStartup() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		TempRepo repo = JobFixtures.create(root, "deleting", RefFormat.FILES, 2000);
		String before = JobFixtures.refs(repo.dir());
		String commit = repo.git("rev-parse", "HEAD").trim();
		Path db = this.dir.resolve("db/history");
		Path packedLock = repo.gitDir().resolve("packed-refs.lock");
		Path gitsLock = repo.gitDir().resolve("refs/tags/crashed-git.lock");
		Files.createDirectories(gitsLock.getParent());
		Files.writeString(gitsLock, commit + "\n");

		long execution = runAndKillOnFile(db, root, packedLock, RefJobType.DELETE, "repository=deleting",
				"prefixes=refs/heads/b/", "chunkSize=500");
		assertThat(packedLock).as("the chunk's lock, left by the kill").exists();

		try (ConfigurableApplicationContext context = BatchTestApplication.start(db, root, "kill-instance")) {
			RefJobs jobs = context.getBean(RefJobs.class);
			JobSummary dead = jobs.find(execution).orElseThrow();
			assertThat(dead.status()).isEqualTo(JobStatus.FAILED);
			assertThat(dead.exitMessage()).contains("lock(s) it held in the repository");
			try (var paths = Files.walk(repo.gitDir())) {
				assertThat(paths.filter((path) -> path.toString().endsWith(".lock")).toList())
					.as("only the lock nobody recorded is left")
					.containsExactly(gitsLock);
			}
			assertThat(repo.gitDir().resolve("packed-refs.new")).doesNotExist();
			repo.git("update-ref", "refs/heads/written-after-the-kill", commit);

			JobSummary finished = JobFixtures.await(jobs, jobs.restart(execution, "operator").executionId());

			assertThat(finished.status()).as(finished.exitMessage()).isEqualTo(JobStatus.COMPLETED);
			List<String> kept = new ArrayList<>(before.lines().filter((l) -> !l.startsWith("refs/heads/b/")).toList());
			kept.add(JobFixtures.refs(repo.dir())
				.lines()
				.filter((l) -> l.startsWith("refs/heads/written-after"))
				.findFirst()
				.orElseThrow());
			kept.sort(null);
			assertThat(JobFixtures.refs(repo.dir()).lines().toList()).isEqualTo(kept);
			assertThat(gitsLock).exists();
			try (var owners = Files.list(repo.gitDir().resolve(LockOwner.DIR))) {
				// the break lock's file stays: an advisory lock of the system, never
				// stale
				assertThat(owners.filter((p) -> !p.getFileName().toString().equals(".break")).toList())
					.as("owner records left")
					.isEmpty();
			}
			Files.delete(gitsLock);
			JobFixtures.assertSound(repo.dir());
		}
	}

	@Test
	void historyAndLeasesSurviveARestartAndADeadInstancesLeaseExpires() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		JobFixtures.create(root, "leased", RefFormat.FILES, 5);
		Path db = this.dir.resolve("db/history");
		long verified;
		String path;
		long leased;
		try (ConfigurableApplicationContext context = BatchTestApplication.start(db, root, "first")) {
			RefJobs jobs = context.getBean(RefJobs.class);
			verified = JobFixtures
				.await(jobs,
						jobs.launch(RefJobType.VERIFY, Map.of(JobParameterNames.REPOSITORY, "leased"), "ann")
							.executionId())
				.executionId();
			path = jobs.find(verified).orElseThrow().parameters().get(JobParameterNames.REPOSITORY_PATH);
			leased = System.nanoTime();
			new JobLeases(context.getBean(JdbcTemplate.class), "dead-instance", LEASE,
					context.getBean(TaskScheduler.class))
				.acquire(path, "maintainRefsJob");
		}
		try (ConfigurableApplicationContext context = BatchTestApplication.start(db, root, "second")) {
			RefJobs jobs = context.getBean(RefJobs.class);
			JobSummary kept = jobs.find(verified).orElseThrow();
			assertThat(kept.status()).isEqualTo(JobStatus.COMPLETED);
			assertThat(kept.actor()).isEqualTo("ann");
			assertThat(kept.results()).containsKey("verify.digest");
			assertThat(context.getBean(JobLeases.class).find(path)).get()
				.extracting(JobLeases.Lease::ownerInstance)
				.isEqualTo("dead-instance");
			assertThatThrownBy(
					() -> jobs.launch(RefJobType.MAINTAIN, Map.of(JobParameterNames.REPOSITORY, "leased"), "bob"))
				.isInstanceOf(JobConflictException.class)
				.hasMessageContaining("on instance 'dead-instance' holds its lease until");

			// long enough for the second instance to start on a busy machine, then waited
			// out: launches are refused until the lease has run out, not before
			long launched = await("the dead instance's lease to run out").atMost(LEASE.plusSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.ignoreExceptionsInstanceOf(JobConflictException.class)
				.until(() -> jobs.launch(RefJobType.MAINTAIN, Map.of(JobParameterNames.REPOSITORY, "leased"), "bob")
					.executionId(), (execution) -> true);
			assertThat(Duration.ofNanos(System.nanoTime() - leased)).as("the lease held until it ran out")
				.isGreaterThanOrEqualTo(LEASE.minusSeconds(1));
			JobSummary maintained = JobFixtures.await(jobs, launched);
			assertThat(maintained.status()).isEqualTo(JobStatus.COMPLETED);
			// the listener releases the lease right after the end time is recorded
			await("the lease to be released").atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> context.getBean(JobLeases.class).find(path).isEmpty());
		}
	}

	private static org.springframework.batch.infrastructure.item.ExecutionContext stepContext(
			ConfigurableApplicationContext context, JobSummary execution, String step) {
		long id = execution.steps()
			.stream()
			.filter((s) -> s.name().equals(step))
			.findFirst()
			.orElseThrow()
			.stepExecutionId();
		return context.getBean(JobRepository.class).getStepExecution(id).getExecutionContext();
	}

	/** Whether {@code file} holds {@code text} now (false while it is missing). */
	private static boolean contains(Path file, String text) {
		try {
			return Files.readString(file).contains(text);
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Runs the job in a child process and kills it once {@code step} has committed five
	 * chunks.
	 */
	private static long runAndKill(Path db, Path root, String step, RefJobType type, String... parameters)
			throws Exception {
		Process child = startJob(db, root, type, parameters);
		try {
			long execution = executionId(child);
			awaitCommits(db, execution, step, 5);
			child.destroyForcibly();
			child.waitFor();
			return execution;
		}
		finally {
			child.destroyForcibly();
		}
	}

	/**
	 * Runs the job in a child process and kills it as soon as {@code file} exists (polled
	 * every millisecond).
	 */
	private static long runAndKillOnFile(Path db, Path root, Path file, RefJobType type, String... parameters)
			throws Exception {
		return runAndKillWhen(db, root, file.getFileName() + " to appear", () -> Files.exists(file), type, parameters);
	}

	/**
	 * Runs the job in a child process and kills it as soon as {@code condition} holds
	 * (polled every millisecond).
	 */
	private static long runAndKillWhen(Path db, Path root, String what, Callable<Boolean> condition, RefJobType type,
			String... parameters) throws Exception {
		Process child = startJob(db, root, type, parameters);
		try {
			long execution = executionId(child);
			await(what).atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(1))
				.until(() -> condition.call() || !child.isAlive());
			child.destroyForcibly();
			child.waitFor();
			return execution;
		}
		finally {
			child.destroyForcibly();
		}
	}

	/**
	 * Starts {@link KilledJobMain} launching the job in a child process on the same
	 * history database, with the JVM flags the other tests' child processes get (the web
	 * tests' applications, the refstore command): C1 only and the serial collector, which
	 * start an application quicker on two cores.
	 */
	private static Process startJob(Path db, Path root, RefJobType type, String... parameters) throws Exception {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
						"-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), KilledJobMain.class.getName(),
						db.toString(), root.toString(), "kill-instance", type.name()));
		command.addAll(List.of(parameters));
		return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
	}

	private static long executionId(Process child) throws Exception {
		BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
		for (String line = out.readLine(); line != null; line = out.readLine()) {
			if (line.startsWith("execution ")) {
				return Long.parseLong(line.substring("execution ".length()).strip());
			}
		}
		throw new AssertionError("the child process ended without launching: exit " + child.waitFor());
	}

	private static void awaitCommits(Path db, long execution, String step, int commits) throws Exception {
		try (Connection connection = DriverManager.getConnection(BatchTestApplication.url(db), "sa", "")) {
			PreparedStatement query = connection.prepareStatement(
					"SELECT COMMIT_COUNT FROM BATCH_STEP_EXECUTION" + " WHERE JOB_EXECUTION_ID = ? AND STEP_NAME = ?");
			query.setLong(1, execution);
			query.setString(2, step);
			await(step + " of execution " + execution + " to commit " + commits + " chunks")
				.atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> {
					try (ResultSet rows = query.executeQuery()) {
						return rows.next() && rows.getLong(1) >= commits;
					}
				});
		}
	}

}
