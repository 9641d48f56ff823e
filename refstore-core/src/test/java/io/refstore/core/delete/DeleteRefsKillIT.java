package io.refstore.core.delete;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.cli.Refstore;
import io.refstore.core.io.FileMoves;
import io.refstore.core.io.LockOwner;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.Processes;
import io.refstore.core.testing.TempRepo;
import io.refstore.core.testing.TestFiles;

/**
 * {@code refstore delete-refs} and {@code restore-refs} killed with SIGKILL at random
 * moments, on both formats: git then reads every ref the deletion did not select with its
 * value, and the selected ones either with their value or gone, in chunk order; running
 * the same command again finishes the job, clearing the locks the killed run recorded as
 * its own (without it, a kill holding {@code packed-refs.lock} or
 * {@code tables.list.lock} made every rerun fail), and leaves no lock, staged file or
 * owner record behind (the rerun in this JVM, as the other kill tests rerun).
 * {@code -Drefstore.deleteKillTrials} (12 per command and format) and
 * {@code -Drefstore.killSeed} (new for every run, printed, as for
 * {@code MigrationKillIT}).
 */
class DeleteRefsKillIT {

	private static final GitCli GIT = GitCli.reftable();

	private static final int TRIALS = Integer.getInteger("refstore.deleteKillTrials", 12);

	private static final long SEED = Long.getLong("refstore.killSeed", System.nanoTime());

	private static final int CHUNK = 250;

	private static final String PREFIX = "refs/pull/";

	@TempDir
	static Path dir;

	/**
	 * A repository before the deletion, and after a complete one (with its manifest), and
	 * the runs' durations.
	 */
	private record Source(String format, Path before, Path after, Map<String, String> refs, List<String> selected,
			long deleteNanos, long restoreNanos, long deleteStoreChangedNanos, long restoreStoreChangedNanos) {
	}

	private static Source files;

	private static Source reftable;

	@BeforeAll
	static void prepare() throws IOException, InterruptedException {
		TempRepo repo = TempRepo.init(GIT, dir.resolve("files-before"));
		List<String> commits = DeletionFixture.fill(repo, true);
		// loose values hiding packed ones all through the selection: the case where a
		// chunk's deletion is not one
		// rename of packed-refs unless the chunk's loose refs are packed first
		StringBuilder loose = new StringBuilder();
		for (int i = 0; i < DeletionFixture.PULLS; i += 7) {
			loose.append(String.format("update refs/pull/%04d/merge %s%n", i, commits.get((i + 5) % 40)));
		}
		repo.run(loose.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "update-ref", "--stdin")
			.requireOk();
		files = source("files", repo.dir());
		TempRepo converted = repo.copyTo(dir.resolve("reftable-before"));
		GIT.ok(converted.dir(), "refs", "migrate", "--ref-format=reftable");
		reftable = source("reftable", converted.dir());
	}

	private static Source source(String format, Path before) throws IOException, InterruptedException {
		Map<String, String> refs = refs(before);
		List<String> selected = refs.keySet().stream().filter((name) -> name.startsWith(PREFIX)).toList();
		Path after = dir.resolve(format + "-after");
		copy(before, after);
		long started = System.nanoTime();
		Process deletion = start(after, "delete", dir.resolve(format + ".err"));
		long deleteChanged = storeChanged(deletion, after, format) - started;
		assertThat(waitFor(deletion)).as("undisturbed deletion").isZero();
		long deleteNanos = System.nanoTime() - started;
		Path restored = dir.resolve(format + "-restored");
		copy(after, restored);
		started = System.nanoTime();
		Process restore = start(restored, "restore", dir.resolve(format + ".err"));
		long restoreChanged = storeChanged(restore, restored, format) - started;
		assertThat(waitFor(restore)).as("undisturbed restore").isZero();
		long restoreNanos = System.nanoTime() - started;
		assertThat(refs(restored)).isEqualTo(refs);
		FileMoves.deleteTree(restored);
		System.out.printf(
				"undisturbed on %s: delete-refs %d ms (first store change after %d ms), restore-refs %d ms (after %d ms)"
						+ " (%d of %d refs)%n",
				format, deleteNanos / 1_000_000, deleteChanged / 1_000_000, restoreNanos / 1_000_000,
				restoreChanged / 1_000_000, selected.size(), refs.size());
		return new Source(format, before, after, refs, selected, deleteNanos, restoreNanos, deleteChanged,
				restoreChanged);
	}

