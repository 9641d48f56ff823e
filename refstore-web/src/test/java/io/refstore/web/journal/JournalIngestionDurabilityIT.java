package io.refstore.web.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;

import io.refstore.core.journal.JournalHook;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.SystemCalls;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.RefstoreApplication;

/**
 * What the ingestion forces before it relies on it, seen by strace attached to this JVM
 * (the power cuts behind it were found with a fault-injecting file system, issue 39's
 * closing notes): the hook forces nothing it appends, so each run forces the bytes it
 * read before their offset is committed (a file cut back below a recorded offset would be
 * read again from its start, its entries stored twice); and H2, which forces no commit,
 * forces what it committed before a compaction renames the file over the one set aside
 * before (else a power cut could leave the database behind a file that no longer exists).
 */
class JournalIngestionDurabilityIT {

	private static final String REPO = "durable.git";

	/**
	 * The ingester's run ({@code refstore.journal.ingest-run}), small for the tracing.
	 */
	private static final int RUN = 2_000;

	/** Two whole runs and some: three runs. */
	private static final int LINES = 2 * RUN + 321;

	private Path home;

	private Path journal;

	private ConfigurableApplicationContext context;

	private JournalIngester ingester;

	@BeforeEach
	void start() throws IOException {
		this.home = Files.createTempDirectory("refstore-journal-durable").toRealPath();
		Path roots = Files.createDirectories(this.home.resolve("repos"));
		TempRepo repo = TempRepo.init(GitCli.system(), roots.resolve(REPO), "--bare");
		this.journal = JournalHook.journalFile(repo.gitDir());
		Files.createDirectories(this.journal.getParent());
		try (BufferedWriter out = Files.newBufferedWriter(this.journal, StandardCharsets.UTF_8)) {
			for (int i = 0; i < LINES; i++) {
				out.write("t" + i + "\t" + (1_796_000_000L + i) + ".000000000\t" + "0".repeat(40) + "\t"
						+ String.format(Locale.ROOT, "%040x", i + 1) + "\trefs/heads/b/" + i
						+ "\tgit\tGL_USERNAME=a\n");
			}
		}
		this.context = new SpringApplicationBuilder(RefstoreApplication.class).run("--server.port=0",
				"--refstore.home=" + this.home, "--refstore.repositories.roots[0]=" + roots,
				"--refstore.demo.enabled=false", "--refstore.journal.ingest-interval=0",
				"--refstore.journal.ingest-run=" + RUN, "--refstore.journal.retention.interval=0",
				"--spring.main.banner-mode=off",
				// Quartz keys its data source by the scheduler's name, JVM-wide: the same
				// name as
				// the tests' shared context would hand that context's scheduler this
				// one's pool,
				// closed with it
				"--spring.quartz.scheduler-name=journal-durable-test");
		this.ingester = this.context.getBean(JournalIngester.class);
	}

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
		FileSystemUtils.deleteRecursively(this.home.toFile());
	}

	@Test
	void eachRunForcesTheJournalBytesItReadBeforeItsOffsetIsCommitted() throws Exception {
		List<String> calls = traced(() -> assertThat(this.ingester.ingest(REPO)).isEqualTo(LINES));

		assertThat(calls.stream().filter((call) -> call.contains("<" + this.journal + ">")))
			.as("one forced read per run of the ingester")
			.hasSize(3)
			.allMatch((call) -> call.matches(".*\\b(fsync|fdatasync)\\(.*= 0$"));
	}

	@Test
	void theFirstRunForcesTheJournalFilesNameWithItsBytes() throws Exception {
		List<String> calls = traced(() -> assertThat(this.ingester.ingest(REPO)).isEqualTo(LINES));

		Path dir = this.journal.getParent();
		Predicate<String> forcesName = (call) -> call
			.matches(".*\\bfsync\\(\\d+<" + Pattern.quote(dir.toString()) + ">\\) += 0$");
		assertThat(calls.stream().filter(forcesName))
			.as("forces of %s (where the hook made the file) in %s", dir, calls)
			.hasSize(1);
		assertThat(indexOf(calls, forcesName)).as("the name forced before the first run's bytes")
			.isLessThan(indexOf(calls, (call) -> call.contains("<" + this.journal + ">")));

		Files.writeString(this.journal,
				"t\t1796000000.000000000\t" + "0".repeat(40) + "\t" + "1".repeat(40) + "\trefs/heads/more\tgit\t\n",
				StandardOpenOption.APPEND);
		assertThat(traced(() -> assertThat(this.ingester.ingest(REPO)).isEqualTo(1)).stream().filter(forcesName))
			.as("a file read on from its offset has its name forced already")
			.isEmpty();
	}

	@Test
	void aCompactionOnH2ForcesTheDatabaseBeforeItSetsTheFileAsideAndAfter() throws Exception {
		assertThat(this.ingester.ingest(REPO)).isEqualTo(LINES);

		List<String> calls = traced(
				() -> assertThat(this.ingester.compact(REPO, 1, Duration.ofMillis(10))).as("set aside").isTrue());

		int rename = indexOf(calls, (call) -> call.contains("rename") && call.contains("\"" + this.journal + "\""));
		assertThat(rename).as("the rename of the journal file in %s", calls).isNotNegative();
		List<String> databaseSyncs = calls.stream()
			.filter((call) -> call.matches(".*\\b(fsync|fdatasync)\\(.*\\.mv\\.db>\\).*"))
			.toList();
		assertThat(databaseSyncs).as("H2's file forced before and after the rename").hasSizeGreaterThanOrEqualTo(2);
		assertThat(calls.indexOf(databaseSyncs.get(0))).as("first force of H2's file").isLessThan(rename);
		assertThat(calls.lastIndexOf(databaseSyncs.get(databaseSyncs.size() - 1))).as("last force of H2's file")
			.isGreaterThan(rename);
	}

	@Test
	void aCompactionOnH2ForcesTheNameOfTheDatabaseFileBeforeItSetsTheFileAside() throws Exception {
		assertThat(this.ingester.ingest(REPO)).isEqualTo(LINES);
		Path data = this.home.resolve("data");
		assertThat(data.resolve("refstore.mv.db")).as("H2's file").isRegularFile();

		List<String> calls = traced(
				() -> assertThat(this.ingester.compact(REPO, 1, Duration.ofMillis(10))).as("set aside").isTrue());

		int rename = indexOf(calls, (call) -> call.contains("rename") && call.contains("\"" + this.journal + "\""));
		assertThat(rename).as("the rename of the journal file in %s", calls).isNotNegative();
		int directorySync = indexOf(calls, (call) -> call
			.matches(".*\\b(fsync|fdatasync)\\(\\d+<" + Pattern.quote(data.toString()) + ">\\) += 0$"));
		assertThat(directorySync).as("a force of %s (where H2's file is named) in %s", data, calls)
			.isNotNegative()
			.isLessThan(rename);
	}

	/**
	 * The system calls that force or rename files, with their paths, made by this JVM
	 * while {@code action} runs.
	 */
	private List<String> traced(SystemCalls.Action action) throws Exception {
		return SystemCalls.traced(this.home, "fdatasync,rename,renameat,renameat2", action);
	}

	private static int indexOf(List<String> calls, Predicate<String> test) {
		for (int i = 0; i < calls.size(); i++) {
			if (test.test(calls.get(i))) {
				return i;
			}
		}
		return -1;
	}

}
