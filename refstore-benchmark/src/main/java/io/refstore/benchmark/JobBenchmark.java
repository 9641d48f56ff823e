package io.refstore.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;

import io.refstore.batch.RefBatchConfiguration;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.migrate.MigrationOptions;
import io.refstore.core.migrate.MigrationReport;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;

/**
 * Times {@code migrateRefsJob} against the core's direct migration
 * ({@link FormatMigrator}) on fresh copies of the same repository, alternating core and
 * job run by run in one JVM, and prints each run, the medians and their ratio (the target
 * is a job at most 1.5 times the core). A job is timed from its launch to the end the job
 * repository records (both from this JVM's clock), without the application's start. The
 * waiting thread sleeps until the job's end event and only then reads the job repository:
 * polling it while the job runs took CPU and memory bandwidth from the job (each poll
 * reads and deserializes every step's context). With {@code rollback}, each migrated copy
 * is then rolled back, the core's by {@link FormatMigrator#rollback(Path)} and the job's
 * by {@code rollbackMigrationJob}, and the rollbacks are set against the migrations they
 * undo (the target is at most 1.5 times). With {@code restore} instead of a format, each
 * run deletes the refs under a prefix with {@code deleteRefsJob} and brings them back
 * with {@code restoreRefsJob} from the deletion's manifests, and sets the restore against
 * the deletion (the target is at most 1.5 times).
 *
 * <pre>
 * ./mvnw -q -o -pl refstore-benchmark -am package -DskipTests dependency:build-classpath -Dmdep.outputFile=/tmp/refstore-cp.txt
 * java -Xmx3g -cp refstore-benchmark/target/classes:$(cat /tmp/refstore-cp.txt) io.refstore.benchmark.JobBenchmark \
 *     /tmp/refstore-bench/corpus-1000000/files.git reftable [chunkSize (100000) [runs (3) [rollback]]]
 * java ... io.refstore.benchmark.JobBenchmark /tmp/refstore-bench/corpus-100000/files.git restore refs/pull/ [runs (3)]
 * </pre> The repository (for example a corpus of {@link Benchmark}) is copied into a
 * temporary directory before every run, outside the timed part; it is never changed.
 */
public final class JobBenchmark {

	/**
	 * How often the end the job repository records is looked for, once the job's end
	 * event came.
	 */
	private static final Duration POLL = Duration.ofMillis(5);

