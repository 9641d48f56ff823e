package io.refstore.core.journal;

import static io.refstore.core.journal.JournalFixtures.LOGGING_HOOK;
import static io.refstore.core.journal.JournalFixtures.entries;
import static io.refstore.core.journal.JournalFixtures.install;
import static io.refstore.core.journal.JournalFixtures.uninstall;
import static io.refstore.core.journal.JournalFixtures.writeHook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Installing and uninstalling the hook: idempotent, chaining a hook that was there (in
 * {@code hooks/} or {@code core.hooksPath}), and leaving the repository as it was.
 */
class JournalInstallIT {

	private static final GitCli GIT = GitCli.system();

	@TempDir
	Path dir;

	/**
	 * Where the repository's own hook is, if it has one, and whether hooksPath is set.
	 */
	static Stream<Arguments> layouts() {
		return Stream.of(Arguments.of(false, false), Arguments.of(true, false), Arguments.of(false, true),
				Arguments.of(true, true));
	}

	@ParameterizedTest(name = "own hook {0}, core.hooksPath {1}")
	@MethodSource("layouts")
	void installTwiceThenUninstallLeavesTheRepositoryAsItWas(boolean ownHook, boolean hooksPath) throws IOException {
		TempRepo repo = repo(ownHook, hooksPath);
		Map<String, String> before = snapshot(repo.dir());

		JournalHook.Outcome first = install(repo.gitDir());
		Path hook = hooksDir(repo, hooksPath).resolve(JournalHook.HOOK);
		byte[] installed = Files.readAllBytes(hook);
		JournalHook.Outcome second = install(repo.gitDir());

		assertThat(first).isEqualTo(ownHook ? JournalHook.Outcome.CHAINED : JournalHook.Outcome.INSTALLED);
		assertThat(second).isEqualTo(JournalHook.Outcome.REINSTALLED);
		assertThat(Files.readAllBytes(hook)).isEqualTo(installed);
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(hook))).isEqualTo("rwxr-xr-x");
		Path chained = hook.resolveSibling(JournalHook.CHAINED);
		assertThat(Files.exists(chained)).isEqualTo(ownHook);
		if (ownHook) {
			assertThat(Files.readString(chained)).isEqualTo(LOGGING_HOOK);
		}
		assertThat(uninstall(repo.gitDir()))
			.isEqualTo(ownHook ? JournalHook.Outcome.RESTORED : JournalHook.Outcome.REMOVED);
		assertThat(snapshot(repo.dir())).isEqualTo(before);
		assertThat(uninstall(repo.gitDir())).isEqualTo(JournalHook.Outcome.NOT_INSTALLED);
	}

	@ParameterizedTest(name = "own hook {0}, core.hooksPath {1}")
	@MethodSource("layouts")
	void uninstallKeepsTheJournalAndPutsTheHooksBack(boolean ownHook, boolean hooksPath) throws IOException {
		TempRepo repo = repo(ownHook, hooksPath);
		String commit = repo.commit("one", null);
		Path hooks = hooksDir(repo, hooksPath);
		Map<String, String> hooksBefore = Files.isDirectory(hooks) ? snapshot(hooks) : Map.of();
		install(repo.gitDir());

		repo.git("update-ref", "refs/heads/one", commit);
		// what a git killed between the 'prepared' and 'committed' states leaves
		Path handOver = JournalHook.journalFile(repo.gitDir()).resolveSibling("journal.old.4242.1234");
		Files.writeString(handOver, "+\n= refs/heads/one " + commit + "\n");
		uninstall(repo.gitDir());
		repo.git("update-ref", "refs/heads/other", commit);

		assertThat(JournalFixtures.changes(entries(repo)))
			.containsExactly("0".repeat(40) + " " + commit + " refs/heads/one");
		assertThat(Files.isDirectory(hooks) ? snapshot(hooks) : Map.of()).isEqualTo(hooksBefore);
		assertThat(handOver).doesNotExist();
		if (ownHook) {
			// run, chained, for the first update and as itself for the second
			assertThat(JournalFixtures.committedLines(repo.dir().resolve("own-hook.log"))).containsExactly(
					"0".repeat(40) + " " + commit + " refs/heads/one",
					"0".repeat(40) + " " + commit + " refs/heads/other");
		}
	}

	@Test
	void theHookPassesTheSameInputAndArgumentsOnAndKeepsTheExitStatus() throws IOException {
		TempRepo repo = repo(false, false);
		Path hooks = repo.gitDir().resolve("hooks");
		writeHook(hooks.resolve(JournalHook.HOOK), "#!/bin/sh\necho \"$# $1\" >args.log\ncat >input.log\nexit 3\n");
		install(repo.gitDir());
		String input = "a".repeat(40) + " " + "b".repeat(40) + " refs/heads/x\n" + "c".repeat(40) + " " + "0".repeat(40)
				+ " refs/heads/y\n";

		for (String state : List.of("prepared", "committed")) {
			GitCli.Result run = GitCli.command(List.of(hooks.resolve(JournalHook.HOOK).toString(), state))
				.run(repo.dir(), input.getBytes(StandardCharsets.UTF_8));

			assertThat(run.exitCode()).as(state).isEqualTo(3);
			assertThat(Files.readString(repo.dir().resolve("args.log"))).isEqualTo("1 " + state + "\n");
			assertThat(Files.readString(repo.dir().resolve("input.log"))).isEqualTo(input);
		}
		// only the committed state is journaled
		assertThat(JournalFixtures.changes(entries(repo))).containsExactly(
				"a".repeat(40) + " " + "b".repeat(40) + " refs/heads/x",
				"c".repeat(40) + " " + "0".repeat(40) + " refs/heads/y");
	}

	/** A {@code date} without {@code %N}, as macOS's: whole seconds. */
	@Test
	void takesWholeSecondsFromADateWithoutNanoseconds() throws IOException {
		TempRepo repo = repo(false, false);
		install(repo.gitDir());
		Path bin = this.dir.resolve("bin");
		writeHook(bin.resolve("date"),
				"#!/bin/sh\nif [ \"$1\" = +%s ]; then echo 1700000000; else echo 1700000000.N; fi\n");
		Path hook = repo.gitDir().resolve("hooks").resolve(JournalHook.HOOK);

		GitCli.command(List.of(hook.toString(), "committed"))
			.withEnv("PATH", bin + ":" + System.getenv("PATH"))
			.run(repo.dir(),
					("a".repeat(40) + " " + "b".repeat(40) + " refs/heads/x\n").getBytes(StandardCharsets.UTF_8))
			.requireOk();

		assertThat(entries(repo)).extracting(JournalEntry::time).containsExactly(Instant.ofEpochSecond(1_700_000_000L));
	}

	@Test
	void namesTheWriterByTheFirstVariableSetEscaped() throws IOException {
		TempRepo repo = repo(false, false);
		String commit = repo.commit("one", null);
		try (Repository repository = Repository.open(repo.gitDir(), GIT.environment())) {
			JournalHook.install(repository, List.of("MY_USER", "REMOTE_USER"));
		}

		GIT.withEnv("REMOTE_USER", "bob\tthe\\builder\nx").ok(repo.dir(), "update-ref", "refs/heads/a", commit);
		GIT.withEnv("MY_USER", "carol")
			.withEnv("REMOTE_USER", "bob")
			.ok(repo.dir(), "update-ref", "refs/heads/b", commit);
		GIT.ok(repo.dir(), "update-ref", "refs/heads/c", commit);

		assertThat(entries(repo)).extracting(JournalEntry::identity)
			.containsExactly("REMOTE_USER=bob\tthe\\builder\nx", "MY_USER=carol", "");
	}

	@Test
	void refusesANameThatIsNoVariables() throws IOException {
		TempRepo repo = repo(false, false);
		try (Repository repository = Repository.open(repo.gitDir(), GIT.environment())) {
			assertThatThrownBy(() -> JournalHook.install(repository, List.of("GL_USERNAME", "X;rm -rf /")))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("X;rm -rf /");
		}
		assertThat(Files.exists(repo.gitDir().resolve("hooks").resolve(JournalHook.HOOK))).isFalse();
	}

	private TempRepo repo(boolean ownHook, boolean hooksPath) throws IOException {
		TempRepo repo = TempRepo.init(GIT, this.dir.resolve("repo"));
		if (hooksPath) {
			repo.git("config", "core.hooksPath", "my-hooks");
		}
		if (ownHook) {
			Path hook = hooksDir(repo, hooksPath).resolve(JournalHook.HOOK);
			writeHook(hook, LOGGING_HOOK);
			Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
		}
		return repo;
	}

	private static Path hooksDir(TempRepo repo, boolean hooksPath) {
		return hooksPath ? repo.dir().resolve("my-hooks") : repo.gitDir().resolve("hooks");
	}

	/** Every path below {@code root}: a directory, or a file's mode and content. */
	private static Map<String, String> snapshot(Path root) throws IOException {
		Map<String, String> state = new TreeMap<>();
		try (Stream<Path> paths = Files.walk(root)) {
			paths.forEach((path) -> state.put(root.relativize(path).toString(), describe(path)));
		}
		return state;
	}

	private static String describe(Path path) {
		try {
			String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
			return Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS) ? "dir " + mode
					: mode + " " + HexFormat.of().formatHex(Files.readAllBytes(path));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
