package io.refstore.core.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several processes, git's and refstore's, writing one repository at once. (a)
 * Compare-and-swap on one shared ref along a chain of commits: every success moves the
 * ref exactly one step, so its final position equals the number of successes all workers
 * report, and its reflog holds exactly those steps, each from the previous commit to the
 * next. (b) Distinct refs per worker while {@code packed-refs} is rewritten by both
 * programs ({@code pack-refs --all}, deletions of packed refs): every update lands,
 * perhaps after lock retries, no ref ever shows a value its worker did not write, and
 * nothing is left corrupt ({@code git fsck}, {@code show-ref}, no lock files).
 *
 * <p>
 * System property {@code refstore.concurrent.workers}: {@code refstore} (default: 2 git
 * and 2 refstore workers) or {@code git} (4 git workers, to prove the harness).
 */
class ConcurrentUpdateIT {

	private static final String SHARED = "refs/heads/shared";

	private static final int CHAIN = 300;

	/** The steps git may take before it waits for a refstore worker to land one. */
	private static final int GIT_HEAD_START = 30;

	private final GitCli git = GitCli.system();

	@Test
	void compareAndSwapOnOneRefMovesItOneStepPerSuccess(@TempDir Path dir) throws Exception {
		TempRepo repo = TempRepo.init(this.git, dir.resolve("repo"));
		List<String> chain = repo.commits(CHAIN, "chain");
		Map<String, Integer> position = new HashMap<>();
		for (int i = 0; i < chain.size(); i++) {
			position.put(chain.get(i), i);
		}
		repo.git("update-ref", "-m", "start", SHARED, chain.get(0));
		List<Worker> workers = workers(repo);
		CyclicBarrier ready = new CyclicBarrier(workers.size());
		AtomicInteger gitWins = new AtomicInteger();
		AtomicInteger refstoreWins = new AtomicInteger();
		List<int[]> results = runAll(workers, (worker) -> () -> {
			int[] counts = new int[2];
			Random random = new Random(worker.name.hashCode());
			worker.session.warmUp();
			ready.await(2, TimeUnit.MINUTES);
			for (String current = readLoose(repo, SHARED); position.get(current) < CHAIN - 1; current = readLoose(repo,
					SHARED)) {
				boolean git = worker.name.startsWith("git");
				if (git && refstoreWins.get() == 0 && gitWins.get() >= GIT_HEAD_START) {
					// git's processes start in milliseconds, a JVM in a tenth of a
					// second:
					// on a loaded machine git could take every step before a refstore
					// session lands one, so git gives way until one has
					Thread.sleep(20);
					continue;
				}
				String next = chain.get(position.get(current) + 1);
				boolean won = worker.session.transact("update " + SHARED + " " + next + " " + current + "\n");
				counts[won ? 0 : 1]++;
				if (won) {
					(git ? gitWins : refstoreWins).incrementAndGet();
				}
				// a refused session ends its process: start the next one before reading
				// the ref again, and pace
				// every worker a little, so that a JVM's start-up does not shut refstore
				// out of the race
				worker.session.warmUp();
				Thread.sleep(random.nextInt(15));
			}
			return counts;
		});
		int successes = results.stream().mapToInt((counts) -> counts[0]).sum();
		int finalPosition = position.get(readLoose(repo, SHARED));
		report("compare-and-swap", workers, results);
		assertThat(finalPosition).isEqualTo(CHAIN - 1);
		assertThat(successes).as("successes reported by all workers").isEqualTo(finalPosition);
		// per program, not per worker: a JVM's start-up after each refusal may leave one
		// refstore worker behind
		for (String program : List.of("git", "refstore")) {
			int ok = 0;
			for (int i = 0; i < workers.size(); i++) {
				ok += workers.get(i).name.startsWith(program) ? results.get(i)[0] : 0;
			}
			assertThat(ok).as("successful updates by the %s workers", program).isPositive();
		}
		assertReflogSteps(repo, chain);
		assertIntact(repo);
	}

	private void assertReflogSteps(TempRepo repo, List<String> chain) throws IOException {
		List<String> lines = Files.readAllLines(repo.gitDir().resolve("logs/" + SHARED));
		assertThat(lines).as("one reflog entry for the creation and one per success").hasSize(CHAIN);
		for (int i = 0; i < lines.size(); i++) {
			String old = (i == 0) ? RefModel.ZERO : chain.get(i - 1);
			assertThat(lines.get(i)).as("reflog entry %d", i).startsWith(old + " " + chain.get(i) + " ");
		}
		String shown = repo.git("reflog", "show", "--format=%H", SHARED);
		assertThat(shown.lines().count()).as("entries git's reflog walk shows").isEqualTo(CHAIN);
	}