	@Test
	void deleteRefsKilledAtAnyMomentLeavesWholeChunksDeletedAndARerunFinishes() throws Exception {
		System.out.printf("%d delete-refs kill trials per format, seed %d (-Drefstore.killSeed)%n", TRIALS, SEED);
		Random random = new Random(SEED);
		List<String> failures = new ArrayList<>();
		int[] landed = new int[3];
		for (int trial = 0; trial < 2 * TRIALS; trial++) {
			Source source = (trial % 2 == 0) ? files : reftable;
			Path repo = dir.resolve("delete-" + trial);
			copy(source.before(), repo);
			Path err = dir.resolve("delete-" + trial + ".err");
			long delay = kill(start(repo, "delete", err), repo, source.format(), random, trial, source.deleteNanos(),
					source.deleteStoreChangedNanos());
			List<String> problems = new ArrayList<>();
			int deleted = checkPartial(source, repo, problems);
			landed[(deleted == 0) ? 0 : (deleted == source.selected().size()) ? 2 : 1]++;
			if (problems.isEmpty()) {
				GitCli.Result rerun = rerun(repo, "delete-refs", "--chunk-size=" + CHUNK, "--manifest=rerun.manifest",
						"--prefix=" + PREFIX);
				if (rerun.exitCode() != 0) {
					problems
						.add("the rerun failed: " + rerun.stderr() + "; the killed run said: " + Files.readString(err));
				}
				else {
					Map<String, String> expected = new LinkedHashMap<>(source.refs());
					source.selected().forEach(expected::remove);
					checkFinished(repo, expected, problems);
				}
			}
			if (!problems.isEmpty()) {
				failures.add("trial " + trial + " (" + source.format() + ", kill after " + delay / 1_000_000 + " ms, "
						+ repo + " kept): " + String.join("; ", problems));
			}
			else {
				FileMoves.deleteTree(repo);
			}
		}
		System.out.printf("delete-refs kills: before any deletion %d, in the middle %d, after all %d%n", landed[0],
				landed[1], landed[2]);
		assertThat(failures).as("failed trials").isEmpty();
		assertThat(landed[1]).as("kills in the middle of the deletion").isPositive();
	}

	@Test
	void restoreRefsKilledAtAnyMomentLosesNothingAndARerunFinishes() throws Exception {
		Random random = new Random(SEED + 1);
		List<String> failures = new ArrayList<>();
		int middle = 0;
		for (int trial = 0; trial < 2 * TRIALS; trial++) {
			Source source = (trial % 2 == 0) ? files : reftable;
			Path repo = dir.resolve("restore-" + trial);
			copy(source.after(), repo);
			Path err = dir.resolve("restore-" + trial + ".err");
			long delay = kill(start(repo, "restore", err), repo, source.format(), random, trial, source.restoreNanos(),
					source.restoreStoreChangedNanos());
			List<String> problems = new ArrayList<>();
			Map<String, String> now = refs(repo);
			source.refs().forEach((name, value) -> {
				if (now.containsKey(name) ? !now.get(name).equals(value) : !source.selected().contains(name)) {
					problems.add(name + " is " + now.get(name) + " after the kill, it was " + value);
				}
			});
			long back = source.selected().stream().filter(now::containsKey).count();
			if (back > 0 && back < source.selected().size()) {
				middle++;
			}
			if (problems.isEmpty()) {
				GitCli.Result rerun = rerun(repo, "restore-refs", "--manifest=refstore.manifest");
				if (rerun.exitCode() != 0) {
					problems
						.add("the rerun failed: " + rerun.stderr() + "; the killed run said: " + Files.readString(err));
				}
				else {
					checkFinished(repo, source.refs(), problems);
				}
			}
			if (!problems.isEmpty()) {
				failures.add("trial " + trial + " (" + source.format() + ", kill after " + delay / 1_000_000 + " ms): "
						+ String.join("; ", problems));
			}
			FileMoves.deleteTree(repo);
		}
		System.out.printf("restore-refs kills in the middle of the restore: %d of %d%n", middle, 2 * TRIALS);
		assertThat(failures).as("failed trials").isEmpty();
		assertThat(middle).as("kills in the middle of the restore").isPositive();
	}

