package io.refstore.web.journal;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.RefstoreApplication;

/**
 * The journal's figures in the application (issue 39's benchmark rows): ingestion of a
 * journal file of {@code entries} lines into the database (entries per second), a ref's
 * history (its newest 100 entries) and the first page of the deleted refs view, each the
 * median of 30 queries through {@link JournalService} as the API makes them (each ingests
 * the repository's new entries first, none here). The journal is synthetic: refs
 * {@code entries / 10} refs {@code refs/heads/b0000000...} each changed in turn (a
 * creation, then moves), and every one deleted at the end (10 million entries hold 1
 * million deletions); the repository holds none of its refs, so every deletion is listed.
 * A main program, not a test: run it on a quiet machine.
 *
 * <pre>
 * ./mvnw -q -o -pl refstore-web -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/tmp/web-cp.txt
 * java -Xmx4g -cp refstore-web/target/test-classes:refstore-web/target/classes:$(cat /tmp/web-cp.txt) \
 *     io.refstore.web.journal.JournalBenchmark 1000000 [h2 | jdbc-url user password]
 * </pre>
 */
public final class JournalBenchmark {

	private static final int QUERIES = 30;

	private JournalBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int entries = Integer.parseInt(args[0]);
		Path home = Files.createTempDirectory("refstore-journal-bench");
		Path roots = Files.createDirectories(home.resolve("repos"));
		String url = (args.length > 2) ? args[1]
				: "jdbc:h2:file:" + home.resolve("data/refstore") + ";AUTO_SERVER=FALSE;WRITE_DELAY=0";
		TempRepo repo = TempRepo.init(GitCli.system(), roots.resolve("bench.git"), "--bare");
		int refs = Math.max(1, entries / 10);
		long written = writeJournal(JournalHook.journalFile(repo.gitDir()), entries, refs);
		// command-line arguments: they take precedence over application.yml (default
		// properties do not)
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RefstoreApplication.class).run(
				"--server.port=0", "--refstore.home=" + home, "--refstore.repositories.roots[0]=" + roots,
				"--refstore.demo.enabled=false", "--refstore.journal.ingest-interval=0",
				"--spring.main.banner-mode=off", "--logging.level.root=WARN", "--spring.datasource.url=" + url,
				"--spring.datasource.username=" + ((args.length > 2) ? args[2] : "sa"),
				"--spring.datasource.password=" + ((args.length > 3) ? args[3] : ""))) {
			JournalIngester ingester = context.getBean(JournalIngester.class);
			JournalService journal = context.getBean(JournalService.class);
			long cpu = cpuNanos();
			long started = System.nanoTime();
			long ingested = ingester.ingest("bench.git");
			double seconds = (System.nanoTime() - started) / 1e9;
			System.out.printf(Locale.ROOT,
					"ingestion: %,d entries (%,d bytes) in %.2f s: %,.0f entries/s (this JVM's CPU: %.2f s)%n",
					ingested, written, seconds, ingested / seconds, (cpuNanos() - cpu) / 1e9);
			SecurityContextHolder.getContext()
				.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("benchmark", null,
						AuthorityUtils.createAuthorityList("ROLE_VIEWER")));
			Random random = new Random(42);
			List<Long> history = new ArrayList<>();
			for (int i = 0; i < QUERIES; i++) {
				String ref = ref(random.nextInt(refs));
				long t = System.nanoTime();
				int shown = journal.timeline("bench.git", ref, "", null, 0, 100).items().size();
				history.add(System.nanoTime() - t);
				if (shown == 0) {
					throw new IllegalStateException("no history of " + ref);
				}
			}
			List<Long> deleted = new ArrayList<>();
			for (int i = 0; i < QUERIES; i++) {
				long t = System.nanoTime();
				int shown = journal.deleted("bench.git", "", 0, 100).items().size();
				deleted.add(System.nanoTime() - t);
				if (shown != 100) {
					throw new IllegalStateException("the deleted view listed " + shown + " refs");
				}
			}
			System.out.printf(Locale.ROOT, "a ref's history (100 newest of %,d entries): median %.1f ms, max %.1f ms%n",
					entries, median(history), max(history));
			System.out.printf(Locale.ROOT,
					"deleted refs, first page of 100 (%,d deletions): median %.1f ms, max %.1f ms%n", refs,
					median(deleted), max(deleted));
		}
		finally {
			try (var walk = Files.walk(home)) {
				walk.sorted(Collections.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
		}
	}

	/**
	 * {@code entries} lines over {@code refs} refs, each changed in turn, every ref
	 * deleted by the last {@code refs} lines.
	 * @return the file's size
	 */
	private static long writeJournal(Path file, int entries, int refs) throws IOException {
		Files.createDirectories(file.getParent());
		String zero = "0".repeat(40);
		int deletions = refs;
		try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
			for (int i = 0; i < entries; i++) {
				int ref = i % refs;
				boolean delete = i >= entries - deletions;
				String old = (i < refs) ? zero : value(i - refs);
				String value = delete ? zero : value(i);
				long second = 1_700_000_000L + i / 1000;
				out.write(i + "-1\t" + second + ".000000000\t" + old + "\t" + value + "\t" + ref(ref)
						+ "\tgit\tGL_USERNAME=user" + (ref % 50) + "\n");
			}
		}
		return Files.size(file);
	}

	private static String ref(int n) {
		return String.format(Locale.ROOT, "refs/heads/b%07d", n);
	}

	/**
	 * The {@code n}th object id: random-looking as real ones are (the SHA-1 of its
	 * number), so that the indexes of object ids take them in no order.
	 */
	private static String value(int n) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-1")
					.digest(Integer.toString(n).getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java has SHA-1", ex);
		}
	}

	/**
	 * The CPU time this JVM has used, all threads: on a machine shared with other work
	 * the elapsed time also counts the waits for a core.
	 */
	private static long cpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	private static double median(List<Long> nanos) {
		List<Long> sorted = new ArrayList<>(nanos);
		Collections.sort(sorted);
		return sorted.get(sorted.size() / 2) / 1e6;
	}

	private static double max(List<Long> nanos) {
		return Collections.max(nanos) / 1e6;
	}

}
