package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.awaitility.Awaitility;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import com.jayway.jsonpath.DocumentContext;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The lost-write scenario shared by the tests of jobs run while everyone writes: API
 * clients creating refs in batches and one by one with {@code If-None-Match: *}, and git
 * processes (2.39 and 2.55) creating refs with {@code update-ref}, all under
 * {@code refs/heads/api/}, {@code refs/heads/git239/} and {@code refs/heads/git255/}.
 * {@link Writers#check} then holds the job to issue 14: every write that was confirmed (a
 * 200/201 answer, git's exit code 0) is in the repository with its value, as git 2.55
 * reads it; every batch is all or nothing; a write refused is never a 500, and a 503 says
 * when to retry.
 */
abstract class WritersTestSupport extends JobApiTestSupport {

	private static final int BATCH_CLIENTS = 4;

	private static final int CAS_CLIENTS = 2;

	private static final int BATCH_SIZE = 20;

	/** Every ref and its value, as git 2.55 reads the repository. */
	static Map<String, String> refs(TempRepo repo) {
		Map<String, String> refs = new HashMap<>();
		for (String line : GitCli.reftable()
			.ok(repo.dir(), "for-each-ref", "--format=%(objectname) %(refname)")
			.split("\n")) {
			if (!line.isEmpty()) {
				refs.put(line.substring(line.indexOf(' ') + 1), line.substring(0, line.indexOf(' ')));
			}
		}
		return refs;
	}

	/**
	 * A repository of {@code count} branches on one commit
	 * ({@link #repoWithBranches(String, int)}) in {@code format}: git 2.55 migrates it to
	 * reftable.
	 */
	static TempRepo repoWithBranches(String name, int count, String format) {
		TempRepo repo = repoWithBranches(name, count);
		if (format.equals("reftable")) {
			GitCli.reftable().ok(repo.dir(), "refs", "migrate", "--ref-format=reftable");
		}
		return repo;
	}

	/** The commit {@code refs/heads/main} names, as git 2.55 reads it. */
	static String main(TempRepo repo) {
		return GitCli.reftable().ok(repo.dir(), "rev-parse", "refs/heads/main").trim();
	}

	/**
	 * Launches a job by a POST of {@code json} to {@code path} as {@code user}; returns
	 * its execution id.
	 */
	long launch(String path, String json, String user) throws Exception {
		return id(this.mvc.perform(postJson(path, json).with(as(user))).andReturn().getResponse().getContentAsString());
	}

	/**
	 * Polls execution {@code id} until it has ended and, if it completed, its results
	 * hold {@code key} (see {@link #awaitResult}); returns its last view.
	 */
	DocumentContext awaitOutcome(long id, String key) throws Exception {
		return await(id, Duration.ofSeconds(90),
				(job) -> !job.read("$.running", Boolean.class)
						&& (!"COMPLETED".equals(job.read("$.status", String.class))
								|| job.read("$.results", Map.class).containsKey(key)));
	}

	/**
	 * The repository's ref format ({@code files} or {@code reftable}), as git 2.55 reads
	 * it.
	 */
	static String format(TempRepo repo) {
		return GitCli.reftable().ok(repo.dir(), "rev-parse", "--show-ref-format").trim();
	}

	/** One loop of a writer, called with 0, 1, 2, ... until the writers stop. */
	@FunctionalInterface
	interface Round {

		void run(int n) throws Exception;

	}

	/** The writers of one repository, from {@link #start} to {@link #stop}. */
	final class Writers {

		private final String name;

		private final TempRepo repo;

		private final String commit;

		/** The confirmed writes of the standard writers: ref to value. */
		final Map<String, String> confirmed = new ConcurrentHashMap<>();

		/** Answers by HTTP status, of every writer. */
		final Map<Integer, Integer> statuses = new ConcurrentHashMap<>();

		/** git runs by writer and outcome ({@code "git239 ok"}). */
		final Map<String, Integer> gitRuns = new ConcurrentHashMap<>();

		/** The first answer of every refusing status, for the summary. */
		private final Map<Integer, String> refusals = new ConcurrentHashMap<>();

		private final List<List<String>> okBatches = Collections.synchronizedList(new ArrayList<>());

		private final List<List<String>> refusedBatches = Collections.synchronizedList(new ArrayList<>());

		private final AtomicBoolean stop = new AtomicBoolean();

		private Duration pause = Duration.ZERO;

		private final ExecutorService pool = Executors.newCachedThreadPool();

		private final List<Future<?>> running = new ArrayList<>();

		/** Rounds the loops have finished, all together. */
		private final AtomicLong rounds = new AtomicLong();

		/** How long the job of {@link #around} took, launch and wait, in milliseconds. */
		private long jobMillis;

		/**
		 * Whether the repository used the files format when the writers started: git 2.39
		 * can write then.
		 */
		private boolean filesAtStart;

		/**
		 * Writers of repository {@code name} (made under the root as {@code repo}) that
		 * write {@code commit}.
		 */
		Writers(String name, TempRepo repo, String commit) {
			this.name = name;
			this.repo = repo;
			this.commit = commit;
		}

		/** Starts the batch clients, the CAS clients and the two git writers. */
		Writers start() {
			this.filesAtStart = format(this.repo).equals("files");
			for (int client = 0; client < BATCH_CLIENTS; client++) {
				int me = client;
				loop((n) -> batch("refs/heads/api/b" + me + "/" + n + "/"));
			}
			for (int client = 0; client < CAS_CLIENTS; client++) {
				int me = client;
				loop((n) -> {
					String ref = "refs/heads/api/cas" + me + "/" + n;
					MockHttpServletResponse response = send(put(refUri(this.name, ref, "")).header("If-None-Match", "*")
						.contentType(MediaType.APPLICATION_JSON)
						.content("{\"sha\": \"" + this.commit + "\"}"));
					if (response.getStatus() == 200 || response.getStatus() == 201) {
						this.confirmed.put(ref, this.commit);
					}
				});
			}
			for (String which : List.of("git239", "git255")) {
				loop((n) -> {
					String ref = "refs/heads/" + which + "/" + n;
					if (git(which, "update-ref", ref, this.commit).exitCode() == 0) {
						this.confirmed.put(ref, this.commit);
					}
				});
			}
			return this;
		}

		private void batch(String prefix) throws Exception {
			List<String> refs = new ArrayList<>();
			StringBuilder json = new StringBuilder("{\"updates\": [");
			for (int i = 0; i < BATCH_SIZE; i++) {
				refs.add(prefix + i);
				json.append((i > 0) ? "," : "")
					.append("{\"ref\": \"")
					.append(prefix + i)
					.append("\", \"new\": \"")
					.append(this.commit)
					.append("\"}");
			}
			MockHttpServletResponse response = send(
					post(repoUri(this.name, "/refs:batch")).contentType(MediaType.APPLICATION_JSON)
						.content(json.append("]}").toString()));
			if (response.getStatus() == 200) {
				refs.forEach((ref) -> this.confirmed.put(ref, this.commit));
				this.okBatches.add(refs);
			}
			else {
				this.refusedBatches.add(refs);
			}
		}

		/**
		 * Makes every loop pause {@code pause} after each round: fewer writes, as from
		 * clients that do something between them, for a test whose swaps read every ref.
		 */
		Writers paced(Duration pause) {
			this.pause = pause;
			return this;
		}

		/** Runs {@code round} in a thread of its own until the writers stop. */
		void loop(Round round) {
			this.running.add(this.pool.submit(() -> {
				for (int n = 0; !this.stop.get(); n++) {
					round.run(n);
					this.rounds.incrementAndGet();
					if (!this.pause.isZero()) {
						Thread.sleep(this.pause.toMillis());
					}
				}
				return null;
			}));
		}

		/**
		 * Sends {@code request} as {@code admin} and counts its answer; a 503 must say
		 * when to retry.
		 */
		MockHttpServletResponse send(MockHttpServletRequestBuilder request) throws Exception {
			MockHttpServletResponse response = WritersTestSupport.this.mvc.perform(request.with(as("admin")))
				.andReturn()
				.getResponse();
			this.statuses.merge(response.getStatus(), 1, Integer::sum);
			if (response.getStatus() >= 300) {
				this.refusals.putIfAbsent(response.getStatus(), response.getContentAsString());
			}
			if (response.getStatus() == 503) {
				assertThat(response.getHeader("Retry-After")).as("a 503 says when to retry").isNotBlank();
			}
			return response;
		}

		/**
		 * Runs git 2.39 ({@code "git239"}) or 2.55 ({@code "git255"}) in the repository
		 * and counts the outcome.
		 */
		GitCli.Result git(String which, String... args) {
			GitCli git = which.equals("git239") ? GitCli.system() : GitCli.reftable();
			GitCli.Result result = git.run(this.repo.dir(), args);
			this.gitRuns.merge(which + ((result.exitCode() == 0) ? " ok" : " failed"), 1, Integer::sum);
			return result;
		}

		/**
		 * Runs {@code job} (a launch and the wait for its end) while the writers write:
		 * it starts once the writers have finished as many rounds as there are loops, and
		 * they stop once they have finished as many more after it (not a fixed time,
		 * which a loaded machine may spend on other things); returns what it returned.
		 */
		<T> T around(Callable<T> job) throws Exception {
			try {
				awaitRounds(0);
				long started = System.nanoTime();
				T result = job.call();
				this.jobMillis = (System.nanoTime() - started) / 1_000_000;
				awaitRounds(this.rounds.get());
				return result;
			}
			finally {
				stop();
			}
		}

		/**
		 * Waits (at most a minute) for as many rounds after {@code from} as there are
		 * loops.
		 */
		private void awaitRounds(long from) {
			long loops = this.running.size();
			Awaitility.await(loops + " rounds of the writers")
				.atMost(Duration.ofMinutes(1))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> this.rounds.get() >= from + loops);
		}

		/** Stops every writer and waits for it; a writer that failed fails the test. */
		void stop() throws Exception {
			this.stop.set(true);
			try {
				for (Future<?> writer : this.running) {
					writer.get();
				}
			}
			finally {
				this.pool.shutdown();
			}
		}

		/**
		 * Checks issue 14 on the repository after the writers stopped: no 500, every
		 * confirmed write present with its value, every refused batch absent, writers of
		 * each kind confirmed something, and git's fsck passes.
		 * @return every ref and its value, as git 2.55 reads the repository
		 */
		Map<String, String> check() {
			assertThat(this.statuses).as("answers by status").doesNotContainKey(500).isNotEmpty();
			Map<String, String> present = refs(this.repo);
			Map<String, String> lost = new HashMap<>();
			this.confirmed.forEach((ref, value) -> {
				if (!value.equals(present.get(ref))) {
					lost.put(ref, present.get(ref));
				}
			});
			assertThat(lost.size())
				.as("confirmed writes lost (" + lost.size() + " of " + this.confirmed.size() + " confirmed, statuses "
						+ this.statuses + ", git " + this.gitRuns + "), some of them: "
						+ lost.entrySet().stream().limit(10).toList())
				.isZero();
			synchronized (this.refusedBatches) {
				for (List<String> batch : this.refusedBatches) {
					assertThat(batch).as("a refused batch wrote nothing").noneMatch(present::containsKey);
				}
			}
			assertThat(this.okBatches).as("batches confirmed").isNotEmpty();
			assertThat(this.gitRuns).as("git writers ran").containsKey("git255 ok");
			if (this.filesAtStart || format(this.repo).equals("files")) {
				assertThat(this.gitRuns).as("git 2.39 wrote while the store was files").containsKey("git239 ok");
			}
			assertThat(GitCli.reftable().run(this.repo.dir(), "fsck", "--no-dangling").exitCode()).isZero();
			System.out.println(this.name + ": job " + this.jobMillis + " ms, " + this.confirmed.size()
					+ " writes confirmed, " + this.okBatches.size() + " batches confirmed, "
					+ this.refusedBatches.size() + " refused; answers " + this.statuses + "; git " + this.gitRuns
					+ "; first refusals " + this.refusals);
			return present;
		}

	}

}
