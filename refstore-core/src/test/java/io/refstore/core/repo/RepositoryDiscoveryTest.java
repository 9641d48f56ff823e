package io.refstore.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.repo.DiscoveredRepositories.SkipReason;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@link RepositoryDiscovery} over real directory trees with repositories made by git:
 * plain trees of several depths, GitLab's hashed storage, symbolic links in and out of
 * the root, hidden and unreadable directories.
 */
class RepositoryDiscoveryTest {

	@TempDir
	Path tmp;

	@Test
	void findsPlainRepositoriesDownToTheBoundAndCountsWhatIsDeeper() throws IOException {
		Path root = Files.createDirectories(this.tmp.resolve("root"));
		bare(root, "a.git");
		bare(root, "team/b.git");
		TempRepo.init(GitCli.system(), root.resolve("team/sub/work"));
		// a repository inside a repository is not looked for: the walk stops at the outer
		// one
		bare(root, "team/sub/work/inner.git");
		bare(root, "a.git/objects/nested.git");
		String eight = "l1/l2/l3/l4/l5/l6/l7/eight.git";
		String nine = "l1/l2/l3/l4/l5/l6/l7/l8/nine.git";
		bare(root, eight);
		bare(root, nine);
		Files.createDirectories(root.resolve("empty/group"));
		Files.writeString(root.resolve("team/README"), "not a directory");

		DiscoveredRepositories found = discover(root, RepositoryDiscovery.DEFAULT_MAX_DEPTH);
		assertThat(found.names()).containsExactly("a.git", eight, "team/b.git", "team/sub/work");
		assertThat(found.skipped()).containsExactly(entry(SkipReason.TOO_DEEP, 1L));
		assertThat(found.firstSkipped()).containsEntry(SkipReason.TOO_DEEP, nine);
		assertThat(found.describeSkipped()).isEqualTo("1 directory skipped: 1 deeper than 8 levels");

		DiscoveredRepositories shallow = discover(root, 2);
		assertThat(shallow.names()).containsExactly("a.git", "team/b.git");
		// below level 2, l1/l2/l3 and team/sub/work are not listed
		assertThat(shallow.skipped()).containsExactly(entry(SkipReason.TOO_DEEP, 2L));
		assertThat(shallow.describeSkipped()).isEqualTo("2 directories skipped: 2 deeper than 2 levels");
	}

	@Test
	void findsGitLabsHashedStorageWhateverTheBound() throws IOException {
		Path root = Files.createDirectories(this.tmp.resolve("repositories"));
		String project = sha256("1");
		String other = sha256("2");
		String snippet = sha256("7");
		String group = sha256("3");
		String pool = sha256("5");
		List<String> expected = new ArrayList<>();
		for (String name : List.of(hashed("@hashed", project, ".git"), hashed("@hashed", project, ".wiki.git"),
				hashed("@hashed", project, ".design.git"), hashed("@hashed", other, ".git"),
				hashed("@snippets", snippet, ".git"), hashed("@groups", group, ".wiki.git"),
				hashed("@pools", pool, ".git"), "@cluster/repositories/6b/86/1", "@cluster/pools/d4/73/2")) {
			bare(root, name);
			expected.add(name);
		}
		bare(root, "legacy/group/project.git");
		// what GitLab leaves or what does not belong there: counted, not listed
		bare(root, hashed("@hashed", other, "+2+deleted.git"));
		bare(root, "@hashed/6b/86/" + other + ".git");
		Files.createDirectories(root.resolve("@hashed/tmp/repositories"));
		Files.createDirectories(root.resolve("@cluster/other"));
		Files.createDirectories(root.resolve(hashed("@pools", sha256("6"), ".git")));

		DiscoveredRepositories found = discover(root, 1);
		assertThat(found.names()).containsExactlyElementsOf(expected.stream().sorted().toList());
		assertThat(found.skipped()).containsExactly(entry(SkipReason.TOO_DEEP, 1L),
				entry(SkipReason.NOT_A_REPOSITORY, 1L), entry(SkipReason.NOT_IN_LAYOUT, 4L));
		assertThat(found.firstSkipped())
			.containsEntry(SkipReason.NOT_A_REPOSITORY, hashed("@pools", sha256("6"), ".git"))
			.containsEntry(SkipReason.TOO_DEEP, "legacy/group");
		assertThat(found.describeSkipped()).isEqualTo("6 directories skipped: 4 not in the hosting layout, "
				+ "1 deeper than 1 level, 1 not a repository where the hosting layout has one");
		expected.add("legacy/group/project.git");
		assertThat(discover(root, 3).names()).containsExactlyElementsOf(expected.stream().sorted().toList());
	}

