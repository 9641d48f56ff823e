package io.refstore.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.TaskScheduler;

import io.refstore.batch.api.ExclusiveWork;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.batch.support.JobLeases;
import io.refstore.core.ref.RefFormat;

/**
 * The application's one distributed lock, {@link ExclusiveWork} over the jobs' lease
 * table, between two instances sharing an H2 database: work runs alone across instances
 * and threads, a waiter runs once the holder ends, an instance that dies during its work
 * frees it when the lease runs out (3 s here), as does one holding a role; and an
 * instance started again drops the leases of its previous life, which its heartbeat would
 * otherwise renew for ever.
 */
class JobLeasesIT {

	@TempDir
	Path dir;

	@Test
	void workRunsAloneAcrossInstancesAndThreadsAndAWaiterRunsOnceTheHolderEnds() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		Path db = this.dir.resolve("db/leases");
		try (ConfigurableApplicationContext a = BatchTestApplication.start(db, root, "a");
				ConfigurableApplicationContext b = BatchTestApplication.start(db, root, "b")) {
			ExclusiveWork first = a.getBean(ExclusiveWork.class);
			ExclusiveWork second = b.getBean(ExclusiveWork.class);
			List<String> order = new CopyOnWriteArrayList<>();
			CountDownLatch holding = new CountDownLatch(1);
			CountDownLatch end = new CountDownLatch(1);
			CompletableFuture<Boolean> held = CompletableFuture
				.supplyAsync(() -> first.runAlone("campaign-1", Duration.ZERO, () -> {
					order.add("a starts");
					holding.countDown();
					await(end);
					order.add("a ends");
				}));
			assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(second.runAlone("campaign-1", Duration.ZERO, () -> order.add("b ran")))
				.as("another instance, while it is held")
				.isFalse();
			assertThat(first.runAlone("campaign-1", Duration.ZERO, () -> order.add("a ran again")))
				.as("another thread of the holding instance")
				.isFalse();
			assertThat(second.runAlone("campaign-2", Duration.ZERO, () -> order.add("b ran campaign-2")))
				.as("other work")
				.isTrue();
			CompletableFuture<Boolean> waiter = CompletableFuture
				.supplyAsync(() -> second.runAlone("campaign-1", Duration.ofSeconds(30), () -> order.add("b ran")));
			Awaitility.await("the waiter to keep waiting while the lease is held")
				.during(Duration.ofMillis(500))
				.atMost(Duration.ofSeconds(5))
				.until(() -> !waiter.isDone());
			end.countDown();
			assertThat(held.get(30, TimeUnit.SECONDS)).isTrue();
			assertThat(waiter.get(30, TimeUnit.SECONDS)).as("the waiter, once the holder ended").isTrue();
			assertThat(order).containsExactly("a starts", "b ran campaign-2", "a ends", "b ran");
			assertThat(a.getBean(JobLeases.class).all()).as("leases left").isEmpty();
		}
	}

	@Test
	void anInstanceThatDiesDuringItsWorkFreesItWhenItsLeaseRunsOut() throws Exception {
		try (ConfigurableApplicationContext survivor = survivor()) {
			JobLeases dead = heartless(survivor, "dead");
			CountDownLatch holding = new CountDownLatch(1);
			CountDownLatch never = new CountDownLatch(1);
			CompletableFuture.runAsync(() -> dead.runAlone("schedule-queue", Duration.ZERO, () -> {
				holding.countDown();
				await(never);
			}));
			assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
			ExclusiveWork work = survivor.getBean(ExclusiveWork.class);
			assertThat(work.runAlone("schedule-queue", Duration.ZERO, () -> {
			})).as("while the dead instance's lease lives").isFalse();
			long start = System.nanoTime();
			assertThat(work.runAlone("schedule-queue", Duration.ofSeconds(30), () -> {
			})).as("once it ran out").isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
			never.countDown();
		}
	}

	@Test
	void aHeldRoleStaysWithItsInstanceUntilItsLeaseRunsOut() throws Exception {
		try (ConfigurableApplicationContext survivor = survivor()) {
			JobLeases dying = heartless(survivor, "dying");
			ExclusiveWork work = survivor.getBean(ExclusiveWork.class);
			assertThat(dying.holdAlone("fleet-metrics")).isTrue();
			assertThat(dying.holdAlone("fleet-metrics")).as("asked again by its holder").isTrue();
			assertThat(work.holdAlone("fleet-metrics")).as("another instance, while it is held").isFalse();
			assertThat(work.runAlone("fleet-metrics", Duration.ZERO, () -> {
			})).as("no one works under a held role").isFalse();
			Awaitility.await("the dead holder's lease to run out")
				.atMost(Duration.ofSeconds(30))
				.until(() -> work.holdAlone("fleet-metrics"));
			assertThat(dying.holdAlone("fleet-metrics")).as("the old holder, once it was taken over").isFalse();
			Awaitility.await("the holder's heartbeat to keep it past its time to live")
				.during(Duration.ofSeconds(5))
				.atMost(Duration.ofSeconds(10))
				.until(() -> work.holdAlone("fleet-metrics") && !dying.holdAlone("fleet-metrics"));
		}
	}

	/** An instance {@code survivor} on the test's database and root. */
	private ConfigurableApplicationContext survivor() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		return BatchTestApplication.start(this.dir.resolve("db/leases"), root, "survivor");
	}

	/**
	 * Another instance's leases on {@code survivor}'s database, whose heartbeat never
	 * runs: dead once its leases (3 s) run out.
	 */
	private static JobLeases heartless(ConfigurableApplicationContext survivor, String name) {
		return new JobLeases(survivor.getBean(JdbcTemplate.class), name, Duration.ofSeconds(3),
				survivor.getBean(TaskScheduler.class));
	}

	@Test
	void anInstanceStartedAgainDropsTheLeasesOfItsPreviousLife() throws Exception {
		Path root = Files.createDirectories(this.dir.resolve("repos"));
		JobFixtures.create(root, "claimed", RefFormat.FILES, 3);
		Path db = this.dir.resolve("db/leases");
		String path;
		try (ConfigurableApplicationContext first = BatchTestApplication.start(db, root, "same")) {
			RefJobs jobs = first.getBean(RefJobs.class);
			long verified = JobFixtures
				.await(jobs,
						jobs.launch(RefJobType.VERIFY, Map.of(JobParameterNames.REPOSITORY, "claimed"), "ann")
							.executionId())
				.executionId();
			path = jobs.find(verified).orElseThrow().parameters().get(JobParameterNames.REPOSITORY_PATH);
			// what a kill leaves, renewed until the kill: a launch's claim on the
			// repository, a campaign pass's lease, and another instance's lease
			JdbcTemplate jdbc = first.getBean(JdbcTemplate.class);
			Timestamp now = Timestamp.from(Instant.now());
			Timestamp hourLater = Timestamp.from(Instant.now().plusSeconds(3600));
			for (Object[] row : List.of(new Object[] { path, "maintainRefsJob", "same" },
					new Object[] { "work:campaign-7", "exclusive work", "same" },
					new Object[] { "work:campaign-8", "exclusive work", "other" })) {
				jdbc.update(
						"INSERT INTO REFSTORE_JOB_LEASE (REPOSITORY, JOB_NAME, EXECUTION_ID, OWNER_INSTANCE,"
								+ " ACQUIRED, HEARTBEAT, EXPIRES_AT) VALUES (?, ?, NULL, ?, ?, ?, ?)",
						row[0], row[1], row[2], now, now, hourLater);
			}
		}
		try (ConfigurableApplicationContext second = BatchTestApplication.start(db, root, "same")) {
			RefJobs jobs = second.getBean(RefJobs.class);
			assertThat(second.getBean(JobLeases.class).all()).extracting(JobLeases.Lease::repository)
				.containsExactly("work:campaign-8");
			long maintained = jobs.launch(RefJobType.MAINTAIN, Map.of(JobParameterNames.REPOSITORY, "claimed"), "bob")
				.executionId();
			assertThat(JobFixtures.await(jobs, maintained).status()).isEqualTo(JobStatus.COMPLETED);
			ExclusiveWork work = second.getBean(ExclusiveWork.class);
			assertThat(work.runAlone("campaign-7", Duration.ZERO, () -> {
			})).isTrue();
			assertThat(work.runAlone("campaign-8", Duration.ZERO, () -> {
			})).as("another instance's live lease").isFalse();
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
