package io.refstore.batch.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.context.ConfigurableApplicationContext;

import io.refstore.batch.BatchTestApplication;
import io.refstore.batch.JobFixtures;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code inventoryRefsJob} end to end through {@link RefJobs} on repositories the newest
 * git makes in both formats, judged by git itself: refs per namespace as
 * {@code for-each-ref} lists them, stale ones by its {@code %(creatordate)} against the
 * default 90 days, merged ones as {@code for-each-ref --merged} finds them, the store's
 * loose and packed refs as the files on disk hold them; and a repository whose
 * {@code HEAD} is unborn, whose merged counts are absent rather than 0.
 */
class InventoryRefsJobIT {

	static final GitCli GIT = JobFixtures.NEWEST;

	static final long OLD = 1_700_000_000L;

	@TempDir
	static Path dir;

	static Path root;

	static ConfigurableApplicationContext context;

	static RefJobs jobs;

	@BeforeAll
	static void start() throws Exception {
		root = Files.createDirectories(dir.resolve("repos"));
		context = BatchTestApplication.start(dir.resolve("db/history"), root, "inventory-it");
		jobs = context.getBean(RefJobs.class);
	}

	@AfterAll
	static void stop() {
		context.close();
	}

	@ParameterizedTest
	@EnumSource(RefFormat.class)
	void countsPerNamespaceStaleAndMergedAsGitDoes(RefFormat format) throws Exception {
		String name = "inventory-" + format.configName();
		TempRepo repo = create(name, format);
		Instant launched = Instant.now();

		JobSummary done = run(name);

		assertThat(done.status()).as(done.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(done.steps()).extracting(JobSummary.StepSummary::name).containsExactly("countRefsStep");
		long cutoff = launched.minus(Duration.ofDays(90)).getEpochSecond();
		Map<String, long[]> expected = new TreeMap<>();
		for (String line : GIT.ok(repo.dir(), "for-each-ref", "--format=%(refname) %(creatordate:unix)")
			.lines()
			.toList()) {
			String[] fields = line.split(" ", -1);
			long[] counts = expected.computeIfAbsent(namespace(fields[0]), (ns) -> new long[3]);
			counts[0]++;
			if (!fields[1].isEmpty() && Long.parseLong(fields[1]) < cutoff) {
				counts[1]++;
			}
		}
		for (String ref : GIT.ok(repo.dir(), "for-each-ref", "--merged", "refs/heads/main", "--format=%(refname)")
			.lines()
			.toList()) {
			expected.get(namespace(ref))[2]++;
		}
		StringBuilder lines = new StringBuilder();
		long refs = 0;
		long stale = 0;
		long merged = 0;
		for (Map.Entry<String, long[]> entry : expected.entrySet()) {
			long[] counts = entry.getValue();
			lines.append(lines.isEmpty() ? "" : "\n")
				.append(entry.getKey() + " " + counts[0] + " " + counts[1] + " " + counts[2]);
			refs += counts[0];
			stale += counts[1];
			merged += counts[2];
		}
		// the repository has refs of each kind in several namespaces: the check means
		// something
		assertThat(expected).containsKeys("refs/heads", "refs/tags", "refs/pull", "refs/keep-around", "refs/stash");
		assertThat(stale).isPositive().isLessThan(refs);
		assertThat(merged).isPositive().isLessThan(refs);
		Map<String, String> results = done.results();
		assertThat(results.get("inventory.namespaces")).isEqualTo(lines.toString());
		assertThat(results).containsEntry("inventory.refs", Long.toString(refs))
			.containsEntry("inventory.stale", Long.toString(stale))
			.containsEntry("inventory.merged", Long.toString(merged))
			.containsEntry("inventory.base", "refs/heads/main")
			.containsEntry("inventory.format", format.configName())
			.containsEntry("inventory.staleAfter", "PT2160H");
		assertThat(done.exitMessage()).contains(String.format("%,d refs in %d namespaces", refs, expected.size()));
		if (format == RefFormat.FILES) {
			assertThat(results).containsEntry("inventory.loose", Long.toString(looseFiles(repo)))
				.containsEntry("inventory.packed", Long.toString(packedRecords(repo)))
				.doesNotContainKey("inventory.tables");
			assertThat(looseFiles(repo)).isPositive();
			assertThat(packedRecords(repo)).isPositive();
		}
		else {
			assertThat(results).containsEntry("inventory.tables", Long.toString(tables(repo)))
				.doesNotContainKey("inventory.loose");
		}
	}

	@Test
	void anUnbornHeadLeavesMergedCountsAbsent() throws Exception {
		TempRepo repo = create("inventory-unborn", RefFormat.FILES);
		repo.git("symbolic-ref", "HEAD", "refs/heads/never");

		JobSummary done = run("inventory-unborn");

		assertThat(done.status()).as(done.exitMessage()).isEqualTo(JobStatus.COMPLETED);
		assertThat(done.results()).containsEntry("inventory.merged", "none").containsEntry("inventory.base", "");
		assertThat(done.results().get("inventory.namespaces").lines()).isNotEmpty()
			.allSatisfy((line) -> assertThat(line).endsWith(" -"));
	}

	private static JobSummary run(String name) throws InterruptedException {
		JobSummary launched = jobs.launch(RefJobType.INVENTORY, Map.of(JobParameterNames.REPOSITORY, name), "carol");
		return JobFixtures.await(jobs, launched.executionId());
	}

	/** The namespace of a ref name, by the rule's own words: its first level. */
	private static String namespace(String ref) {
		String[] parts = ref.split("/");
		return parts[0] + "/" + parts[1];
	}

	/**
	 * A repository whose refs are old and recent, merged into {@code main} and not, in
	 * five namespaces: branches (a symbolic one among them), lightweight and annotated
	 * tags (a recent tag of an old commit, an old tag of a recent one, a tag of a tree),
	 * pull request refs, keep-around refs (one of a blob, which has no date), and
	 * {@code refs/stash}. The files store has packed and loose refs.
	 */
	private static TempRepo create(String name, RefFormat format) {
		TempRepo repo = TempRepo.init(GIT, root.resolve(name), "--bare", "--ref-format=" + format.configName());
		long recent = Instant.now().minus(Duration.ofDays(1)).getEpochSecond();
		String old1 = commit(repo, "old 1", null, OLD);
		String old2 = commit(repo, "old 2", old1, OLD + 60);
		String recent1 = commit(repo, "recent 1", old2, recent);
		String main = commit(repo, "recent 2", recent1, recent + 60);
		String sideOld = commit(repo, "side old", old1, OLD + 120);
		String sideRecent = commit(repo, "side recent", sideOld, recent + 120);
		List<String> cycle = List.of(old1, old2, recent1, sideOld, sideRecent, main);
		StringBuilder first = new StringBuilder("create refs/heads/main " + main + "\n");
		for (int i = 0; i < 120; i++) {
			first.append(String.format("create refs/heads/b/%03d %s%n", i, cycle.get(i % cycle.size())));
		}
		for (int i = 0; i < 40; i++) {
			first.append(String.format("create refs/tags/v%d %s%n", i, cycle.get(i % cycle.size())));
		}
		for (int i = 1; i <= 60; i++) {
			first.append(String.format("create refs/pull/%d/head %s%n", i, cycle.get(i % cycle.size())));
			first.append(String.format("create refs/pull/%d/merge %s%n", i, cycle.get((i + 1) % cycle.size())));
		}
		update(repo, first);
		repo.git("pack-refs", "--all");
		StringBuilder second = new StringBuilder();
		for (String commit : cycle) {
			second.append("create refs/keep-around/" + commit + " " + commit + "\n");
		}
		String blob = repo.run("kept\n".getBytes(StandardCharsets.UTF_8), "hash-object", "-w", "--stdin")
			.requireOk()
			.stdout()
			.strip();
		String tree = repo.git("hash-object", "-t", "tree", "-w", "--stdin").strip();
		second.append("create refs/keep-around/blob " + blob + "\n");
		second.append("create refs/tags/fresh " + tag(repo, "fresh", old2, "commit", recent) + "\n");
		second.append("create refs/tags/ancient " + tag(repo, "ancient", sideRecent, "commit", OLD) + "\n");
		second.append("create refs/tags/tree " + tag(repo, "tree", tree, "tree", recent) + "\n");
		second.append("create refs/stash " + old2 + "\n");
		for (int i = 0; i < 10; i++) {
			second.append(String.format("create refs/heads/late-%d %s%n", i, cycle.get(i % cycle.size())));
		}
		update(repo, second);
		repo.git("symbolic-ref", "refs/heads/alias", "refs/heads/main");
		return repo;
	}

	private static String commit(TempRepo repo, String message, String parent, long seconds) {
		return repo.with(GIT.withEnv("GIT_COMMITTER_DATE", "@" + seconds + " +0000")).commit(message, parent);
	}

	private static String tag(TempRepo repo, String name, String target, String type, long seconds) {
		String tag = "object " + target + "\ntype " + type + "\ntag " + name
				+ "\ntagger C O Mitter <committer@example.com> " + seconds + " +0000\n\n" + name + "\n";
		return repo.run(tag.getBytes(StandardCharsets.UTF_8), "hash-object", "-t", "tag", "-w", "--stdin")
			.requireOk()
			.stdout()
			.strip();
	}

	private static void update(TempRepo repo, StringBuilder stdin) {
		repo.run(stdin.toString().getBytes(StandardCharsets.UTF_8), "update-ref", "--stdin").requireOk();
	}

	private static long looseFiles(TempRepo repo) throws IOException {
		try (Stream<Path> walk = Files.walk(repo.gitDir().resolve("refs"))) {
			return walk.filter(Files::isRegularFile).count();
		}
	}

	private static long packedRecords(TempRepo repo) throws IOException {
		return Files.readAllLines(repo.gitDir().resolve("packed-refs"))
			.stream()
			.filter((line) -> !line.startsWith("#") && !line.startsWith("^"))
			.count();
	}

	private static long tables(TempRepo repo) throws IOException {
		return Files.readAllLines(repo.gitDir().resolve("reftable/tables.list")).size();
	}

}