	@Test
	void followsNoSymbolicLinkAndSaysWhereEachLeads() throws IOException {
		Path root = Files.createDirectories(this.tmp.resolve("root"));
		Path outside = Files.createDirectories(this.tmp.resolve("outside"));
		bare(outside, "secret.git");
		bare(root, "team/real.git");
		Files.createSymbolicLink(root.resolve("secret.git"), outside.resolve("secret.git"));
		Files.createSymbolicLink(root.resolve("escape"), outside);
		Files.createSymbolicLink(root.resolve("alias.git"), Path.of("team/real.git"));
		Files.createSymbolicLink(root.resolve("team/dangling.git"), this.tmp.resolve("nowhere"));
		Files.createSymbolicLink(root.resolve("team/file-link"), Files.writeString(this.tmp.resolve("file"), "x"));

		DiscoveredRepositories found = discover(root, 8);
		assertThat(found.names()).containsExactly("team/real.git");
		assertThat(found.skipped()).containsExactly(entry(SkipReason.LINK_OUT_OF_ROOT, 2L), entry(SkipReason.LINK, 2L));
		assertThat(found.firstSkipped()).containsEntry(SkipReason.LINK_OUT_OF_ROOT, "escape")
			.containsEntry(SkipReason.LINK, "alias.git");
		assertThat(found.describeSkipped()).isEqualTo("4 directories skipped: 2 symbolic links out of the root, "
				+ "2 symbolic links inside the root or dangling");
	}

	@Test
	void skipsHiddenDirectoriesAndListsANameOfTwoRootsOnce() throws IOException {
		Path first = Files.createDirectories(this.tmp.resolve("first"));
		Path second = Files.createDirectories(this.tmp.resolve("second"));
		bare(first, "shared.git");
		bare(second, "shared.git");
		bare(second, "only-second.git");
		bare(first, ".snapshot/daily/shared.git");
		DiscoveredRepositories found = new RepositoryDiscovery(new RepositoryPaths(List.of(first, second)), 8)
			.discover();
		assertThat(found.names()).containsExactly("only-second.git", "shared.git");
		assertThat(found.skipped()).containsExactly(entry(SkipReason.HIDDEN, 1L));
		assertThat(found.firstSkipped()).containsEntry(SkipReason.HIDDEN, ".snapshot");
		assertThat(found.skippedTotal()).isEqualTo(1);
	}

	/**
	 * A directory the process cannot list is counted and the walk goes on. Root lists
	 * every directory whatever its mode, so as root the discovery runs in a process of
	 * user {@code nobody} (util-linux {@code setpriv}), from a copy of its classes that
	 * {@code nobody} may read (a checkout under {@code /root} is closed to it).
	 */
	@Test
	void countsAnUnreadableDirectoryAndGoesOn() throws Exception {
		Files.setPosixFilePermissions(this.tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
		Path root = Files.createDirectories(this.tmp.resolve("root"));
		bare(root, "open/a.git");
		bare(root, "locked/hidden.git");
		bare(root, "z.git");
		Path locked = root.resolve("locked");
		Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
		try {
			List<String> lines = runUnprivileged(root, 8, this.tmp.resolve("classes"));
			assertThat(lines).containsExactly("open/a.git", "z.git", "skipped: 1 directory skipped: 1 unreadable",
					"first unreadable: locked");
		}
		finally {
			Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
		}
	}

	@Test
	void refusesABoundBelowOne() throws IOException {
		RepositoryPaths paths = new RepositoryPaths(List.of(this.tmp));
		assertThatIllegalArgumentException().isThrownBy(() -> new RepositoryDiscovery(paths, 0))
			.withMessage("maxDepth 0 must be at least 1");
	}

	private static List<String> runUnprivileged(Path root, int maxDepth, Path classes) throws Exception {
		copyTree(Path.of(RepositoryDiscovery.class.getProtectionDomain().getCodeSource().getLocation().toURI()),
				classes);
		String main = DiscoveryMain.class.getName().replace('.', '/') + ".class";
		Path mainClass = Path.of(DiscoveryMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
			.resolve(main);
		Files.copy(mainClass, classes.resolve(main), StandardCopyOption.REPLACE_EXISTING);
		String classpath = classes.toString();
		List<String> command = new ArrayList<>();
		if ("root".equals(System.getProperty("user.name"))) {
			command.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
		}
		command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
				DiscoveryMain.class.getName(), root.toString(), Integer.toString(maxDepth)));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		return output.lines().toList();
	}

	private static void copyTree(Path from, Path to) throws IOException {
		try (Stream<Path> walk = Files.walk(from)) {
			for (Path path : (Iterable<Path>) walk::iterator) {
				Path copy = to.resolve(from.relativize(path).toString());
				if (Files.isDirectory(path)) {
					Files.createDirectories(copy);
				}
				else {
					Files.copy(path, copy);
				}
			}
		}
	}

	private static DiscoveredRepositories discover(Path root, int maxDepth) throws IOException {
		return new RepositoryDiscovery(new RepositoryPaths(List.of(root)), maxDepth).discover();
	}

	private static void bare(Path root, String name) {
		TempRepo.init(GitCli.system(), root.resolve(name), "--bare");
	}

	private static String hashed(String area, String hash, String suffix) {
		return area + "/" + hash.substring(0, 2) + "/" + hash.substring(2, 4) + "/" + hash + suffix;
	}

	private static String sha256(String id) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.US_ASCII));
			return HexFormat.of().formatHex(digest);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
