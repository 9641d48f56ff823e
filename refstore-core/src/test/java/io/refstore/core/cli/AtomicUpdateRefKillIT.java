package io.refstore.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.Processes;
import io.refstore.core.testing.TempRepo;

/**
 * A {@code refstore update-ref --stdin} transaction under {@code core.fsync=committed}
 * (creates, updates of loose refs, deletions of loose and packed ones) killed with
 * {@code SIGKILL} at random moments of its commit, on the files backend: git then reads
 * all of it or none of it (git's own commit renames each loose ref into place, and a kill
 * between two renames leaves part), every other ref as it was, and once the next refstore
 * command has cleared the dead process's locks git writes every ref the transaction
 * touched. {@code -Drefstore.atomicKillTrials} (10) and {@code -Drefstore.killSeed} (new
 * for every run, printed).
 */
class AtomicUpdateRefKillIT {

	private static final GitCli GIT = GitCli.reftable();

	private static final int TRIALS = Integer.getInteger("refstore.atomicKillTrials", 10);

	private static final long SEED = Long.getLong("refstore.killSeed", System.nanoTime());

	private static final int OLD = 3000;

	private static final int CREATES = 500;

	private static final int UPDATES = 100;

	private static final int DELETES = 100;

	@TempDir
	Path dir;

