package io.refstore.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web layer reaches refs only through the public APIs: no class in
 * {@code io.refstore.web} may use core's storage internals
 * ({@code io.refstore.core.files}, {@code .reftable}, {@code .io}) or their subpackages.
 * Checked twice: in the compiled classes (every type the bytecode refers to, however the
 * source spelled it) and in the sources (imports and full names, which also catches an
 * unused import).
 */
class WebArchitectureTest {

	private static final List<String> FORBIDDEN = List.of("io.refstore.core.files", "io.refstore.core.reftable",
			"io.refstore.core.io");

	private static final Pattern FORBIDDEN_IN_SOURCE = Pattern
		.compile("\\bio\\s*\\.\\s*refstore\\s*\\.\\s*core\\s*\\.\\s*(files|reftable|io)\\s*[.;]");

	/** Batch's types about repositories, which moved to {@code io.refstore.core.repo}. */
	private static final Pattern BATCH_REPOSITORY_TYPE = Pattern
		.compile("io[./]refstore[./]batch[./]support[./](Invalid)?Repository\\w*");

	@Test
	void noWebClassRefersToCoreStorageInternals() throws IOException, URISyntaxException {
		Path web = classesDirectory().resolve("io/refstore/web");
		Map<String, Set<String>> scanned = new TreeMap<>();
		Map<String, Set<String>> violations = classViolations(web, scanned);
		assertThat(scanned).as("classes scanned").containsKey("io/refstore/web/RefstoreApplication.class");
		assertThat(violations).as("web classes that refer to core storage internals").isEmpty();
	}

	@Test
	void noWebSourceNamesCoreStorageInternals() throws IOException, URISyntaxException {
		Path sources = classesDirectory().getParent().getParent().resolve("src/main/java/io/refstore/web");
		assertThat(sources.resolve("RefstoreApplication.java")).isRegularFile();
		assertThat(sourceViolations(sources)).as("web sources that name core storage internals").isEmpty();
	}

	/**
	 * Compiles a small web package with real javac and checks that both scans flag what
	 * they must.
	 */
	@Test
	void bothChecksCatchForbiddenUsesAndPassAllowedOnes(@TempDir Path tmp) throws IOException {
		Path src = tmp.resolve("src");
		write(src, "io/refstore/core/files/LooseRefs.java",
				"package io.refstore.core.files; public class LooseRefs { public static int count() { return 1; } }");
		write(src, "io/refstore/core/io/LockFile.java", "package io.refstore.core.io; public class LockFile { }");
		write(src, "io/refstore/core/iox/Helper.java", "package io.refstore.core.iox; public class Helper { }");
		write(src, "io/refstore/web/bad/UsesImport.java", "package io.refstore.web.bad;\n"
				+ "import io.refstore.core.files.LooseRefs;\nclass UsesImport { int n = LooseRefs.count(); }");
		write(src, "io/refstore/web/bad/UsesFullName.java", "package io.refstore.web.bad;\n"
				+ "class UsesFullName { Object keep(io.refstore.core.io.LockFile lock) { return lock; } }");
		write(src, "io/refstore/web/good/Clean.java", "package io.refstore.web.good;\n"
				+ "import io.refstore.core.iox.Helper;\nclass Clean { Helper helper = new Helper(); }");
		Path out = compile(src, tmp.resolve("classes"));

		Map<String, Set<String>> scanned = new TreeMap<>();
		assertThat(classViolations(out.resolve("io/refstore/web"), scanned))
			.isEqualTo(Map.of("io/refstore/web/bad/UsesImport.class", Set.of("io/refstore/core/files/LooseRefs"),
					"io/refstore/web/bad/UsesFullName.class", Set.of("io/refstore/core/io/LockFile")));
		assertThat(scanned).containsKey("io/refstore/web/good/Clean.class");
		assertThat(sourceViolations(src.resolve("io/refstore/web"))).hasSize(2)
			.anySatisfy((line) -> assertThat(line).startsWith("bad/UsesImport.java:2:"))
			.anySatisfy((line) -> assertThat(line).startsWith("bad/UsesFullName.java:2:"));
	}