	@Test
	void updatesOfDistinctRefsAllLandWhilePackedRefsIsRewritten(@TempDir Path dir) throws Exception {
		TempRepo repo = TempRepo.init(this.git, dir.resolve("repo"));
		List<String> values = repo.commits(64, "value");
		List<Worker> workers = workers(repo);
		StringBuilder creates = new StringBuilder();
		for (Worker worker : workers) {
			for (int j = 0; j < DistinctRefsWorker.REFS; j++) {
				creates.append("create ")
					.append(DistinctRefsWorker.refName(worker.name, j))
					.append(' ')
					.append(values.get(0))
					.append('\n');
			}
		}
		repo.run(creates.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("pack-refs", "--all");
		PackedRefsChurn churn = new PackedRefsChurn(repo, refstoreOrGit(), values.get(1));
		List<DistinctRefsWorker> distinct = new ArrayList<>();
		// git's sessions do not delete: see DistinctRefsWorker
		workers.forEach((worker) -> distinct.add(new DistinctRefsWorker(repo, worker.name, worker.session, values,
				churn::rounds, worker.name.hashCode(), !worker.git)));
		ExecutorService pool = Executors.newFixedThreadPool(workers.size() + 1);
		try {
			Future<?> maintenance = pool
				.submit(() -> churn.runUntil(() -> distinct.stream().allMatch(DistinctRefsWorker::done)));
			List<Future<?>> running = new ArrayList<>();
			distinct.forEach((worker) -> running.add(pool.submit(worker::run)));
			for (Future<?> future : running) {
				future.get(4, TimeUnit.MINUTES);
			}
			maintenance.get(4, TimeUnit.MINUTES);
		}
		finally {
			pool.shutdownNow();
			workers.forEach((worker) -> worker.session.close());
		}
		System.out.println("[ConcurrentUpdateIT] distinct refs: " + churn + "; workers: " + distinct);
		assertThat(churn.rewrites()).as("packed-refs rewrites while the workers ran").isGreaterThanOrEqualTo(6);
		for (DistinctRefsWorker worker : distinct) {
			assertThat(worker.violations()).as("values %s saw that it did not write", worker).isEmpty();
			worker.expected().forEach((name, value) -> {
				String actual = this.git.run(repo.dir(), "rev-parse", "--verify", "-q", name).stdout().trim();
				assertThat(actual).as(name).isEqualTo((value == null) ? "" : value);
			});
		}
		assertIntact(repo);
	}

	/**
	 * The refstore jar for refstore workers, or git if the property asks for git
	 * everywhere.
	 */
	private GitCli refstoreOrGit() {
		return System.getProperty("refstore.concurrent.workers", "refstore").equals("git") ? this.git
				: GitCli.refstore();
	}

	private List<Worker> workers(TempRepo repo) {
		GitCli refstore = refstoreOrGit();
		List<Worker> workers = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			GitCli program = (i % 2 == 0) ? this.git : refstore;
			String name = ((i % 2 == 0) ? "git" : "refstore") + i;
			workers.add(new Worker(name,
					new UpdateRefProcess(program.command(), program.env(), repo.dir(), "worker " + name),
					program == this.git));
		}
		return workers;
	}

	/**
	 * @param git whether git runs the session (else refstore)
	 */
	private record Worker(String name, UpdateRefProcess session, boolean git) {

	}

	private interface Task<T> {

		Callable<T> of(Worker worker);

	}

	private static <T> List<T> runAll(List<Worker> workers, Task<T> task) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(workers.size());
		try {
			List<Future<T>> futures = new ArrayList<>();
			workers.forEach((worker) -> futures.add(pool.submit(task.of(worker))));
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get(4, TimeUnit.MINUTES));
			}
			return results;
		}
		finally {
			pool.shutdownNow();
			workers.forEach((worker) -> worker.session.close());
		}
	}

	private static void report(String what, List<Worker> workers, List<int[]> results) {
		StringBuilder line = new StringBuilder("[ConcurrentUpdateIT] " + what + ":");
		for (int i = 0; i < workers.size(); i++) {
			line.append(' ')
				.append(workers.get(i).name)
				.append(" ok ")
				.append(results.get(i)[0])
				.append(" refused ")
				.append(results.get(i)[1])
				.append(" processes ")
				.append(workers.get(i).session.starts())
				.append(';');
		}
		System.out.println(line);
	}

	/**
	 * Reads a loose ref's file (renames replace it atomically, so it is never missing
	 * while the ref exists).
	 */
	static String readLoose(TempRepo repo, String name) {
		try {
			return Files.readString(repo.gitDir().resolve(name)).trim();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * git fsck is clean, show-ref parses, refstore's show-ref agrees, and no lock or
	 * temporary file is left.
	 */
	private void assertIntact(TempRepo repo) throws IOException {
		GitCli.Result fsck = this.git.run(repo.dir(), "fsck", "--no-dangling");
		assertThat(fsck.exitCode()).as("git fsck: %s", fsck.stderr()).isZero();
		assertThat((fsck.stdout() + fsck.stderr()).lines().filter((line) -> !line.startsWith("notice:")))
			.as("git fsck output")
			.isEmpty();
		GitCli.Result showRef = this.git.run(repo.dir(), "show-ref").requireOk();
		assertThat(showRef.stdout().lines()).allMatch((line) -> line.matches("[0-9a-f]{40} refs/\\S+"));
		GitCli.Result refstoreShowRef = refstoreOrGit().run(repo.dir(), "show-ref");
		assertThat(refstoreShowRef.stdout()).as("refstore show-ref").isEqualTo(showRef.stdout());
		try (Stream<Path> files = Files.walk(repo.gitDir())) {
			assertThat(files.map((path) -> repo.gitDir().relativize(path).toString())
				.filter((path) -> path.endsWith(".lock") || path.endsWith("packed-refs.new"))
				.toList()).as("lock and temporary files left behind").isEmpty();
		}
	}

}
