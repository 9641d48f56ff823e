package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertSameEffect;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore pack-refs} against {@code git pack-refs} on copies of the same
 * repositories: the same {@code packed-refs} bytes (header, order, peeled lines) and the
 * same loose files left behind.
 */
class PackRefsIT {

	@TempDir
	static Path temp;

	private static final AtomicInteger CASES = new AtomicInteger();

	private static TempRepo mixed;

	private static TempRepo loose;

	@BeforeAll
	static void makeRepositories() {
		mixed = CliFixtures.rich(temp.resolve("mixed"));
		loose = TempRepo.init(CliHarness.GIT, temp.resolve("loose"));
		String c1 = loose.commit("one", null);
		loose.git("update-ref", "refs/heads/main", c1);
		loose.git("update-ref", "refs/heads/deep/er/branch", c1);
		loose.git("update-ref", "refs/tags/light", c1);
		loose.git("update-ref", "refs/tags/annotated", loose.tagObject("annotated", c1, "commit"));
		loose.git("update-ref", "refs/notes/commits", c1);
		loose.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/main");
	}

	static Stream<String> arguments() {
		return Stream.of("", "--all", "--all --no-prune", "--no-prune", "--prune", "--all --prune", "x", "--bogus");
	}

	@ParameterizedTest(name = "pack-refs {0} (packed and loose)")
	@MethodSource("arguments")
	void packsMixedRefsAsGitDoes(String args) {
		assertSameEffect(mixed.dir(), temp.resolve("mixed-" + CASES.incrementAndGet()), new byte[0], command(args));
	}

	@ParameterizedTest(name = "pack-refs {0} (all loose)")
	@MethodSource("arguments")
	void packsLooseRefsAsGitDoes(String args) {
		assertSameEffect(loose.dir(), temp.resolve("loose-" + CASES.incrementAndGet()), new byte[0], command(args));
	}

	private static String[] command(String args) {
		return Stream.concat(Stream.of("pack-refs"), args.isEmpty() ? Stream.empty() : Stream.of(args.split(" ")))
			.toArray(String[]::new);
	}

}
