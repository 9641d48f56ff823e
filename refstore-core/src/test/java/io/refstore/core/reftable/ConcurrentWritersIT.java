package io.refstore.core.reftable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * refstore threads and git processes write one reftable repository at the same time, each
 * write followed by its writer's auto-compaction: compare-and-swap updates of one shared
 * ref and creations of distinct refs. Afterwards every update reported successful is
 * there (distinct refs) or is a link of the shared ref's chain of values and of its
 * reflog, every failed one is absent, both verifiers pass and no lock is left.
 */
class ConcurrentWritersIT {

	private static final String SHARED = "refs/heads/shared";

	private static final int REFSTORE_OPS = 50;

	private static final int GIT_OPS = 25;

	@Test
	void refstoreThreadsAndGitProcessesWriteOneStackWithAutoCompaction(@TempDir Path dir) throws Exception {
		TempRepo repo = TempRepo.init(GitCli.reftable(), dir.resolve("repo"), "--ref-format=reftable");
		// long enough that most writers wait their turn instead of failing; failures are
		// still accounted for
		repo.git("config", "reftable.lockTimeout", "3000");
		List<String> commits = repo.commits(5 * 60 + 1, "c");
		repo.git("update-ref", SHARED, commits.get(0));
		Journal journal = new Journal();
		try (OpenedStore storeA = OpenedStore.open(repo.dir(), GitCli.FIXED_DATE);
				OpenedStore storeB = OpenedStore.open(repo.dir(), GitCli.FIXED_DATE)) {
			List<Callable<Void>> writers = List.of(() -> refstoreWriter("r0", storeA, commits.subList(1, 61), journal),
					() -> refstoreWriter("r1", storeA, commits.subList(61, 121), journal),
					() -> refstoreWriter("r2", storeB, commits.subList(121, 181), journal),
					() -> gitWriter("g0", repo, storeB, commits.subList(181, 241), journal),
					() -> gitWriter("g1", repo, storeB, commits.subList(241, 301), journal));
			runAll(writers, 240);
		}
		System.out.printf("concurrent writers: %s%n", journal.summary());

		try (OpenedStore opened = OpenedStore.open(repo.dir(), GitCli.FIXED_DATE)) {
			assertEveryCreateIsAccountedFor(opened, journal);
			List<String[]> chain = assertSharedRefIsOneChain(opened, commits.get(0), journal);
			assertReflogIsTheChain(repo, opened, commits.get(0), chain);
			assertThat(opened.store.verify()).isEmpty();
		}
		GitCli.Result verify = repo.run(new byte[0], "refs", "verify", "--strict");
		assertThat(verify.exitCode()).as(verify.stderr()).isZero();
		assertStackIsClean(repo, journal.successes());
	}

