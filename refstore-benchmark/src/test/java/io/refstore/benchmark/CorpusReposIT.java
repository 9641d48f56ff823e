package io.refstore.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.benchmark.OperationResult.Side;
import io.refstore.core.testing.GitCli;

/**
 * The benchmark's machinery with real git, on a corpus small enough for every build: the
 * repositories it generates, and that its judge accepts refstore's real results and
 * catches output that differs from git's. The benchmark itself is a program and never
 * runs here.
 */
class CorpusReposIT {

	private static final int REFS = 200;

	/** One corpus for every test: building it is the slow part. */
	@TempDir
	static Path work;

	private static String git;

	private static Processes processes;

	private static CorpusRepos repos;

	private static GraphRepos graph;

	private final ByteArrayOutputStream log = new ByteArrayOutputStream();

	@BeforeAll
	static void buildCorpus() throws IOException {
		git = GitCli.reftable().command().get(0);
		Path scratch = Files.createDirectories(work.resolve("scratch"));
		Map<String, String> env = new HashMap<>(System.getenv());
		env.putAll(Processes.fixedEnv());
		processes = new Processes(env, false, scratch, Duration.ofMinutes(5));
		repos = CorpusRepos.prepare(work, new RefCorpus(REFS), processes, git,
				new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
		graph = GraphRepos.prepare(work, GraphRepos.commitsFor(REFS), processes, git,
				new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
	}

	@Test
	void theGraphHasMainsLineMergedBranchesAndUnmergedForks() {
		int half = REFS / 2;
		for (String format : Suite.FORMATS) {
			Path repo = graph.repo(format);
			assertThat(git(repo, "rev-parse", "--show-ref-format").strip()).isEqualTo(format);
			assertThat(git(repo, "for-each-ref", "--format=%(refname)").lines()).hasSize(REFS + 1);
			assertThat(git(repo, "rev-list", "--count", "--all").strip()).isEqualTo(String.valueOf(REFS));
			assertThat(git(repo, "rev-list", "--count", "refs/heads/main").strip()).isEqualTo(String.valueOf(half));
			List<String> merged = git(repo, "for-each-ref", "--format=%(refname)", "--merged", "refs/heads/main")
				.lines()
				.toList();
			assertThat(merged).hasSize(half + 1).contains("refs/heads/main", "refs/heads/merged/1");
			assertThat(merged).noneMatch((name) -> name.startsWith("refs/heads/topic/"));
			assertThat(git(repo, "rev-parse", "refs/heads/topic/7^").strip())
				.isEqualTo(git(repo, "rev-parse", "refs/heads/merged/7").strip());
		}
		assertThat(graph.repo("files").resolve("objects/info/commit-graph")).doesNotExist();
	}

	@Test
	void bothFormatsHoldEveryRefOfTheCorpusPacked() throws IOException {
		RefCorpus corpus = new RefCorpus(REFS);
		List<String> expected = new ArrayList<>();
		for (int i = 0; i < REFS; i++) {
			expected.add(corpus.name(i));
		}
		for (String format : Suite.FORMATS) {
			String names = git(repos.full(format), "for-each-ref", "--format=%(refname)");
			assertThat(names.lines()).as(format).containsExactlyInAnyOrderElementsOf(expected);
			assertThat(git(repos.full(format), "rev-parse", "--show-ref-format").strip()).isEqualTo(format);
			assertThat(git(repos.empty(format), "for-each-ref")).as("empty " + format).isEmpty();
		}
		String annotated = git(repos.files(), "for-each-ref", "--format=%(objecttype)", "refs/tags/v*");
		assertThat(annotated.lines()).hasSize(corpus.count(RefCorpus.Kind.ANNOTATED_TAG)).containsOnly("tag");
		assertThat(Files.readAllLines(repos.files().resolve("packed-refs")).get(0)).contains("sorted");
		assertThat(Files.readAllLines(repos.createInput())).hasSize(REFS);
		assertThat(Files.readAllLines(repos.deleteInput())).hasSize(REFS / 10).allMatch((l) -> l.startsWith("delete "));
	}

	@Test
	void theSuiteListsItsIdsWithoutRepositories() {
		assertThat(Suite.operations(repos, graph, REFS).stream().map(Operation::id))
			.containsExactlyElementsOf(Suite.ids());
	}

	@Test
	void aSecondPrepareReusesTheCache() throws IOException {
		this.log.reset();
		CorpusRepos.prepare(work, new RefCorpus(REFS), processes, git,
				new PrintStream(this.log, true, StandardCharsets.UTF_8));
		assertThat(this.log.toString(StandardCharsets.UTF_8)).startsWith("using the cached repositories in ");
	}

	@Test
	void refstoresResultsPassTheJudge() throws IOException {
		List<Operation> operations = Suite.operations(repos, graph, REFS);
		for (String id : List.of("show-ref/files", "for-each-ref/reftable", "for-each-ref-plain/files",
				"sort-committerdate/reftable", "branch-dates/files", "merged/files", "merged/reftable", "delete/files",
				"pack/files", "delete/reftable")) {
			Operation operation = operations.stream().filter((op) -> op.id().equals(id)).findFirst().orElseThrow();
			// git stands in for the refstore process: that side is only timed, the judge
			// is what is tested
			OperationResult result = runner().run(operation, null);
			List<Side> sides = new ArrayList<>(List.of(result.git(), result.process(), result.command()));
			if (operation.api() != null) {
				sides.add(result.api());
			}
			else {
				assertThat(result.api().problem()).as(id).isEqualTo("no core API for it");
			}
			for (Side side : sides) {
				assertThat(side.problem()).as(id).isNull();
				assertThat(side.failed()).as(id).isFalse();
				assertThat(side.wallNanos()).as(id).isNotEmpty();
			}
		}
	}

	@Test
	void outputThatDiffersFromGitsIsCaught() throws IOException {
		Operation operation = Operation.read("show-ref/files", "show-ref", Operation.Weight.NORMAL, repos.files(),
				List.of("show-ref"), null);
		Operation differing = new Operation(operation.id(), operation.label(), operation.weight(), operation.repo(),
				false, new Operation.Invocation(List.of("show-ref"), null),
				new Operation.Invocation(List.of("show-ref", "--hash"), null), Operation.Check.OUTPUT, null, null,
				Map.of());
		OperationResult result = runner().run(differing, null);
		assertThat(result.process().problem()).startsWith("output differs from git's: line 1: git '")
			.contains("refstore '");
		assertThat(result.command().problem()).startsWith("output differs from git's: line 1:");
		assertThat(result.process().failed()).isTrue();
		assertThat(result.api().problem()).isEqualTo("no core API for it");
		assertThat(result.api().failed()).isFalse();
	}

	@Test
	void theUndoRowsRunRefstoreAfterTheirSetupAndPassTheJudge() throws IOException {
		List<Operation> operations = Suite.operations(repos, graph, REFS);
		for (String format : Suite.FORMATS) {
			for (String kind : List.of("delete-refs", "restore", "rollback")) {
				String id = kind + "/" + format;
				Operation operation = operations.stream().filter((op) -> op.id().equals(id)).findFirst().orElseThrow();
				OperationResult result = refstoreRunner().run(operation, null);
				for (Side side : List.of(result.git(), result.process(), result.command())) {
					assertThat(side.problem()).as(id).isNull();
					assertThat(side.failed()).as(id).isFalse();
					assertThat(side.wallNanos()).as(id).isNotEmpty();
				}
				assertThat(result.api().problem()).as(id).isEqualTo("no core API for it");
			}
		}
		assertThat(Files.readAllLines(repos.undoCreateInput())).hasSize(REFS * 45 / 100)
			.allMatch((line) -> line.startsWith("create " + CorpusRepos.UNDO_PREFIX));
		assertThat(Files.readAllLines(repos.undoDeleteInput())).hasSize(REFS * 45 / 100)
			.allMatch((line) -> line.startsWith("delete " + CorpusRepos.UNDO_PREFIX));
	}

	@Test
	void anUndoThatLeavesTheSetupsStateIsCaught() throws IOException {
		Operation restore = Suite.operations(repos, graph, REFS)
			.stream()
			.filter((op) -> op.id().equals("restore/reftable"))
			.findFirst()
			.orElseThrow();
		// refstore's side runs the deletion, then a command that restores nothing
		Operation.Invocation lookOnly = new Operation.Invocation(List.of("show-ref", "--head"), null,
				restore.refstore().setup());
		Operation undone = Operation.write(restore.id(), restore.label(), restore.weight(), restore.repo(),
				restore.git(), lookOnly, "reftable", null);
		OperationResult result = refstoreRunner().run(undone, null);
		assertThat(result.git().problem()).isNull();
		assertThat(result.process().problem())
			.startsWith("refs differ from git's result (reftable, " + (REFS - REFS * 45 / 100) + " refs, show-ref ");
		assertThat(result.process().failed()).isTrue();
		assertThat(result.command().problem()).startsWith("refs differ from git's result");
	}

	@Test
	void aSetupThatFailsStopsItsSide() throws IOException {
		Operation.Invocation failing = new Operation.Invocation(List.of("show-ref"), null, (repo, args, tools) -> {
			tools.git(repo, "update-ref", "-d", "refs/heads/main", "1".repeat(40));
			return args;
		});
		Operation operation = Operation.write("restore/files", "failing setup", Operation.Weight.SLOW, repos.files(),
				new Operation.Invocation(List.of("update-ref", "--stdin"), repos.deleteInput()), failing, "files",
				null);
		OperationResult result = refstoreRunner().run(operation, null);
		assertThat(result.git().problem()).isNull();
		assertThat(result.process().problem()).startsWith("setup failed: [").contains("update-ref");
		assertThat(result.process().failed()).isTrue();
		assertThat(result.process().wallNanos()).isEmpty();
		assertThat(result.command().problem()).startsWith("setup failed: [");
	}

	private OperationRunner runner() {
		return new OperationRunner(processes, List.of(git), List.of(git), work.resolve("scratch"), 1,
				new PrintStream(this.log, true, StandardCharsets.UTF_8));
	}

	/**
	 * A runner whose refstore process is the real command, run from this test's class
	 * path: the undo rows' refstore setups run {@code refstore delete-refs} and
	 * {@code refs migrate}, which git cannot stand in for.
	 */
	private OperationRunner refstoreRunner() {
		List<String> refstore = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), "io.refstore.core.cli.Refstore");
		return new OperationRunner(processes, List.of(git), refstore, work.resolve("scratch"), 1,
				new PrintStream(this.log, true, StandardCharsets.UTF_8));
	}

	private String git(Path dir, String... args) {
		List<String> command = new ArrayList<>(List.of(git));
		command.addAll(List.of(args));
		return processes.check(command, dir);
	}

}
