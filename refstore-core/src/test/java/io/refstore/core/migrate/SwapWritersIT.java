package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * git processes writing while refstore migrates a files repository to reftable: creating
 * new refs and moving refs that were only packed (both need a lock no swap can hold in
 * advance). Every {@code update-ref} that exited 0 is in the repository afterwards with
 * its value and its reflog entry, as git 2.55 reads it; refs git wrote into the old store
 * while it was being swapped are carried into the new one and named in the report.
 */
class SwapWritersIT {

	private static final GitCli GIT = MigrationRepos.NEWEST;

	private static final int RUNS = 12;

	private static final int WRITERS = 3;

	@TempDir
	Path dir;

	@Test
	void everyUpdateGitConfirmedDuringTheSwapIsInTheNewStore() throws Exception {
		Path source = this.dir.resolve("source");
		String second = prepare(source);
		int carried = 0;
		for (int run = 0; run < RUNS; run++) {
			// every run on a fresh copy of the same repository
			Path copy = this.dir.resolve("run-" + run);
			DirSnapshot.copy(source, copy);
			carried += migrateWhileGitWrites(copy, second);
		}
		System.out.printf("%d migrations with %d git writers each: %d refs carried over%n", RUNS, WRITERS, carried);
	}

	/**
	 * Makes the repository every run copies: 2,000 packed refs, 1,500 loose ones, every
	 * ref logged.
	 * @return the commit the writers write
	 */
	private static String prepare(Path dir) {
		TempRepo repo = TempRepo.init(GitCli.system(), dir);
		repo.git("config", "core.logAllRefUpdates", "always");
		String commit = repo.commit("one", null);
		StringBuilder packed = new StringBuilder();
		for (int i = 0; i < 2000; i++) {
			packed.append("create refs/heads/packed/").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(packed.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		repo.git("pack-refs", "--all");
		// loose refs make the swap's locking take a while: a wide window for git's writes
		StringBuilder loose = new StringBuilder();
		for (int i = 0; i < 1500; i++) {
			loose.append("create refs/heads/loose/").append(i).append(' ').append(commit).append('\n');
		}
		repo.run(loose.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		String second = repo.commit("two", commit);
		// an old store: the swap's walks list only the directories written since the
		// mark (StoreFiles.since), and the writers' new refs and log entries must be seen
		try {
			StoreFilesIT.age(repo.gitDir());
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		return second;
	}

	private static int migrateWhileGitWrites(Path dir, String second) throws Exception {
		Map<String, String> confirmed = new ConcurrentHashMap<>();
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
		List<Future<?>> writers = new ArrayList<>();
		for (int writer = 0; writer < WRITERS; writer++) {
			int me = writer;
			writers.add(pool.submit(() -> {
				for (int n = 0; !stop.get(); n++) {
					// new refs, and refs that were only packed until now
					String ref = (n % 2 == 0) ? "refs/heads/new/" + me + "/" + n
							: "refs/heads/packed/" + (me + WRITERS * n);
					GitCli git = (n % 4 < 2) ? GitCli.system() : GIT;
					if (git.run(dir, "update-ref", "-m", "writer " + me, ref, second).exitCode() == 0) {
						confirmed.put(ref, second);
					}
				}
				return null;
			}));
		}
		// the swap starts once git has written, and the writers stop once git has written
		// into the new store too: both sides of the swap are seen, however loaded the
		// machine
		await().atMost(Duration.ofMinutes(1)).until(() -> confirmed.size() >= WRITERS);
		MigrationReport report = MigrationRunner.migrate(dir, MigrationOptions.to(RefFormat.REFTABLE));
		int swapped = confirmed.size();
		await().atMost(Duration.ofMinutes(1)).until(() -> confirmed.size() >= swapped + WRITERS);
		stop.set(true);
		for (Future<?> writer : writers) {
			writer.get();
		}
		pool.shutdown();
		assertThat(GIT.ok(dir, "rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
		Map<String, String> present = new HashMap<>();
		for (String line : GIT.ok(dir, "for-each-ref", "--format=%(objectname) %(refname)").split("\n")) {
			present.put(line.substring(line.indexOf(' ') + 1), line.substring(0, line.indexOf(' ')));
		}
		Map<String, String> lost = new HashMap<>();
		confirmed.forEach((ref, value) -> {
			if (!value.equals(present.get(ref))) {
				lost.put(ref, present.get(ref));
			}
		});
		assertThat(lost).as("confirmed writes lost of " + confirmed.size() + ", carried " + report.carried()).isEmpty();
		for (String ref : report.carried()) {
			assertThat(GIT.ok(dir, "reflog", "show", "--format=%gs", ref)).as("the carried reflog of " + ref)
				.contains("writer ");
		}
		assertThat(GIT.run(dir, "fsck", "--no-dangling").exitCode()).isZero();
		return report.carried().size();
	}

}