	@Test
	void readersRacingCompactorsSeeEveryRefAndPairsUpdatedTogether(@TempDir Path dir) throws Exception {
		TempRepo repo = TempRepo.init(GitCli.reftable(), dir.resolve("repo"), "--ref-format=reftable");
		repo.git("config", "reftable.lockTimeout", "3000");
		List<String> commits = repo.commits(41, "c");
		StringBuilder stable = new StringBuilder();
		for (int i = 0; i < 300; i++) {
			stable.append("create refs/stable/s").append(i).append(' ').append(commits.get(i % 10)).append('\n');
		}
		stable.append("create refs/heads/race-a ")
			.append(commits.get(0))
			.append("\ncreate refs/heads/race-b ")
			.append(commits.get(0))
			.append('\n');
		repo.run(stable.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "update-ref", "--stdin")
			.requireOk();
		java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
		java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
		Callable<Void> compactor = () -> {
			try (OpenedStore opened = OpenedStore.open(repo.dir(), GitCli.FIXED_DATE)) {
				for (int round = 1; round <= 40; round++) {
					String value = commits.get(round);
					if (round % 2 == 0) {
						try (RefTransaction transaction = opened.store.newTransaction()) {
							transaction.add(RefUpdate.update("refs/heads/race-a", opened.id(value), null));
							transaction.add(RefUpdate.update("refs/heads/race-b", opened.id(value), null));
							assertThat(transaction.commit().committed()).isTrue();
						}
					}
					else {
						repo.run(("update refs/heads/race-a " + value + "\nupdate refs/heads/race-b " + value + "\n")
							.getBytes(java.nio.charset.StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
					}
					if (round % 4 < 2) {
						opened.store.packRefs(RefStore.PackOptions.DEFAULT);
					}
					else {
						repo.git("pack-refs");
					}
				}
			}
			finally {
				done.set(true);
			}
			return null;
		};
		Callable<Void> reader = () -> {
			try (OpenedStore opened = OpenedStore.open(repo.dir(), GitCli.FIXED_DATE)) {
				while (!done.get()) {
					assertConsistentView(opened);
					reads.incrementAndGet();
				}
			}
			return null;
		};
		java.util.concurrent.atomic.AtomicLong gitReads = new java.util.concurrent.atomic.AtomicLong();
		Callable<Void> gitReader = () -> {
			while (!done.get()) {
				List<String> lines = StackViews.lines(
						repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/stable/", "refs/heads/"));
				assertThat(lines).hasSize(302);
				String a = lines.stream().filter((l) -> l.startsWith("refs/heads/race-a ")).findFirst().orElseThrow();
				String b = lines.stream().filter((l) -> l.startsWith("refs/heads/race-b ")).findFirst().orElseThrow();
				assertThat(a.substring(a.indexOf(' '))).isEqualTo(b.substring(b.indexOf(' ')));
				gitReads.incrementAndGet();
			}
			return null;
		};
		runAll(List.of(compactor, reader, reader, gitReader), 240);
		System.out.printf("readers racing compactors: %d consistent views in refstore, %d in git%n", reads.get(),
				gitReads.get());
		assertThat(reads.get()).isGreaterThan(40);
		assertThat(gitReads.get()).isPositive();
		try (OpenedStore opened = OpenedStore.open(repo.dir(), GitCli.FIXED_DATE)) {
			assertConsistentView(opened);
			assertThat(((DirectRef) opened.store.exactRef("refs/heads/race-a").orElseThrow()).id().name())
				.isEqualTo(commits.get(40));
			assertThat(opened.store.verify()).isEmpty();
		}
		assertStackIsClean(repo, 80);
	}

	/**
	 * One iteration sees all 300 stable refs and the two race refs equal; lookups and the
	 * log agree.
	 */
	private static void assertConsistentView(OpenedStore opened) throws IOException {
		int stable = 0;
		String a = null;
		String b = null;
		try (RefCursor cursor = opened.store.refs(RefQuery.ALL)) {
			while (cursor.next()) {
				String name = cursor.name();
				if (name.startsWith("refs/stable/")) {
					stable++;
				}
				else if (name.equals("refs/heads/race-a")) {
					a = ((DirectRef) cursor.ref()).id().name();
				}
				else if (name.equals("refs/heads/race-b")) {
					b = ((DirectRef) cursor.ref()).id().name();
				}
			}
		}
		assertThat(stable).isEqualTo(300);
		assertThat(a).isNotNull().isEqualTo(b);
		assertThat(opened.store.exactRef("refs/stable/s" + (a.hashCode() & 0xff))).isPresent();
		assertThat(opened.store.reflog("refs/heads/race-a")).isNotEmpty();
	}

	/**
	 * Alternates a compare-and-swap of the shared ref with the creation of a ref of its
	 * own.
	 */
	private static Void refstoreWriter(String who, OpenedStore opened, List<String> values, Journal journal)
			throws IOException {
		for (int i = 0; i < REFSTORE_OPS; i++) {
			if (i % 2 == 0) {
				String expected = currentShared(opened);
				String value = values.get(i / 2);
				TransactionResult result = apply(opened,
						RefUpdate.update(SHARED, opened.id(value), opened.id(expected)).withMessage(who + " cas " + i));
				journal.cas(who, expected, value, result.committed(), rejection(result));
			}
			else {
				String name = "refs/heads/" + who + "/n" + i;
				String value = values.get(i % values.size());
				TransactionResult result = apply(opened, RefUpdate.create(name, opened.id(value)).withMessage(who));
				journal.create(who, name, value, result.committed(), rejection(result));
			}
		}
		return null;
	}

	/**
	 * The same through {@code git update-ref} processes; the expected old value is read
	 * as any client would.
	 */
	private static Void gitWriter(String who, TempRepo repo, OpenedStore reader, List<String> values, Journal journal)
			throws IOException {
		for (int i = 0; i < GIT_OPS; i++) {
			if (i % 2 == 0) {
				String expected = currentShared(reader);
				String value = values.get(i / 2);
				GitCli.Result result = repo.run(new byte[0], "update-ref", "-m", who + " cas " + i, SHARED, value,
						expected);
				journal.cas(who, expected, value, result.exitCode() == 0, result.stderr().strip());
			}
			else {
				String name = "refs/heads/" + who + "/n" + i;
				String value = values.get(i % values.size());
				GitCli.Result result = repo.run(new byte[0], "update-ref", "-m", who, name, value, "");
				journal.create(who, name, value, result.exitCode() == 0, result.stderr().strip());
			}
		}
		return null;
	}

	private static TransactionResult apply(OpenedStore opened, RefUpdate update) throws IOException {
		try (RefTransaction transaction = opened.store.newTransaction()) {
			return transaction.add(update).commit();
		}
	}

	private static String rejection(TransactionResult result) {
		return result.firstRejection().map((r) -> r.rejection() + ": " + r.message()).orElse("");
	}

	private static String currentShared(OpenedStore opened) throws IOException {
		return ((DirectRef) opened.store.exactRef(SHARED).orElseThrow()).id().name();
	}

	/** Runs every task on its own thread and rethrows the first failure. */
	static void runAll(List<Callable<Void>> tasks, int timeoutSeconds) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
		try {
			List<Future<Void>> futures = new ArrayList<>();
			for (Callable<Void> task : tasks) {
				futures.add(pool.submit(task));
			}
			for (Future<Void> future : futures) {
				future.get(timeoutSeconds, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
		}
	}

	/**
	 * Successful creations hold their value; failed ones (lock timeouts only) left
	 * nothing.
	 */
	private static void assertEveryCreateIsAccountedFor(OpenedStore opened, Journal journal) throws IOException {
		for (Journal.Entry create : journal.creates()) {
			Optional<Ref> ref = opened.store.exactRef(create.name());
			if (create.ok()) {
				assertThat(ref).as("%s created by %s", create.name(), create.writer())
					.contains(new DirectRef(create.name(), opened.id(create.newValue())));
			}
			else {
				assertThat(ref).as("%s refused to %s: %s", create.name(), create.writer(), create.failure()).isEmpty();
				assertThat(create.failure()).containsAnyOf("LOCK_FAILURE", "cannot lock");
			}
		}
		assertThat(journal.creates().stream().filter(Journal.Entry::ok).count())
			.isGreaterThan(journal.creates().size() / 2);
	}

	/**
	 * Every value is written at most once, so the successful swaps must link up, oldest
	 * first, from the initial value to the ref's final value, and every refused swap
	 * expected a value that was no longer current.
	 */
	private static List<String[]> assertSharedRefIsOneChain(OpenedStore opened, String initial, Journal journal)
			throws IOException {
		Map<String, Journal.Entry> byOld = new HashMap<>();
		for (Journal.Entry cas : journal.swaps()) {
			if (cas.ok()) {
				assertThat(byOld.put(cas.oldValue(), cas)).as("two swaps from %s", cas.oldValue()).isNull();
			}
			else {
				assertThat(cas.failure()).containsAnyOf("INCORRECT_OLD_VALUE", "LOCK_FAILURE", "cannot lock",
						"but expected", "is at");
			}
		}
		List<String[]> chain = new ArrayList<>();
		String value = initial;
		while (byOld.containsKey(value)) {
			Journal.Entry next = byOld.remove(value);
			chain.add(new String[] { value, next.newValue() });
			value = next.newValue();
		}
		assertThat(byOld).as("successful swaps not on the chain").isEmpty();
		assertThat(currentShared(opened)).isEqualTo(value);
		assertThat(chain.stream().map((link) -> journal.writerOf(link[1])).distinct().count())
			.as("writers on the chain")
			.isGreaterThanOrEqualTo(3);
		return chain;
	}

	/**
	 * The shared ref's log is its creation and then exactly the chain, for refstore and
	 * for git.
	 */
	private static void assertReflogIsTheChain(TempRepo repo, OpenedStore opened, String initial, List<String[]> chain)
			throws IOException {
		List<String> expected = new ArrayList<>();
		expected.add(opened.store.hashAlgorithm().zeroId().name() + " " + initial);
		for (String[] link : chain) {
			expected.add(link[0] + " " + link[1]);
		}
		List<String> logged = new ArrayList<>();
		for (ReflogEntry entry : opened.store.reflog(SHARED)) {
			logged.add(entry.oldId().name() + " " + entry.newId().name());
		}
		assertThat(logged).containsExactlyElementsOf(expected);
		assertThat(StackViews.lines(repo.git("reflog", "show", "--date=raw", StackViews.REFLOG_FORMAT, SHARED, "--")))
			.containsExactlyElementsOf(StackViews.reflog(opened.store, SHARED));
	}

	/**
	 * No lock or temporary file is left, every table is listed, and compaction kept the
	 * stack short.
	 */
	static void assertStackIsClean(TempRepo repo, long transactions) throws IOException {
		Path stackDir = repo.gitDir().resolve("reftable");
		List<String> listed = Files.readAllLines(stackDir.resolve("tables.list"));
		List<String> files;
		try (Stream<Path> entries = Files.list(stackDir)) {
			files = entries.map((path) -> path.getFileName().toString()).sorted().toList();
		}
		assertThat(files).as("reftable/").noneMatch((name) -> name.endsWith(".lock") || name.contains(".temp."));
		List<String> tables = new ArrayList<>(files);
		tables.remove("tables.list");
		assertThat(tables).containsExactlyInAnyOrderElementsOf(listed);
		assertThat(listed.size()).as("tables left of %d transactions", transactions).isLessThan(12);
	}

	/** What the writers did, in the order they reported it. Thread-safe. */
	static final class Journal {

		record Entry(String writer, boolean swap, String name, String oldValue, String newValue, boolean ok,
				String failure) {
		}

		private final List<Entry> entries = Collections.synchronizedList(new ArrayList<>());

		void cas(String writer, String oldValue, String newValue, boolean ok, String failure) {
			this.entries.add(new Entry(writer, true, SHARED, oldValue, newValue, ok, ok ? "" : failure));
		}

		void create(String writer, String name, String value, boolean ok, String failure) {
			this.entries.add(new Entry(writer, false, name, null, value, ok, ok ? "" : failure));
		}

		List<Entry> swaps() {
			synchronized (this.entries) {
				return this.entries.stream().filter(Entry::swap).toList();
			}
		}

		List<Entry> creates() {
			synchronized (this.entries) {
				return this.entries.stream().filter((e) -> !e.swap()).toList();
			}
		}

		long successes() {
			synchronized (this.entries) {
				return this.entries.stream().filter(Entry::ok).count();
			}
		}

		String writerOf(String newValue) {
			return swaps().stream()
				.filter((e) -> e.ok() && e.newValue().equals(newValue))
				.findFirst()
				.orElseThrow()
				.writer();
		}

		String summary() {
			return swaps().stream().filter(Entry::ok).count() + " of " + swaps().size() + " swaps and "
					+ creates().stream().filter(Entry::ok).count() + " of " + creates().size() + " creations succeeded";
		}

	}

}
