package io.refstore.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the reftable-capable git behind {@link GitCli#reftable()} and checks its version.
 * The machines of this project have git 2.39, which predates reftable;
 * {@code .ci/install-reftable-git.sh} installs a newer one beside it. Stateless and
 * thread-safe.
 */
final class ReftableGit {

	/** Names the wrapper that the install script printed. */
	static final String GIT_ENV = "REFSTORE_REFTABLE_GIT";

	/** The parent folder of the script's default prefixes, {@code git-<version>}. */
	static final String TOOLS_ENV = "REFSTORE_TOOLS";

	/** The first git release that reads and writes reftable repositories. */
	static final Version MINIMUM = new Version(2, 45, 0);

	static final String HOW_TO_INSTALL = "run .ci/install-reftable-git.sh (it installs git from Debian's "
			+ "packages into a private folder and prints the path of its git) and set " + GIT_ENV + " to that path";

	private static final Pattern VERSION_OUTPUT = Pattern.compile("git version (\\d+)\\.(\\d+)(?:\\.(\\d+))?\\b.*",
			Pattern.DOTALL);

	/**
	 * A prefix of the install script, such as {@code git-2.55.0}; {@code .installing} is
	 * one in the making.
	 */
	private static final Pattern PREFIX_NAME = Pattern
		.compile("git-(\\d+)\\.(\\d+)(?:\\.(\\d+))?(?!.*\\.installing$).*");

	private ReftableGit() {
	}

	/**
	 * The git to run: the file named by {@value #GIT_ENV}, else the newest
	 * {@code git-<version>/bin/git} that the install script left in
	 * {@code ${REFSTORE_TOOLS:-$HOME/.cache/refstore}}.
	 * @param env the environment to read ({@code System.getenv()} outside tests of this
	 * class)
	 * @param home the user's home folder
	 * @return an executable file; it is not run here
	 * @throws IllegalStateException if {@value #GIT_ENV} names no executable file, or it
	 * is unset and the script has installed nothing, with what to do about it
	 */
	static Path locate(Map<String, String> env, Path home) {
		String configured = env.get(GIT_ENV);
		if (configured != null && !configured.isBlank()) {
			Path git = Path.of(configured);
			if (!Files.isRegularFile(git) || !Files.isExecutable(git)) {
				throw new IllegalStateException(
						GIT_ENV + "=" + configured + " is not an executable file: " + HOW_TO_INSTALL);
			}
			return git;
		}
		String toolsValue = env.get(TOOLS_ENV);
		Path tools = (toolsValue != null && !toolsValue.isBlank()) ? Path.of(toolsValue)
				: home.resolve(".cache").resolve("refstore");
		return newestInstalled(tools)
			.orElseThrow(() -> new IllegalStateException("no git that knows reftable (>= " + MINIMUM + "): " + GIT_ENV
					+ " is not set and " + tools + " holds no git-<version>/bin/git; " + HOW_TO_INSTALL));
	}

	/**
	 * The newest {@code git-<version>/bin/git} in {@code tools}, by version number, if
	 * any.
	 */
	static Optional<Path> newestInstalled(Path tools) {
		if (!Files.isDirectory(tools)) {
			return Optional.empty();
		}
		try (Stream<Path> children = Files.list(tools)) {
			List<Path> prefixes = children.filter((dir) -> PREFIX_NAME.matcher(dir.getFileName().toString()).matches())
				.filter((dir) -> Files.isExecutable(dir.resolve("bin").resolve("git")))
				.toList();
			return prefixes.stream()
				.max(Comparator.comparing((Path dir) -> parse(PREFIX_NAME, dir.getFileName().toString())))
				.map((dir) -> dir.resolve("bin").resolve("git"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot list " + tools, ex);
		}
	}

	/**
	 * Checks what {@code git version} printed.
	 * @param git the git that printed it, for the message
	 * @param output its standard output, such as {@code git version 2.47.3}
	 * @return the version
	 * @throws IllegalStateException if the output is no git version, or the version is
	 * older than {@link #MINIMUM}
	 */
	static Version requireReftable(Path git, String output) {
		String line = output.strip();
		if (!VERSION_OUTPUT.matcher(line).matches()) {
			throw new IllegalStateException(
					git + " is not git: 'git version' printed '" + line + "'; " + HOW_TO_INSTALL);
		}
		Version version = parse(VERSION_OUTPUT, line);
		if (version.compareTo(MINIMUM) < 0) {
			throw new IllegalStateException(git + " is git " + version + ", which predates reftable (git >= " + MINIMUM
					+ " is needed): " + HOW_TO_INSTALL);
		}
		return version;
	}

	private static Version parse(Pattern pattern, String text) {
		Matcher matcher = pattern.matcher(text);
		if (!matcher.matches()) {
			throw new IllegalArgumentException("no version in '" + text + "'");
		}
		int patch = (matcher.group(3) != null) ? Integer.parseInt(matcher.group(3)) : 0;
		return new Version(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)), patch);
	}

	/**
	 * A git release number.
	 *
	 * @param major the first number
	 * @param minor the second number
	 * @param patch the third number (0 when absent)
	 */
	record Version(int major, int minor, int patch) implements Comparable<Version> {

		@Override
		public int compareTo(Version other) {
			return Comparator.comparingInt(Version::major)
				.thenComparingInt(Version::minor)
				.thenComparingInt(Version::patch)
				.compare(this, other);
		}

		@Override
		public String toString() {
			return this.major + "." + this.minor + "." + this.patch;
		}

	}

}
