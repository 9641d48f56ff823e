package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertSame;
import static io.refstore.core.cli.CliHarness.git;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * The installable command as {@code package} makes it ({@code refstore-<version>.tar.gz}
 * and {@code .zip}): unpacked elsewhere, {@code bin/refstore} runs from any working
 * directory, through symbolic links, under {@code LC_ALL=C} and from a directory its user
 * cannot write, and prints what git prints. The launcher is POSIX sh (checked by dash,
 * Debian's sh), and the Dockerfile installs exactly what the archive holds.
 */
class DistributionIT {

	private static final Path DIST = Path.of(System.getProperty("refstore.dist", "target/refstore-missing"));

	private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

	@TempDir
	static Path temp;

	private static TempRepo rich;

	@BeforeAll
	static void setUp() {
		rich = CliFixtures.rich(temp.resolve("rich"));
		// a loose ref whose file name is not ASCII, written through standard input to
		// keep the name's bytes
		String main = rich.git("rev-parse", "refs/heads/main").trim();
		rich.run(("create refs/heads/loose-\u00fc " + main + "\n").getBytes(StandardCharsets.UTF_8), "update-ref",
				"--stdin")
			.requireOk();
	}

	@Test
	void archivesHoldTheLauncherAndRefstoresJarAlone() throws IOException {
		String base = DIST.getFileName().toString();
		List<String> tar = new ArrayList<>(sh(PROJECT, "tar -tzf '" + archive(".tar.gz") + "'").requireOk()
			.stdout()
			.lines()
			.filter((entry) -> !entry.endsWith("/"))
			.toList());
		Collections.sort(tar);
		String version = base.substring("refstore-".length());
		assertThat(tar).containsExactly(base + "/bin/refstore", base + "/lib/refstore-core-" + version + ".jar");
		try (ZipFile zip = new ZipFile(archive(".zip").toFile())) {
			assertThat(zip.stream().map(ZipEntry::getName).filter((entry) -> !entry.endsWith("/")).sorted())
				.containsExactlyElementsOf(tar);
		}
		String verbose = sh(PROJECT, "tar -tvzf '" + archive(".tar.gz") + "'").requireOk().stdout();
		assertThat(verbose.lines().filter((line) -> line.endsWith("/bin/refstore"))).singleElement()
			.asString()
			.startsWith("-rwxr-xr-x");
		Path jar = DIST.resolve(base).resolve("lib/refstore-core-" + version + ".jar");
		try (ZipFile zip = new ZipFile(jar.toFile())) {
			assertThat(zip.stream().map(ZipEntry::getName))
				.as("the command's jar bundles nothing: refstore-core has no runtime dependency")
				.allMatch((entry) -> entry.startsWith("io/") || entry.startsWith("META-INF/"))
				.noneMatch((entry) -> entry.contains("jgit") || entry.contains("slf4j"));
		}
	}

	@Test
	void launcherIsPosixShell() {
		Path launcher = DIST.resolve(DIST.getFileName()).resolve("bin/refstore");
		assertThat(sh(PROJECT, "dash -n '" + launcher + "' && dash -n ./refstore && dash -n docker/refstore-web")
			.exitCode()).isZero();
		assertThat(sh(PROJECT, "head -n 1 '" + launcher + "'").stdout()).isEqualTo("#!/bin/sh\n");
	}

	@Test
	void unpackedLauncherRunsFromAnyDirectoryThroughSymbolicLinks() throws IOException {
		Path home = unpack(temp.resolve("install"));
		Path bin = Files.createDirectories(temp.resolve("usr/local/bin"));
		Files.createSymbolicLink(bin.resolve("refstore"), home.resolve("bin/refstore"));
		// a relative link to that link, as a package manager's alternatives would make
		Files.createSymbolicLink(bin.resolve("rs"), Path.of("refstore"));
		Path cache = temp.resolve("cache");
		for (Path launcher : List.of(home.resolve("bin/refstore"), bin.resolve("refstore"), bin.resolve("rs"))) {
			GitCli installed = installed(launcher, cache);
			// in the repository's working tree without -C, and from elsewhere with it
			assertSame(git(rich.dir(), new byte[0], "show-ref", "-d"), installed.run(rich.dir(), "show-ref", "-d"));
			assertSame(git(rich.dir(), new byte[0], "for-each-ref"),
					installed.run(temp, "-C", rich.dir().toString(), "for-each-ref"));
			// under the C locale, the loose branch with a non-ASCII name is still listed
			assertSame(git(rich.dir(), new byte[0], "for-each-ref", "refs/heads/"),
					installed.withEnv("LC_ALL", "C").run(rich.dir(), "for-each-ref", "refs/heads/"));
		}
		try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
			List<String> archives = lib.map((file) -> file.getFileName().toString())
				.filter((name) -> name.endsWith(".jsa") || name.endsWith(".aot"))
				.toList();
			String suffix = (Runtime.version().feature() >= 25) ? "aot" : "jsa";
			assertThat(archives)
				.as("a class-data archive (Java 25: an ahead-of-time cache) per kind of command, made once by its first run beside the jar of a writable installation")
				.hasSize(2)
				.anyMatch((name) -> name.matches("refstore-core-.*\\.[0-9]+\\.show-ref\\." + suffix))
				.anyMatch((name) -> name.matches("refstore-core-.*\\.[0-9]+\\.for-each-ref\\." + suffix));
		}
		assertThat(cache).doesNotExist();
	}

	/**
	 * An installation its user cannot write (root's {@code /opt}, run by another user):
	 * the launcher keeps its class-data archive in the user's cache instead. Root may
	 * write anywhere, so as root the command runs as {@code nobody} on a copy of the
	 * repository that {@code nobody} owns.
	 */
	/**
	 * A migration of a small store runs on C1 alone (C2's compilations cost more than
	 * they save below a few hundred thousand refs), with its own class-data archive; the
	 * store is migrated all the same.
	 */
	@Test
	void migrationOfASmallStoreHasItsOwnArchive() throws IOException {
		Path home = unpack(temp.resolve("small-migration"));
		Path repo = CliHarness.copy(rich.dir(), temp.resolve("small-migration-repo"));
		GitCli installed = installed(home.resolve("bin/refstore"), temp.resolve("small-migration-cache"));
		String before = installed.run(repo, "show-ref", "-d").stdout();

		assertThat(installed.run(repo, "refs", "migrate", "--ref-format=reftable").exitCode()).isZero();

		assertThat(GitCli.reftable().ok(repo, "rev-parse", "--show-ref-format").trim()).isEqualTo("reftable");
		assertThat(GitCli.reftable().ok(repo, "show-ref", "-d")).isEqualTo(before);
		try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
			assertThat(lib.map((file) -> file.getFileName().toString()))
				.anyMatch((name) -> name.matches("refstore-core-.*\\.[0-9]+\\.refs-migrate-small\\.(aot|jsa)"));
		}
	}

	@Test
	void readOnlyInstallationKeepsItsArchiveInTheUsersCache() throws IOException {
		Path home = unpack(temp.resolve("read-only"));
		Path cache = temp.resolve("nobody-cache");
		Path repo = CliHarness.copy(rich.dir(), temp.resolve("nobody-repo"));
		sh(temp, "chmod -R a-w '" + home + "' && chmod -R a+rX '" + temp + "'").requireOk();
		Files.createDirectories(cache);
		Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));
		List<String> command = new ArrayList<>();
		if ("root".equals(System.getProperty("user.name"))) {
			sh(temp, "chown -R 65534:65534 '" + repo + "' '" + cache + "'").requireOk();
			command.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"));
		}
		command.add(home.resolve("bin/refstore").toString());
		GitCli installed = GitCli.command(command)
			.withEnv("XDG_CACHE_HOME", cache.toString())
			.withEnv("JAVA_HOME", System.getProperty("java.home"))
			.withEnv("LC_ALL", "C");
		for (int run = 0; run < 2; run++) {
			assertSame(git(rich.dir(), new byte[0], "for-each-ref"), installed.run(repo, "for-each-ref"));
		}
		assertThat(sh(temp, "ls '" + cache + "/refstore'").stdout())
			.matches("refstore-core-.*\\.[0-9]+\\.for-each-ref\\.(jsa|aot)\n");
		assertThat(sh(temp, "ls '" + home + "/lib'").stdout()).doesNotContain(".jsa").doesNotContain(".aot");
	}

	/**
	 * The Dockerfile unpacks the archive the build made (its own tar command, run here)
	 * into the directory it copies to {@code /opt/refstore/cli}, and links
	 * {@code /usr/local/bin/refstore} to its {@code bin/refstore}; the image's entry
	 * point runs that command when its first argument is {@code refstore}.
	 */
	@Test
	void dockerfileInstallsTheArchiveAndTheEntryPointRunsIt() throws IOException {
		String dockerfile = Files.readString(PROJECT.resolve("Dockerfile"));
		Matcher unpack = Pattern.compile("mkdir (/src/cli) && (tar -xzf (\\S+) -C /src/cli --strip-components=1)")
			.matcher(dockerfile);
		assertThat(unpack.find()).as("the build stage unpacks the archive into /src/cli").isTrue();
		assertThat(dockerfile).contains("COPY --from=build /src/cli/ /opt/refstore/cli/",
				"ln -s /opt/refstore/cli/bin/refstore /usr/local/bin/refstore");
		Path src = Files.createDirectories(temp.resolve("docker/src/cli"));
		sh(PROJECT, unpack.group(2).replace("/src/cli", "'" + src + "'")).requireOk();
		Path bin = Files.createDirectories(temp.resolve("docker/usr/local/bin"));
		Files.createSymbolicLink(bin.resolve("refstore"), src.resolve("bin/refstore"));
		GitCli entryPoint = GitCli.command(List.of(PROJECT.resolve("docker/refstore-web").toString()))
			.withEnv("PATH", bin + ":" + System.getenv("PATH"))
			.withEnv("JAVA_HOME", System.getProperty("java.home"))
			.withEnv("REFSTORE_CDS_DIR", temp.resolve("docker/cds").toString());
		assertSame(git(rich.dir(), new byte[0], "show-ref", "--tags"),
				entryPoint.run(temp, "refstore", "-C", rich.dir().toString(), "show-ref", "--tags"));
	}

	private static GitCli installed(Path launcher, Path cache) {
		return GitCli.command(List.of(launcher.toString()))
			.withEnv("XDG_CACHE_HOME", cache.toString())
			.withEnv("JAVA_HOME", System.getProperty("java.home"));
	}

	/**
	 * Unpacks the tar.gz into {@code dir} as a user would: the one directory it holds is
	 * the installation.
	 */
	private static Path unpack(Path dir) throws IOException {
		Files.createDirectories(dir);
		sh(dir, "tar -xzf '" + archive(".tar.gz") + "'").requireOk();
		return dir.resolve(DIST.getFileName());
	}

	private static Path archive(String extension) {
		Path archive = DIST.resolveSibling(DIST.getFileName() + extension);
		assertThat(archive).as("built by ./mvnw package").isRegularFile();
		return archive;
	}

	private static GitCli.Result sh(Path dir, String script) {
		return GitCli.command(List.of("sh", "-c", script)).run(dir);
	}

}