	/**
	 * After a killed deletion: every ref not selected holds its value; the selected refs
	 * that are gone are whole chunks, the first ones in name order (on files too, where a
	 * chunk's loose refs are packed before the one rename of {@code packed-refs} that
	 * deletes the chunk).
	 * @return how many selected refs are gone
	 */
	private static int checkPartial(Source source, Path repo, List<String> problems) {
		Map<String, String> now = refs(repo);
		source.refs().forEach((name, value) -> {
			if (now.containsKey(name) ? !now.get(name).equals(value) : !source.selected().contains(name)) {
				problems.add(name + " is " + now.get(name) + " after the kill, it was " + value);
			}
		});
		List<String> selected = source.selected();
		int firstPresent = 0;
		while (firstPresent < selected.size() && !now.containsKey(selected.get(firstPresent))) {
			firstPresent++;
		}
		if (firstPresent % CHUNK != 0 && firstPresent != selected.size()) {
			problems.add("the first " + firstPresent + " selected refs are gone: not whole chunks of " + CHUNK);
		}
		for (int i = firstPresent; i < selected.size(); i++) {
			if (!now.containsKey(selected.get(i))) {
				problems.add(selected.get(i) + " is gone, but an earlier selected ref is not");
				break;
			}
		}
		return (int) selected.stream().filter((name) -> !now.containsKey(name)).count();
	}

	/**
	 * The rerun left exactly {@code expected}, git can write again, and nothing of
	 * refstore's is left.
	 */
	private static void checkFinished(Path repo, Map<String, String> expected, List<String> problems)
			throws IOException {
		Map<String, String> now = refs(repo);
		if (!now.equals(expected)) {
			problems.add("after the rerun git reads " + now.size() + " refs, " + expected.size() + " expected");
		}
		Path gitDir = repo.resolve(".git");
		List<String> left = new ArrayList<>();
		try (Stream<Path> paths = Files.walk(gitDir)) {
			paths.filter((path) -> !isCutShortOwnerRecord(path))
				.map((path) -> gitDir.relativize(path).toString())
				.filter((name) -> name.endsWith(".lock") || name.equals("packed-refs.new")
						|| (name.startsWith(LockOwner.DIR + "/") && !name.equals(LockOwner.DIR + "/.break")))
				.forEach(left::add);
		}
		if (!left.isEmpty()) {
			problems.add("left behind: " + left);
		}
		GitCli.Result write = GIT.run(repo, "update-ref", "refs/heads/written-after", "refs/heads/main");
		if (write.exitCode() != 0) {
			problems.add("git cannot write afterwards: " + write.stderr());
		}
	}

