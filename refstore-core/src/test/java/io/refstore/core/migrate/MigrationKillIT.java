package io.refstore.core.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.Processes;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore refs migrate} killed with SIGKILL at random moments, in both
 * directions: the reftable git must read exactly the old or exactly the new refs and
 * logs, with the configuration naming one format or the other, {@code fsck} must pass,
 * and running the migration again must leave the new state with nothing behind (no work
 * directory, no lock, exactly one backup holding the old store byte for byte).
 *
 * <p>
 * Each trial copies a prepared repository (a few thousand refs, some hundred reflogs;
 * files and reftable alternately) and kills the command after a delay drawn from a seeded
 * generator over the duration of an undisturbed run measured first. The seed is new for
 * every run (printed; {@code -Drefstore.killSeed} sets it), so that runs together land on
 * more moments than one run's trials (the delays are wall-clock times, which no seed
 * repeats exactly); {@code -Drefstore.killTrials} sets the number of trials (32). Every
 * trial is checked, and the failures are reported together with where each kill landed;
 * the number of kills landing in each phase is printed.
 */
class MigrationKillIT {

	private static final GitCli GIT = MigrationRepos.NEWEST;

	private static final int TRIALS = Integer.getInteger("refstore.killTrials", 32);

	private static final long SEED = Long.getLong("refstore.killSeed", System.nanoTime());

	private static final int REFS = 2400;

	@TempDir
	static Path dir;

	private static Source files;

	private static Source reftable;

	private static GitView before;