	private JobBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Path source = Path.of(args[0]);
		if (args[1].equals("restore")) {
			restores(source, args[2], (args.length > 3) ? Integer.parseInt(args[3]) : 3);
			return;
		}
		RefFormat target = RefFormat.fromConfigName(args[1]);
		// the job's own default (JobParameterValidator)
		String chunkSize = (args.length > 2) ? args[2] : "100000";
		int runs = (args.length > 3) ? Integer.parseInt(args[3]) : 3;
		// "rollback": each migration is then rolled back, by the core and by the job
		boolean rollback = args.length > 4 && args[4].equals("rollback");
		Path work = Files.createTempDirectory("refstore-job-bench");
		Path roots = Files.createDirectories(work.resolve("roots"));
		try (ConfigurableApplicationContext context = start(work, roots)) {
			RefJobs jobs = context.getBean(RefJobs.class);
			JobEnds ends = context.getBean(JobEnds.class);
			List<Long> cores = new ArrayList<>();
			List<Long> jobTimes = new ArrayList<>();
			List<Long> coreRollbacks = new ArrayList<>();
			List<Long> jobRollbacks = new ArrayList<>();
			MigrationReport report = null;
			for (int run = 1; run <= runs; run++) {
				Path core = work.resolve("core-" + run + ".git");
				copy(source, core);
				long started = System.nanoTime();
				try (Repository repository = Repository.open(core)) {
					report = new FormatMigrator(repository).migrate(MigrationOptions.to(target));
				}
				cores.add(System.nanoTime() - started);
				if (rollback) {
					started = System.nanoTime();
					try (Repository repository = Repository.open(core)) {
						new FormatMigrator(repository).rollback(report.backup());
					}
					coreRollbacks.add(System.nanoTime() - started);
				}
				RepoFiles.deleteTree(core);

				String name = "job-" + run + ".git";
				copy(source, roots.resolve(name));
				LocalDateTime launched = LocalDateTime.now();
				JobSummary done = runJob(jobs, ends, name, target, chunkSize);
				if (!done.results().get("migration.targetDigest").equals(report.targetDigest())) {
					throw new IllegalStateException("the job's store differs from the core's");
				}
				long job = Duration.between(launched, done.ended()).toNanos();
				jobTimes.add(job);
				System.out.printf("run %d: core %.2f s, job %.2f s (%s), ratio %.2f%n", run, cores.get(run - 1) / 1e9,
						job / 1e9, steps(done), (double) job / cores.get(run - 1));
				if (rollback) {
					launched = LocalDateTime.now();
					JobSummary rolledBack = await(jobs, ends, jobs.launch(RefJobType.ROLLBACK,
							Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.BACKUP,
									Path.of(done.results().get(JobResults.MIGRATION_BACKUP)).getFileName().toString()),
							"benchmark")
						.executionId());
					jobRollbacks.add(Duration.between(launched, rolledBack.ended()).toNanos());
					System.out.printf("run %d: rollback: core %.2f s, job %.2f s (%s)%n", run,
							coreRollbacks.get(run - 1) / 1e9, jobRollbacks.get(run - 1) / 1e9, steps(rolledBack));
				}
				RepoFiles.deleteTree(roots.resolve(name));
			}
			System.out.printf("refs %d, %s -> %s, chunk %s, %d runs, medians:%n", report.refs(),
					report.from().configName(), target.configName(), chunkSize, runs);
			System.out.printf("core FormatMigrator: %.2f s%n", median(cores) / 1e9);
			System.out.printf("migrateRefsJob:      %.2f s%n", median(jobTimes) / 1e9);
			System.out.printf("ratio job/core:      %.2f%n", (double) median(jobTimes) / median(cores));
			if (rollback) {
				System.out.printf("core rollback:       %.2f s (%.2f of the core's migration)%n",
						median(coreRollbacks) / 1e9, (double) median(coreRollbacks) / median(cores));
				System.out.printf("rollbackMigrationJob: %.2f s (%.2f of the job's migration)%n",
						median(jobRollbacks) / 1e9, (double) median(jobRollbacks) / median(jobTimes));
			}
		}
		RepoFiles.deleteTree(work);
	}

	/**
	 * Deletes the refs under {@code prefix} of copies of {@code source} with
	 * {@code deleteRefsJob} and restores them with {@code restoreRefsJob}, {@code runs}
	 * times, and prints each run and the medians.
	 */
	private static void restores(Path source, String prefix, int runs) throws Exception {
		Path work = Files.createTempDirectory("refstore-job-bench");
		Path roots = Files.createDirectories(work.resolve("roots"));
		try (ConfigurableApplicationContext context = start(work, roots)) {
			RefJobs jobs = context.getBean(RefJobs.class);
			JobEnds ends = context.getBean(JobEnds.class);
			List<Long> deletions = new ArrayList<>();
			List<Long> restores = new ArrayList<>();
			String deleted = null;
			for (int run = 1; run <= runs; run++) {
				String name = "job-" + run + ".git";
				copy(source, roots.resolve(name));
				LocalDateTime launched = LocalDateTime.now();
				JobSummary deletion = await(jobs, ends, jobs
					.launch(RefJobType.DELETE,
							Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.PREFIXES, prefix), "benchmark")
					.executionId());
				deletions.add(Duration.between(launched, deletion.ended()).toNanos());
				deleted = deletion.results().get(JobResults.PLAN_COUNT);
				String manifests = Path.of(deletion.results().get(JobResults.PLAN_PATH))
					.getParent()
					.getFileName()
					.toString();
				launched = LocalDateTime.now();
				JobSummary restore = await(jobs, ends,
						jobs.launch(RefJobType.RESTORE,
								Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.MANIFEST, manifests),
								"benchmark")
							.executionId());
				restores.add(Duration.between(launched, restore.ended()).toNanos());
				if (!restore.results().get(JobResults.RESTORE_RESTORED).equals(deleted)) {
					throw new IllegalStateException("deleted " + deleted + " refs, restored "
							+ restore.results().get(JobResults.RESTORE_RESTORED));
				}
				System.out.printf("run %d: deleteRefsJob %.2f s (%s), restoreRefsJob %.2f s (%s), ratio %.2f%n", run,
						deletions.get(run - 1) / 1e9, steps(deletion), restores.get(run - 1) / 1e9, steps(restore),
						(double) restores.get(run - 1) / deletions.get(run - 1));
				RepoFiles.deleteTree(roots.resolve(name));
			}
			System.out.printf("%s refs under %s, %d runs, medians:%n", deleted, prefix, runs);
			System.out.printf("deleteRefsJob:  %.2f s%n", median(deletions) / 1e9);
			System.out.printf("restoreRefsJob: %.2f s (%.2f of the deletion)%n", median(restores) / 1e9,
					(double) median(restores) / median(deletions));
		}
		RepoFiles.deleteTree(work);
	}

	/** Launches the migration of {@code name} and waits for its end. */
	private static JobSummary runJob(RefJobs jobs, JobEnds ends, String name, RefFormat target, String chunkSize)
			throws InterruptedException {
		return await(
				jobs, ends, jobs
					.launch(RefJobType.MIGRATE,
							Map.of(JobParameterNames.REPOSITORY, name, JobParameterNames.TARGET_FORMAT,
									target.configName(), JobParameterNames.CHUNK_SIZE, chunkSize),
							"benchmark")
					.executionId());
	}

	/**
	 * The jobs' application, its database in {@code work}, its repositories in
	 * {@code roots}.
	 */
	private static ConfigurableApplicationContext start(Path work, Path roots) {
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
			.properties("spring.datasource.url=jdbc:h2:file:" + work.resolve("db/history") + ";WRITE_DELAY=0",
					"spring.datasource.username=sa", "spring.batch.jdbc.initialize-schema=never",
					"spring.flyway.locations=classpath:db/migration,classpath:db/{vendor}",
					"spring.batch.job.enabled=false", "spring.main.banner-mode=off", "logging.level.root=WARN",
					"refstore.repositories.roots=" + roots, "refstore.jobs.instance-id=benchmark")
			.run();
	}

	/** Waits for the end of execution {@code id}, which must complete. */
	private static JobSummary await(RefJobs jobs, JobEnds ends, long id) throws InterruptedException {
		ends.await(id);
		JobSummary done = jobs.find(id).orElseThrow();
		while (done.ended() == null) {
			Thread.sleep(POLL.toMillis());
			done = jobs.find(id).orElseThrow();
		}
		if (done.status() != JobStatus.COMPLETED) {
			throw new IllegalStateException("the job ended " + done.status() + ": " + done.exitMessage());
		}
		return done;
	}

	private static String steps(JobSummary done) {
		StringBuilder steps = new StringBuilder();
		for (JobSummary.StepSummary step : done.steps()) {
			steps.append((steps.length() == 0) ? "" : ", ")
				.append(step.name())
				.append(' ')
				.append(String.format("%.2f s", Duration.between(step.started(), step.ended()).toNanos() / 1e9));
		}
		return steps.toString();
	}

	private static long median(List<Long> values) {
		List<Long> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		return sorted.get(sorted.size() / 2);
	}

	private static void copy(Path from, Path to) throws IOException, InterruptedException {
		Process cp = new ProcessBuilder(List.of("cp", "-a", from.toString(), to.toString())).inheritIO().start();
		if (cp.waitFor() != 0) {
			throw new IOException("cannot copy " + from + " to " + to);
		}
	}

	/**
	 * The application around the jobs: the refstore job configuration and Boot's
	 * auto-configuration.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(RefBatchConfiguration.class)
	static class App {

		@Bean
		JobEnds jobEnds() {
			return new JobEnds();
		}

	}

	/**
	 * The executions that ended, from the jobs' {@link RefJobEvent.Action#FINISH} events.
	 */
	static final class JobEnds {

		private final BlockingQueue<Long> ended = new LinkedBlockingQueue<>();

		@EventListener
		void on(RefJobEvent event) {
			if (event.action() == RefJobEvent.Action.FINISH && event.executionId() != null) {
				this.ended.add(event.executionId());
			}
		}

		/** Waits until execution {@code id} ended, at most 30 minutes. */
		void await(long id) throws InterruptedException {
			long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
			while (true) {
				Long next = this.ended.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
				if (next == null) {
					throw new IllegalStateException("execution " + id + " did not end within 30 minutes");
				}
				if (next == id) {
					return;
				}
			}
		}

	}

}