	/**
	 * Repository roots, name resolution and discovery are core's
	 * ({@code io.refstore.core.repo}): no web class or source refers to batch's former
	 * {@code RepositoryPaths} or {@code InvalidRepositoryNameException}, nor to any other
	 * {@code Repository*} type of {@code io.refstore.batch.support}, and the registry
	 * resolves and walks through core. The scan is shown to flag such a use in a class
	 * compiled by real javac.
	 */
	@Test
	void webResolvesRepositoriesThroughCore(@TempDir Path tmp) throws IOException, URISyntaxException {
		Path web = classesDirectory().resolve("io/refstore/web");
		assertThat(batchRepositoryUses(web, ".class")).as("web classes that resolve repositories through batch")
			.isEmpty();
		Path sources = classesDirectory().getParent().getParent().resolve("src/main/java/io/refstore/web");
		assertThat(batchRepositoryUses(sources, ".java")).as("web sources that resolve repositories through batch")
			.isEmpty();
		assertThat(ClassFileConstants.utf8(Files.readAllBytes(web.resolve("repos/RepoRegistry.class"))))
			.contains("io/refstore/core/repo/RepositoryPaths", "io/refstore/core/repo/RepositoryDiscovery");

		Path src = tmp.resolve("src");
		write(src, "io/refstore/batch/support/RepositoryPaths.java",
				"package io.refstore.batch.support; public class RepositoryPaths { }");
		write(src, "io/refstore/batch/support/JobLeases.java",
				"package io.refstore.batch.support; public class JobLeases { }");
		write(src, "io/refstore/web/bad/Resolves.java", "package io.refstore.web.bad;\n"
				+ "class Resolves { Object keep(io.refstore.batch.support.RepositoryPaths paths) { return paths; } }");
		write(src, "io/refstore/web/good/Leases.java", "package io.refstore.web.good;\n"
				+ "import io.refstore.batch.support.JobLeases;\nclass Leases { JobLeases leases; }");
		Path out = compile(src, tmp.resolve("classes"));
		assertThat(batchRepositoryUses(out.resolve("io/refstore/web"), ".class"))
			.containsExactly("bad/Resolves.class: io/refstore/batch/support/RepositoryPaths");
		assertThat(batchRepositoryUses(src.resolve("io/refstore/web"), ".java"))
			.containsExactly("bad/Resolves.java: io.refstore.batch.support.RepositoryPaths");
	}

	/**
	 * {@code file: type} for each batch repository type a class file's constants or a
	 * source's text names.
	 */
	private static List<String> batchRepositoryUses(Path dir, String suffix) throws IOException {
		List<String> uses = new ArrayList<>();
		for (Path file : files(dir, suffix)) {
			Set<String> named = new TreeSet<>();
			List<String> texts = suffix.equals(".class") ? ClassFileConstants.utf8(Files.readAllBytes(file))
					: List.of(Files.readString(file));
			for (String text : texts) {
				Matcher matcher = BATCH_REPOSITORY_TYPE.matcher(text);
				while (matcher.find()) {
					named.add(matcher.group());
				}
			}
			for (String type : named) {
				uses.add(dir.relativize(file).toString().replace('\\', '/') + ": " + type);
			}
		}
		return uses;
	}

	/**
	 * Scans every class file below {@code dir}; records each one's text constants in
	 * {@code scanned} and returns, per offending class, the constants that name a
	 * forbidden package.
	 */
	private static Map<String, Set<String>> classViolations(Path dir, Map<String, Set<String>> scanned)
			throws IOException {
		Path base = dir.getParent().getParent().getParent();
		Map<String, Set<String>> violations = new TreeMap<>();
		for (Path file : files(dir, ".class")) {
			String name = base.relativize(file).toString().replace('\\', '/');
			Set<String> constants = new TreeSet<>(ClassFileConstants.utf8(Files.readAllBytes(file)));
			scanned.put(name, constants);
			Set<String> bad = new TreeSet<>();
			for (String constant : constants) {
				for (String forbidden : FORBIDDEN) {
					String internal = forbidden.replace('.', '/') + "/";
					int at = Math.max(constant.indexOf(internal), constant.indexOf(forbidden + "."));
					if (at >= 0) {
						bad.add(typeNameAt(constant, at));
					}
				}
			}
			if (!bad.isEmpty()) {
				violations.put(name, bad);
			}
		}
		return violations;
	}

	/**
	 * The type name starting at {@code at} in a descriptor or signature, without its
	 * trailing ';' or '<'.
	 */
	private static String typeNameAt(String constant, int at) {
		int end = at;
		while (end < constant.length() && ";<>()[".indexOf(constant.charAt(end)) < 0) {
			end++;
		}
		return constant.substring(at, end);
	}

	/**
	 * Lines of the sources below {@code dir} that name a forbidden package, as
	 * {@code path:line: text}.
	 */
	private static List<String> sourceViolations(Path dir) throws IOException {
		List<String> violations = new ArrayList<>();
		for (Path file : files(dir, ".java")) {
			List<String> lines = Files.readAllLines(file);
			for (int i = 0; i < lines.size(); i++) {
				Matcher matcher = FORBIDDEN_IN_SOURCE.matcher(lines.get(i));
				if (matcher.find()) {
					violations.add(dir.relativize(file).toString().replace('\\', '/') + ":" + (i + 1) + ": "
							+ lines.get(i).strip());
				}
			}
		}
		return violations;
	}

	private static List<Path> files(Path dir, String suffix) throws IOException {
		try (Stream<Path> walk = Files.walk(dir)) {
			return walk.filter((path) -> path.toString().endsWith(suffix)).sorted().toList();
		}
	}

	private static Path classesDirectory() throws URISyntaxException {
		return Path.of(RefstoreApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI());
	}

	private static void write(Path src, String path, String content) throws IOException {
		Path file = src.resolve(path);
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
	}

	private static Path compile(Path src, Path out) throws IOException {
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		assertThat(javac).as("javac of the running JDK (tests need a JDK, not a JRE)").isNotNull();
		Files.createDirectories(out);
		List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-proc:none"));
		args.addAll(files(src, ".java").stream().map(Path::toString).toList());
		int exit = javac.run(null, null, null, args.toArray(String[]::new));
		assertThat(exit).as("javac exit code").isZero();
		return out;
	}

}
