package io.refstore.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code refstore} launcher script that the whole-process runs time, exactly as a
 * user runs the command: it starts the checkout's command jar with its JVM flags and its
 * class-data archive. Immutable.
 */
final class Launcher {

	private final Path script;

	private final Path jar;

	private Launcher(Path script, Path jar) {
		this.script = script;
		this.jar = jar;
	}

	/**
	 * The launcher to time and the jar it runs.
	 * @param configured the script named by {@code --launcher}, or {@code null} for
	 * {@code ./refstore} of the checkout that holds the benchmark jar
	 * @throws IllegalStateException if the script or its jar is missing, saying how to
	 * build it
	 */
	static Launcher find(Path configured) {
		Path script = (configured != null) ? configured : checkout().resolve("refstore");
		if (!Files.isRegularFile(script) || !Files.isExecutable(script)) {
			throw new IllegalStateException(
					"the refstore launcher " + script + " is not an executable file; name " + "it with --launcher");
		}
		// an installation's bin/refstore runs ../lib; the checkout's ./refstore the one
		// unpacked by the build
		Path dir = script.toAbsolutePath().getParent();
		Path lib = dir.resolveSibling("lib");
		if (!dir.getFileName().toString().equals("bin")) {
			Path target = dir.resolve("refstore-core").resolve("target");
			List<Path> dists = list(target, "refstore-[0-9].*").stream().filter(Files::isDirectory).toList();
			Path dist = dists.isEmpty() ? target : dists.get(dists.size() - 1);
			lib = dist.resolve(dist.getFileName()).resolve("lib");
		}
		List<Path> jars = list(lib, "refstore-core-.*\\.jar");
		if (jars.isEmpty()) {
			throw new IllegalStateException("the refstore command jar is missing from " + lib + ": build it with "
					+ "./mvnw -q -DskipTests package");
		}
		return new Launcher(script.toAbsolutePath(), jars.get(jars.size() - 1));
	}

	/** The command line that runs refstore. */
	List<String> command() {
		return List.of(this.script.toString());
	}

	Path script() {
		return this.script;
	}

	/** The command jar the launcher runs (the newest, as it picks). */
	Path jar() {
		return this.jar;
	}

	/**
	 * Makes the launcher's class-data archive (or ahead-of-time cache) for this jar
	 * afresh with one untimed {@code refstore for-each-ref}, so that every benchmark
	 * times the same archive. The launcher writes it on its first run with the classes
	 * that run loaded; left alone, the archive would hold whatever command happened to
	 * run first (after {@code refstore -h}, hardly any of refstore's classes).
	 * @return which archive the timed runs use, for the report
	 */
	String prime(Processes processes, Path repo, Path scratch) throws IOException {
		String stem = this.jar.getFileName().toString().replaceFirst("\\.jar$", "");
		// a class-data archive (.jsa) before Java 25, an ahead-of-time cache (.aot) from
		// it on, one per kind of command (the first run of each other kind makes its own:
		// a slow operation's median of three runs leaves that run out)
		String ours = java.util.regex.Pattern.quote(stem) + "\\.[0-9]+\\.[a-z-]+\\.(jsa|aot)";
		for (Path old : list(this.jar.getParent(), ours)) {
			Files.delete(old);
		}
		List<String> forEachRef = new ArrayList<>(command());
		forEachRef.add("for-each-ref");
		processes.measure(forEachRef, repo, null, scratch.resolve("prime.out")).requireOk();
		List<Path> made = list(this.jar.getParent(), ours);
		return made.isEmpty() ? "none (the launcher made no archive for " + this.jar.getFileName() + ")"
				: "`" + names(made) + "`, made afresh by an untimed `refstore for-each-ref` (the launcher's first run "
						+ "writes it with the classes that run loads)";
	}

	private static String names(Iterable<Path> paths) {
		StringBuilder names = new StringBuilder();
		for (Path path : paths) {
			names.append((names.length() > 0) ? ", " : "").append(path.getFileName());
		}
		return names.toString();
	}

	/**
	 * The checkout that holds this class's jar
	 * ({@code <checkout>/refstore-benchmark/target/...}).
	 */
	private static Path checkout() {
		try {
			Path location = Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
			// <checkout>/refstore-benchmark/target/refstore-benchmark.jar
			Path checkout = location.getParent().getParent().getParent();
			if (checkout == null) {
				throw new IllegalStateException(location + " is not in a checkout's refstore-benchmark/target; "
						+ "name the launcher with --launcher");
			}
			return checkout;
		}
		catch (URISyntaxException | NullPointerException ex) {
			throw new IllegalStateException("cannot tell where this jar is; name the launcher with --launcher", ex);
		}
	}

	private static List<Path> list(Path dir, String regex) {
		if (!Files.isDirectory(dir)) {
			return List.of();
		}
		try (Stream<Path> files = Files.list(dir)) {
			return files.filter((file) -> file.getFileName().toString().matches(regex)).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot list " + dir, ex);
		}
	}

}
