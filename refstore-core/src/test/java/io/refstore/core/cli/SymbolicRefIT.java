package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertFails;
import static io.refstore.core.cli.CliHarness.assertSameEffect;
import static io.refstore.core.cli.CliHarness.copy;
import static io.refstore.core.cli.CliHarness.refState;
import static io.refstore.core.cli.CliHarness.refstore;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore symbolic-ref} against {@code git symbolic-ref}: reading (with chains,
 * {@code --short}, {@code --no-recurse}, {@code -q}), writing (with {@code -m} and its
 * reflog) and deleting, on copies of the same repository: same exit code, same standard
 * output, same refs and logs afterwards.
 */
class SymbolicRefIT {

	@TempDir
	static Path temp;

	private static final AtomicInteger CASES = new AtomicInteger();

	private static TempRepo base;

	private static TempRepo detached;

	@BeforeAll
	static void makeRepositories() {
		base = TempRepo.init(CliHarness.GIT, temp.resolve("base"));
		String c1 = base.commit("one", null);
		String c2 = base.commit("two", c1);
		base.git("update-ref", "refs/heads/main", c1);
		base.git("update-ref", "refs/heads/topic", c2);
		base.git("update-ref", "refs/tags/main", c1);
		base.git("update-ref", "refs/remotes/origin/main", c1);
		base.git("update-ref", "refs/remotes/origin/topic", c2);
		base.git("pack-refs", "--all");
		base.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
		base.git("symbolic-ref", "refs/heads/chain", "refs/remotes/origin/HEAD");
		base.git("symbolic-ref", "refs/heads/dangling", "refs/heads/nothere");
		detached = TempRepo.init(CliHarness.GIT, temp.resolve("detached"));
		detached.git("update-ref", "--no-deref", "HEAD", detached.commit("one", null));
	}

	static Stream<String> reads() {
		return Stream.of("HEAD", "--short HEAD", "-q HEAD", "refs/heads/main", "-q refs/heads/main", "refs/heads/nope",
				"-q refs/heads/nope", "refs/remotes/origin/HEAD", "--short refs/remotes/origin/HEAD",
				"refs/heads/chain", "--no-recurse refs/heads/chain", "--short refs/heads/chain",
				"--recurse refs/heads/chain", "refs/heads/dangling", "--short refs/heads/dangling",
				"--quiet refs/heads/topic", "refs/heads/a..b", "", "a b c", "-d", "-d a b", "--bogus");
	}

	@ParameterizedTest(name = "symbolic-ref {0}")
	@MethodSource("reads")
	void readsAsGitDoes(String args) {
		CliHarness.assertSameOutput(base.dir(), command(args));
	}

	@Test
	void detachedHeadIsNotASymbolicRef() {
		CliHarness.assertSameOutput(detached.dir(), "symbolic-ref", "HEAD");
		CliHarness.assertSameOutput(detached.dir(), "symbolic-ref", "-q", "HEAD");
		assertFails(refstore(detached.dir(), "symbolic-ref", "HEAD"), 128, "fatal: ref HEAD is not a symbolic ref");
	}

	static Stream<List<String>> writes() {
		return Stream.of(List.of("HEAD", "refs/heads/topic"), List.of("HEAD", "refs/heads/unborn"),
				List.of("-m", "switch  to\ntopic", "HEAD", "refs/heads/topic"),
				List.of("-m", "", "HEAD", "refs/heads/topic"), List.of("HEAD", "main"),
				List.of("HEAD", "refs/heads/a..b"), List.of("refs/heads/s1", "refs/heads/main"),
				List.of("refs/heads/s1", "refs/heads/a..b"), List.of("refs/heads/s1", "HEADX"),
				List.of("refs/heads/main", "refs/heads/topic"),
				List.of("refs/remotes/origin/HEAD", "refs/remotes/origin/topic"), List.of("-d", "HEAD"),
				List.of("-d", "refs/heads/main"), List.of("-d", "refs/heads/nope"), List.of("-d", "refs/heads/chain"),
				List.of("--delete", "refs/heads/dangling"), List.of("-d", "-q", "refs/heads/main"),
				List.of("-d", "refs/remotes/origin/HEAD"), List.of("-m", "gone", "-d", "refs/heads/chain"));
	}

	@ParameterizedTest(name = "symbolic-ref {0}")
	@MethodSource("writes")
	void writesAsGitDoes(List<String> args) {
		String[] command = Stream.concat(Stream.of("symbolic-ref"), args.stream()).toArray(String[]::new);
		assertSameEffect(base.dir(), temp.resolve("case-" + CASES.incrementAndGet()), new byte[0], command);
	}

	@Test
	void refusalsNameTheCulprit() {
		assertFails(refstore(base.dir(), "symbolic-ref", "HEAD", "main"), 128,
				"fatal: Refusing to point HEAD outside of refs/");
		assertFails(refstore(base.dir(), "symbolic-ref", "HEAD", "refs/heads/a..b"), 128,
				"fatal: Refusing to set 'HEAD' to invalid ref 'refs/heads/a..b'");
		assertFails(refstore(base.dir(), "symbolic-ref", "-d", "refs/heads/main"), 128,
				"fatal: Cannot delete refs/heads/main, not a symbolic ref");
		assertFails(refstore(base.dir(), "symbolic-ref", "-d", "HEAD"), 128, "fatal: deleting 'HEAD' is not allowed");
	}

	@Test
	void aBadButSafeNameIsWrittenAsGitWritesItAndAnUnsafeOneRefused() {
		// git (2.39 and 2.55) checks only that a symbolic ref's own name is safe as a
		// path
		CliHarness.assertSameEffect(base.dir(), temp.resolve("bad-name"), new byte[0], "symbolic-ref",
				"refs/heads/a..b", "refs/heads/main");
		Path dir = copy(base.dir(), temp.resolve("unsafe-name"));
		String before = refState(dir.resolve(".git"));
		assertFails(refstore(dir, "symbolic-ref", "refs/../x", "refs/heads/main"), 1,
				"error: refusing to update ref with bad name 'refs/../x'");
		assertThat(refState(dir.resolve(".git"))).isEqualTo(before);
	}

	@Test
	void nameConflictIsAnError() {
		// git 2.39 checks packed refs before creating directories here (but not in
		// update-ref); refstore may leave
		// an empty directory refs/heads/main/, which git removes or reuses later: only
		// the outcome is compared
		Path dir = copy(base.dir(), temp.resolve("conflict"));
		assertFails(refstore(dir, "symbolic-ref", "refs/heads/main/sub", "refs/heads/topic"), 1,
				"'refs/heads/main' exists; cannot create 'refs/heads/main/sub'");
		assertThat(
				CliHarness.git(dir, new byte[0], "symbolic-ref", "refs/heads/main/sub", "refs/heads/topic").exitCode())
			.isEqualTo(1);
		CliHarness.assertSameOutput(dir, "for-each-ref");
	}

	@Test
	void lockedSymbolicRefIsAnErrorAndChangesNothing() throws Exception {
		Path dir = copy(base.dir(), temp.resolve("locked"));
		java.nio.file.Files.createFile(dir.resolve(".git/HEAD.lock"));
		String before = refState(dir.resolve(".git"));
		assertFails(refstore(dir, "symbolic-ref", "HEAD", "refs/heads/topic"), 1, "error: ", "HEAD.lock");
		assertThat(refState(dir.resolve(".git"))).isEqualTo(before);
	}

	private static String[] command(String args) {
		return Stream.concat(Stream.of("symbolic-ref"), args.isEmpty() ? Stream.empty() : Stream.of(args.split(" ")))
			.toArray(String[]::new);
	}

}