	/**
	 * An owner record the kill cut short before it was published ({@code <id>.tmp} that
	 * does not end with its id line): it names no owner, no lock links to it, and a later
	 * run removes it once it is older than any claim in progress ({@link LockOwner}), so
	 * a rerun right after the kill leaves it.
	 */
	private static boolean isCutShortOwnerRecord(Path path) {
		String name = path.getFileName().toString();
		if (!path.getParent().getFileName().toString().equals(LockOwner.DIR) || !name.endsWith(".tmp")) {
			return false;
		}
		try {
			String id = name.substring(0, name.length() - ".tmp".length());
			return !Files.readString(path, StandardCharsets.UTF_8).endsWith("id " + id + "\n");
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Runs the command again, as the other kill tests do, in this JVM: another process
	 * than the killed one, so the locks it finds are a dead owner's; a JVM of its own for
	 * each rerun cost about a second of every trial.
	 */
	private static GitCli.Result rerun(Path repo, String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int exit = Refstore.run(repo, GitCli.refstore().environment(), InputStream.nullInputStream(), out, err, args);
		List<String> command = new ArrayList<>(List.of("refstore"));
		command.addAll(List.of(args));
		return new GitCli.Result(command, exit, out.toByteArray(), err.toByteArray());
	}

	private static Process start(Path repo, String command, Path stderr) throws IOException {
		List<String> args = new ArrayList<>(GitCli.refstore().command());
		if (command.equals("delete")) {
			args.addAll(List.of("delete-refs", "--chunk-size=" + CHUNK, "--manifest=refstore.manifest",
					"--prefix=" + PREFIX));
		}
		else {
			args.addAll(List.of("restore-refs", "--manifest=refstore.manifest"));
		}
		ProcessBuilder builder = new ProcessBuilder(args).directory(repo.toFile());
		builder.environment().putAll(GitCli.refstore().environment());
		return builder.redirectOutput(Redirect.DISCARD).redirectError(stderr.toFile()).start();
	}

	/**
	 * Kills {@code process}: in every other trial at a moment drawn from its whole
	 * undisturbed run (start-up and planning included), in the others once it has changed
	 * the store for the first time, at a moment drawn from what was left of the
	 * undisturbed run then: a delay drawn from the whole run alone landed before the
	 * first change in half the trials (the JVM's start and the plan take most of it).
	 * @return the delay after the start, for the report
	 */
	private static long kill(Process process, Path repo, String format, Random random, int trial, long runNanos,
			long changedNanos) throws InterruptedException {
		long started = System.nanoTime();
		long deadline;
		if (trial % 4 < 2) {
			deadline = started + (long) (random.nextDouble() * runNanos * 1.1);
		}
		else {
			long changed = storeChanged(process, repo, format);
			deadline = changed + (long) (random.nextDouble() * Math.max(runNanos - changedNanos, 1_000_000L) * 1.05);
		}
		process.waitFor(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
		process.destroyForcibly();
		waitFor(process);
		return deadline - started;
	}

	/**
	 * Waits until {@code process} first changes {@code repo}'s store, or ends: it renames
	 * a new {@code packed-refs} or {@code tables.list} into place (the file's identity
	 * changes), or, restoring a files store, makes the first loose ref under the prefix
	 * (the directory appears).
	 * @return {@link System#nanoTime()} then
	 */
	private static long storeChanged(Process process, Path repo, String format) throws InterruptedException {
		Path gitDir = repo.resolve(".git");
		List<Path> files = format.equals("files") ? List.of(gitDir.resolve("packed-refs"), gitDir.resolve(PREFIX))
				: List.of(gitDir.resolve("reftable/tables.list"));
		List<Object> before = identities(files);
		while (process.isAlive() && identities(files).equals(before)) {
			Thread.sleep(0, 200_000);
		}
		return System.nanoTime();
	}

	private static List<Object> identities(List<Path> files) {
		List<Object> identities = new ArrayList<>();
		for (Path file : files) {
			try {
				identities.add(Files.readAttributes(file, BasicFileAttributes.class).fileKey());
			}
			catch (IOException ex) {
				identities.add("none");
			}
		}
		return identities;
	}

	private static int waitFor(Process process) {
		return Processes.waitFor(process, "refstore");
	}

	/**
	 * Every ref with its value (a symbolic ref's target), as git 2.55 reads the
	 * repository, in name order.
	 */
	private static Map<String, String> refs(Path repo) {
		Map<String, String> refs = new LinkedHashMap<>();
		GIT.ok(repo, "for-each-ref", "--format=%(refname) %(objectname) %(symref)").lines().forEach((line) -> {
			int space = line.indexOf(' ');
			refs.put(line.substring(0, space), line.substring(space + 1));
		});
		return refs;
	}

	private static void copy(Path from, Path to) {
		TestFiles.copyTree(from, to, true);
	}

}