	/**
	 * A prepared repository to copy for each trial, and the duration of an undisturbed
	 * migration of it.
	 */
	private record Source(RefFormat format, Path dir, Set<String> storeEntries, Map<String, String> store,
			byte[] fetchHead, long nanos, long lockedAfterNanos) {

		RefFormat target() {
			return (this.format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		}

	}

	@BeforeAll
	static void prepareBothFormatsAndTimeAnUndisturbedRun() throws IOException, InterruptedException {
		TempRepo repo = MigrationRepos.createLarge(dir.resolve("files"), REFS);
		Path twin = dir.resolve("reftable");
		DirSnapshot.copy(repo.dir(), twin);
		GIT.ok(twin, "refs", "migrate", "--ref-format=reftable");
		before = GitView.captureQuickly(GIT, repo.dir());
		assertThat(before.forEachRef().lines().count()).isGreaterThan(REFS);
		assertThat(before.reflogList().lines().count()).isGreaterThan(REFS / 12);
		assertThat(before.difference(GitView.captureQuickly(GIT, twin))).as("git's reftable twin").isNull();
		files = timed(RefFormat.FILES, repo.dir());
		reftable = timed(RefFormat.REFTABLE, twin);
	}

	private static Source timed(RefFormat format, Path source) throws IOException, InterruptedException {
		Path gitDir = source.resolve(".git");
		Set<String> storeEntries = (format == RefFormat.FILES)
				? Set.of("packed-refs", "refs", "logs", "HEAD", "ORIG_HEAD", "CHERRY_PICK_HEAD") : Set.of("reftable");
		Map<String, String> store = storeOf(gitDir, storeEntries);
		byte[] fetchHead = Files.readAllBytes(gitDir.resolve("FETCH_HEAD"));
		Path copy = dir.resolve("timing-" + format.configName());
		DirSnapshot.copy(source, copy);
		RefFormat target = (format == RefFormat.FILES) ? RefFormat.REFTABLE : RefFormat.FILES;
		long started = System.nanoTime();
		Process process = start(copy, target, dir.resolve("timing-" + format.configName() + ".err"));
		long lockedAfter = watchForLock(process, KillLanding.storeLock(copy.resolve(".git"), format)) - started;
		int exit = waitFor(process);
		long nanos = System.nanoTime() - started;
		assertThat(exit).as("undisturbed run").isZero();
		assertThat(lockedAfter).as("the store lock was seen").isPositive();
		assertThat(GitView.captureQuickly(GIT, copy).format()).isEqualTo(target.configName());
		delete(copy);
		System.out.printf("undisturbed migration %s -> %s: %d ms, store locked after %d ms%n", format.configName(),
				target.configName(), nanos / 1_000_000, lockedAfter / 1_000_000);
		return new Source(format, source, storeEntries, store, fetchHead, nanos, lockedAfter);
	}

	/**
	 * When the store's lock first appears while {@code process} runs (polled every
	 * millisecond).
	 */
	private static long watchForLock(Process process, Path lock) throws InterruptedException {
		while (process.isAlive()) {
			if (Files.exists(lock)) {
				return System.nanoTime();
			}
			Thread.sleep(1);
		}
		return 0;
	}

	@Test
	void killedAtAnyMomentGitReadsExactlyTheOldOrTheNewStateAndARerunCompletesIt() throws Exception {
		System.out.printf("%d kill trials, seed %d (-Drefstore.killSeed)%n", TRIALS, SEED);
		Random random = new Random(SEED);
		Map<KillLanding, Integer> landings = new EnumMap<>(KillLanding.class);
		List<String> failures = new ArrayList<>();
		for (int trial = 0; trial < TRIALS; trial++) {
			Source source = (trial % 2 == 0) ? files : reftable;
			boolean afterLock = trial % 4 >= 2;
			long delay = delay(random, source, afterLock);
			Trial result = runTrial(trial, source, delay, afterLock);
			landings.merge(result.landing, 1, Integer::sum);
			if (!result.problems.isEmpty()) {
				failures.add(String.format("trial %d (%s -> %s, kill %d ms after %s, %s): %s", trial,
						source.format().configName(), source.target().configName(), delay / 1_000_000,
						afterLock ? "the store was locked" : "the start", result.landing.description,
						String.join("; ", result.problems)));
			}
		}
		printKillLandings(landings);
		assertThat(failures).as("failed trials").isEmpty();
	}

	/**
	 * Half the kills anywhere in the run (a little past its measured duration, so that
	 * some runs finish first), counted from the start; half in the short phase that swaps
	 * the stores, counted from the moment this run locked the store (a delay drawn from
	 * the start to the end of the undisturbed run missed that phase in most trials: the
	 * run's speed varies more than the phase lasts).
	 */
	private static long delay(Random random, Source source, boolean afterLock) {
		if (!afterLock) {
			return (long) (random.nextDouble() * source.nanos() * 1.1);
		}
		return (long) (random.nextDouble() * (source.nanos() - source.lockedAfterNanos()) * 1.05);
	}

	private static Trial runTrial(int number, Source source, long delayNanos, boolean afterLock) throws Exception {
		Path repo = dir.resolve("trial-" + number);
		DirSnapshot.copy(source.dir(), repo);
		Path gitDir = repo.resolve(".git");
		if (number % 4 >= 2) {
			// half the trials on an old store: the swap's walks reuse the listings of
			// unchanged directories (StoreFiles.since), kept on disk for the rerun
			StoreFilesIT.age(gitDir);
		}
		Trial trial = new Trial();
		Process process = start(repo, source.target(), dir.resolve("trial-" + number + ".err"));
		if (afterLock) {
			watchForLock(process, KillLanding.storeLock(gitDir, source.format()));
		}
		boolean exited = process.waitFor(delayNanos, TimeUnit.NANOSECONDS);
		process.destroyForcibly();
		int exit = waitFor(process);
		if (exited && exit != 0) {
			trial.problems.add("the run exited " + exit + " before the kill: "
					+ Files.readString(dir.resolve("trial-" + number + ".err")));
		}
		trial.landing = KillLanding.of(gitDir, source.format());
		checkOldOrNew(repo, source, trial);
		if (trial.problems.isEmpty()) {
			rerun(repo, source, trial);
		}
		if (trial.problems.isEmpty()) {
			checkCompleted(repo, source, trial);
		}
		delete(repo);
		return trial;
	}

	/**
	 * Exactly the old or the new refs and logs, as git reads them, with a sound
	 * repository.
	 */
	private static void checkOldOrNew(Path repo, Source source, Trial trial) {
		GitView now;
		try {
			now = GitView.captureQuickly(GIT, repo);
		}
		catch (AssertionError ex) {
			trial.problems.add("git cannot read the repository: " + ex.getMessage());
			return;
		}
		if (!now.format().equals(source.format().configName()) && !now.format().equals(source.target().configName())) {
			trial.problems.add("the configuration names '" + now.format() + "'");
		}
		if (trial.landing.isOld() != now.format().equals(source.format().configName())) {
			trial.problems.add("landing " + trial.landing + " but git reads format " + now.format());
		}
		String difference = before.difference(now);
		if (difference != null) {
			trial.problems.add("git reads neither the old nor the new state: " + difference);
		}
		String unsound = GitView.unsoundness(GIT, repo);
		if (unsound != null) {
			trial.problems.add(unsound);
		}
		try {
			if (!Arrays.equals(Files.readAllBytes(repo.resolve(".git/FETCH_HEAD")), source.fetchHead())) {
				trial.problems.add("FETCH_HEAD changed");
			}
		}
		catch (IOException ex) {
			trial.problems.add("FETCH_HEAD unreadable: " + ex);
		}
	}

	/**
	 * The migration run again in this JVM: it completes the migration or the cleanup it
	 * finds. A run killed after it removed its journal has only its work directory left,
	 * which a rerun removes before it refuses to migrate to the format in use.
	 */
	private static void rerun(Path repo, Source source, Trial trial) {
		if (trial.landing == KillLanding.COMPLETE) {
			return;
		}
		try {
			MigrationReport report = MigrationRunner.migrate(repo, MigrationOptions.to(source.target()));
			if (trial.landing == KillLanding.CLEANING_UP || !report.swapped()) {
				trial.problems.add("the rerun reported " + report);
			}
		}
		catch (MigrationException ex) {
			String inUse = "repository already uses '" + source.target().configName() + "' format";
			if (trial.landing != KillLanding.CLEANING_UP || !ex.getMessage().equals(inUse)) {
				trial.problems.add("the rerun failed: " + ex.getMessage() + " (lock files left: "
						+ lockFiles(repo.resolve(".git")) + ")");
			}
		}
		catch (IOException | RuntimeException ex) {
			trial.problems.add("the rerun failed: " + ex);
		}
	}

	/**
	 * The new state, nothing left behind, and the old store kept byte for byte in exactly
	 * one backup.
	 */
	private static void checkCompleted(Path repo, Source source, Trial trial) throws IOException {
		Path gitDir = repo.resolve(".git");
		GitView now = GitView.captureQuickly(GIT, repo);
		if (!now.format().equals(source.target().configName())) {
			trial.problems.add("after the rerun the format is " + now.format());
		}
		String difference = before.difference(now);
		if (difference != null) {
			trial.problems.add("after the rerun: " + difference);
		}
		String unsound = GitView.unsoundness(GIT, repo);
		if (unsound != null) {
			trial.problems.add("after the rerun: " + unsound);
		}
		List<String> leftovers = leftovers(gitDir);
		if (!leftovers.isEmpty()) {
			trial.problems.add("left behind: " + leftovers);
		}
		List<Path> backups = listBackups(gitDir);
		if (backups.size() != 1) {
			trial.problems.add("backups: " + backups);
		}
		else if (!storeOf(backups.get(0), source.storeEntries()).equals(source.store())) {
			trial.problems.add("the backup " + backups.get(0) + " differs from the old store");
		}
	}

	private static Map<String, String> storeOf(Path root, Set<String> entries) {
		Map<String, String> all = DirSnapshot.of(root, Set.of());
		all.keySet().removeIf((path) -> !entries.contains(path.split("/")[0]));
		return all;
	}

	private static List<String> leftovers(Path gitDir) throws IOException {
		List<String> found = new ArrayList<>();
		if (Files.exists(gitDir.resolve(FormatMigrator.WORK_DIR))) {
			found.add(FormatMigrator.WORK_DIR);
		}
		try (Stream<Path> paths = Files.walk(gitDir)) {
			paths.map((path) -> gitDir.relativize(path).toString())
				.filter((name) -> name.endsWith(".lock") || name.endsWith(".refstore-tmp"))
				.forEach(found::add);
		}
		return found;
	}

	private static List<String> lockFiles(Path gitDir) {
		try (Stream<Path> paths = Files.walk(gitDir)) {
			List<String> locks = paths.map((path) -> gitDir.relativize(path).toString())
				.filter((name) -> name.endsWith(".lock"))
				.toList();
			return (locks.size() > 5) ? List.of(locks.size() + " including " + locks.subList(0, 5)) : locks;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<Path> listBackups(Path gitDir) throws IOException {
		Path backups = gitDir.resolve(FormatMigrator.BACKUP_DIR);
		if (!Files.isDirectory(backups)) {
			return List.of();
		}
		try (Stream<Path> children = Files.list(backups)) {
			return children.sorted().toList();
		}
	}

	private static Process start(Path repo, RefFormat target, Path stderr) {
		ProcessBuilder builder = MigrationRunner.refsProcess(repo, "migrate", "--ref-format=" + target.configName())
			.redirectOutput(Redirect.DISCARD)
			.redirectError(stderr.toFile());
		try {
			return builder.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static int waitFor(Process process) {
		return Processes.waitFor(process, "refstore refs migrate");
	}

	private static void delete(Path path) {
		try {
			FileMoves.deleteTree(path);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void printKillLandings(Map<KillLanding, Integer> landings) {
		int old = 0;
		int neu = 0;
		StringBuilder text = new StringBuilder();
		for (Map.Entry<KillLanding, Integer> entry : landings.entrySet()) {
			if (entry.getKey().isOld()) {
				old += entry.getValue();
			}
			else {
				neu += entry.getValue();
			}
			text.append(String.format("  %3d  %s%n", entry.getValue(), entry.getKey().description));
		}
		System.out.printf("kills landing in the old state: %d, in the new state: %d%n%s", old, neu, text);
	}

	/** One trial's outcome. */
	private static final class Trial {

		KillLanding landing;

		final List<String> problems = new ArrayList<>();

	}

}