	@Test
	void aTransactionKilledDuringItsCommitIsAllOrNothingAsGitReadsIt() throws Exception {
		TempRepo source = TempRepo.init(GIT, this.dir.resolve("source"));
		String one = source.commit("one", null);
		String two = source.commit("two", one);
		StringBuilder setup = new StringBuilder();
		for (int i = 0; i < OLD; i++) {
			setup.append(String.format("create refs/heads/old/r%04d %s%n", i, one));
		}
		source.run(setup.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		source.git("pack-refs", "--all");
		// the updated refs loose, hiding their packed values; half the deleted ones too,
		// the others packed only
		StringBuilder loose = new StringBuilder();
		for (int i = 0; i < UPDATES; i++) {
			loose.append(String.format("update refs/heads/old/r%04d %s%n", 2 * i, two));
		}
		for (int i = 0; i < DELETES / 2; i++) {
			loose.append(String.format("update refs/heads/old/r%04d %s%n", 2 * i + 1, two));
		}
		source.run(loose.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
		source.git("config", "core.fsync", "committed");
		Map<String, String> before = refs(source.dir());
		Map<String, String> after = new HashMap<>(before);
		StringBuilder transaction = new StringBuilder("start\n");
		for (int i = 0; i < CREATES; i++) {
			String name = String.format("refs/heads/new/n%04d", i);
			transaction.append("create ").append(name).append(' ').append(one).append('\n');
			after.put(name, one);
		}
		for (int i = 0; i < UPDATES; i++) {
			String name = String.format("refs/heads/old/r%04d", 2 * i);
			transaction.append("update ").append(name).append(' ').append(one).append(' ').append(two).append('\n');
			after.put(name, one);
		}
		for (int i = 0; i < DELETES; i++) {
			String name = String.format("refs/heads/old/r%04d", 2 * i + 1);
			transaction.append("delete ").append(name).append('\n');
			after.remove(name);
		}
		byte[] prepared = transaction.append("prepare\n").toString().getBytes(StandardCharsets.UTF_8);

		Path undisturbed = source.copyTo(this.dir.resolve("undisturbed")).dir();
		long commitNanos = commit(undisturbed, prepared, Long.MAX_VALUE);
		assertThat(refs(undisturbed)).as("the transaction undisturbed").isEqualTo(after);

		System.out.printf("%d kill trials, seed %d (-Drefstore.killSeed)%n", TRIALS, SEED);
		Random random = new Random(SEED);
		List<String> failures = new ArrayList<>();
		int[] landed = new int[2];
		for (int trial = 0; trial < TRIALS; trial++) {
			Path repo = source.copyTo(this.dir.resolve("trial-" + trial)).dir();
			long delay = (long) (random.nextDouble() * commitNanos * 1.1);
			commit(repo, prepared, delay);
			Map<String, String> seen = refs(repo);
			String where = "trial " + trial + " (kill " + delay / 1000 + " us into a commit of " + commitNanos / 1000
					+ " us)";
			if (seen.equals(before)) {
				landed[0]++;
			}
			else if (seen.equals(after)) {
				landed[1]++;
			}
			else {
				failures.add(where + ": git reads part of the transaction: " + differences(before, after, seen));
				continue;
			}
			// the next refstore command clears the dead process's locks; then git writes
			// every ref the transaction touched
			GitCli.refstore().ok(repo, "update-ref", "refs/heads/after", one);
			StringBuilder rewrite = new StringBuilder();
			for (String name : after.keySet()) {
				if (!before.containsKey(name) || !before.get(name).equals(after.get(name))) {
					rewrite.append("update ").append(name).append(' ').append(two).append('\n');
				}
			}
			GitCli.Result git = GIT.run(repo, rewrite.toString().getBytes(StandardCharsets.UTF_8), "update-ref",
					"--stdin");
			if (git.exitCode() != 0) {
				failures.add(where + ": git cannot write the refs afterwards: " + git.stderr());
				continue;
			}
			assertThat(locks(repo)).as(where + ": locks left").isEmpty();
			GIT.ok(repo, "refs", "verify");
		}
		System.out.printf("%d kills during a commit of %d us: %d before it, %d after it%n", TRIALS, commitNanos / 1000,
				landed[0], landed[1]);
		assertThat(failures).isEmpty();
	}

	/**
	 * Runs the transaction up to its {@code prepare: ok}, then sends {@code commit} and,
	 * unless {@code killAfterNanos} is {@code Long.MAX_VALUE}, kills the process with
	 * {@code SIGKILL} that long after. Returns how long the commit took.
	 */
	private static long commit(Path repo, byte[] prepared, long killAfterNanos) throws IOException {
		PreparedUpdateRef update = PreparedUpdateRef.start(repo, prepared);
		Process process = update.process();
		try {
			OutputStream in = update.in();
			BufferedReader out = update.out();
			long started = System.nanoTime();
			in.write("commit\n".getBytes(StandardCharsets.UTF_8));
			in.flush();
			if (killAfterNanos == Long.MAX_VALUE) {
				assertThat(out.readLine()).isEqualTo("commit: ok");
				long took = System.nanoTime() - started;
				in.close();
				assertThat(Processes.waitFor(process, "update-ref")).isZero();
				return took;
			}
			long deadline = started + killAfterNanos;
			long left;
			while ((left = deadline - System.nanoTime()) > 0) {
				TimeUnit.NANOSECONDS.sleep(Math.min(left, 200_000));
			}
			return killAfterNanos;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
		finally {
			process.destroyForcibly();
			Processes.waitFor(process, "the killed update-ref");
		}
	}

	private static Map<String, String> refs(Path repo) {
		Map<String, String> refs = new HashMap<>();
		for (String line : GIT.ok(repo, "for-each-ref", "--format=%(refname) %(objectname)").lines().toList()) {
			int space = line.indexOf(' ');
			refs.put(line.substring(0, space), line.substring(space + 1));
		}
		return refs;
	}

	private static String differences(Map<String, String> before, Map<String, String> after, Map<String, String> seen) {
		Set<String> names = new HashSet<>(before.keySet());
		names.addAll(after.keySet());
		int done = 0;
		int undone = 0;
		for (String name : names) {
			if (!Objects.equals(before.get(name), after.get(name))) {
				if (Objects.equals(after.get(name), seen.get(name))) {
					done++;
				}
				else {
					undone++;
				}
			}
		}
		return done + " changes done, " + undone + " not";
	}

	private static List<Path> locks(Path repo) throws IOException {
		try (Stream<Path> files = Files.walk(repo.resolve(".git/refs"))) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".lock")).toList();
		}
	}

}
