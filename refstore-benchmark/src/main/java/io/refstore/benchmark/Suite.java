package io.refstore.benchmark;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.refstore.benchmark.Operation.Weight;
import io.refstore.core.ref.RefFormat;

/**
 * The operations the benchmark measures, in the order it runs them: process start-up,
 * then for each format full and prefix iteration, a single lookup, a bulk delete, a bulk
 * create, the migration to the other format, the deletion of every ref under
 * {@link CorpusRepos#UNDO_PREFIX}, its restore and the rollback of the migration, and
 * last the packing of a files repository's loose refs. Stateless.
 */
final class Suite {

	/**
	 * The id of the start-up row, which splits a single lookup into start-up and work.
	 */
	static final String STARTUP_ID = "start-up";

	/** The id prefix of the single-lookup rows. */
	static final String LOOKUP_ID = "lookup/";

	static final List<String> FORMATS = List.of("files", "reftable");

	/**
	 * The manifest {@code refstore delete-refs} writes and {@code refstore restore-refs}
	 * reads, relative to the git directory.
	 */
	static final String MANIFEST = "benchmark-delete.manifest";

	/**
	 * The undo rows' id prefixes and those of the forward rows they undo
	 * ({@code restore/files} undoes {@code delete-refs/files}).
	 */
	static final Map<String, String> UNDOES = Map.of("restore/", "delete-refs/", "rollback/", "migrate/");

	/** Issue 36's target: an undo takes at most this many times what it undoes. */
	static final double UNDO_TARGET = 1.5;

	/** The id of the row that packs the loose refs of a files repository. */
	static final String PACK_ID = "pack/files";

	/**
	 * The glob of the {@code glob-starstar} rows: twenty {@code **}{@code /} and
	 * {@code x}, which matches no ref of the corpus after trying, in git's wildmatch,
	 * every split of each name among the stars (issue 34: 276 s for the web's listing of
	 * a million refs before refstore's match became linear).
	 */
	static final String STARSTAR_GLOB = "**/".repeat(20) + "x";

	private Suite() {
	}

	/** The ids of {@link #operations}, in order, without building anything. */
	static List<String> ids() {
		List<String> ids = new ArrayList<>(List.of(STARTUP_ID, STARTUP_ID + "/no-cds"));
		for (String format : FORMATS) {
			for (String kind : List.of("for-each-ref", "for-each-ref-plain", "show-ref", "for-each-ref-tags",
					"glob-starstar", "sort-committerdate", "branch-dates", "merged", "merged-dates",
					"merged-dates-graph", "lookup", "delete", "create", "migrate", "delete-refs", "restore",
					"rollback")) {
				ids.add(kind + "/" + format);
			}
		}
		ids.add(PACK_ID);
		return ids;
	}

	/**
	 * Every operation on {@code repos}, and {@code --merged} on {@code graph}.
	 */
	static List<Operation> operations(CorpusRepos repos, GraphRepos graph, int refs) {
		List<Operation> operations = new ArrayList<>();
		operations.add(Operation.startup(STARTUP_ID, "process start-up: `git version`, `refstore -h`", repos.files(),
				List.of("version"), List.of("-h"), Map.of()));
		operations.add(Operation.startup(STARTUP_ID + "/no-cds",
				"process start-up without the launcher's class-data archive (`REFSTORE_CDS=0`)", repos.files(),
				List.of("version"), List.of("-h"), Map.of("REFSTORE_CDS", "0")));
		for (String format : FORMATS) {
			Path full = repos.full(format);
			String other = format.equals("files") ? "reftable" : "files";
			operations.add(Operation.read("for-each-ref/" + format, format + ": `for-each-ref` (all " + refs + ")",
					Weight.NORMAL, full, List.of("for-each-ref"), ApiTasks.forEachRef("")));
			operations.add(Operation.read("for-each-ref-plain/" + format,
					format + ": `for-each-ref --format='%(objectname) %(refname)'`", Weight.NORMAL, full,
					List.of("for-each-ref", "--format=%(objectname) %(refname)"), null));
			operations.add(Operation.read("show-ref/" + format, format + ": `show-ref` (all)", Weight.NORMAL, full,
					List.of("show-ref"), ApiTasks.showRef()));
			operations.add(Operation.read("for-each-ref-tags/" + format, format + ": `for-each-ref refs/tags/`",
					Weight.NORMAL, full, List.of("for-each-ref", "refs/tags/"), ApiTasks.forEachRef("refs/tags/")));
			operations.add(Operation.read("glob-starstar/" + format,
					format + ": `for-each-ref --format='%(refname)' '**/**/…/x'` (twenty `**/`; core API: every name "
							+ "through `Wildmatch`, as the web's `glob=` listing does)",
					Weight.NORMAL, full, List.of("for-each-ref", "--format=%(refname)", STARSTAR_GLOB),
					ApiTasks.globNames(STARSTAR_GLOB)));
			operations.add(Operation.read("sort-committerdate/" + format,
					format + ": `for-each-ref --sort=-committerdate --count=20 refs/heads/`", Weight.NORMAL, full,
					List.of("for-each-ref", "--sort=-committerdate", "--count=20", "refs/heads/"), null));
			operations.add(Operation.read("branch-dates/" + format,
					format + ": `for-each-ref --format='%(refname) %(committerdate:iso) %(subject)' refs/heads/`",
					Weight.NORMAL, full,
					List.of("for-each-ref", "--format=%(refname) %(committerdate:iso) %(subject)", "refs/heads/"),
					null));
			operations.add(Operation.read("merged/" + format,
					format + ": `for-each-ref --merged refs/heads/main` (" + graph.commits() + " commits and branches)",
					Weight.NORMAL, graph.repo(format), List.of("for-each-ref", "--merged", "refs/heads/main"), null));
			List<String> mergedDates = List.of("for-each-ref", "--merged", "refs/heads/main",
					"--format=%(refname) %(committerdate:unix)", "refs/heads/");
			operations.add(Operation.read("merged-dates/" + format, format
					+ ": `for-each-ref --merged refs/heads/main --format='%(refname) %(committerdate:unix)' refs/heads/` ("
					+ graph.commits() + " commits and branches; core API: every branch's merged and date facts)",
					Weight.NORMAL, graph.repo(format), mergedDates, ApiTasks.mergedDates("refs/heads/main")));
			operations.add(Operation.read("merged-dates-graph/" + format,
					format + ": the same with a commit-graph file", Weight.NORMAL, graph.repoWithCommitGraph(format),
					mergedDates, ApiTasks.mergedDates("refs/heads/main")));
			operations.add(Operation.read(LOOKUP_ID + format,
					format + ": `show-ref --verify " + repos.lookupName() + "` (core API: `exactRef` on an open store)",
					Weight.FAST, full, List.of("show-ref", "--verify", repos.lookupName()),
					ApiTasks.showRefVerify(repos.lookupName())));
			operations.add(Operation.write("delete/" + format,
					format + ": `update-ref --stdin`, delete " + repos.deleteCount() + " (one transaction)",
					Weight.NORMAL, full, List.of("update-ref", "--stdin"), repos.deleteInput(), format,
					ApiTasks.updateRefs(repos.deleteInput())));
			operations.add(Operation.write("create/" + format,
					format + ": `update-ref --stdin`, create " + refs + " in an empty repository", Weight.SLOW,
					repos.empty(format), List.of("update-ref", "--stdin"), repos.createInput(), format,
					ApiTasks.updateRefs(repos.createInput())));
			operations.add(Operation.write("migrate/" + format, format + " → " + other + ": `refs migrate`",
					Weight.SLOW, full, List.of("refs", "migrate", "--ref-format=" + other), null, other,
					ApiTasks.migrate(RefFormat.fromConfigName(other))));
			undoRows(operations, repos, format, other);
		}
		operations.add(Operation.write(PACK_ID,
				"files: `pack-refs --all`, " + repos.looseCount() + " loose refs beside " + refs + " packed",
				Weight.SLOW, repos.looseFiles(), List.of("pack-refs", "--all"), null, "files", ApiTasks.packRefs()));
		return operations;
	}

	/**
	 * The deletion of every ref under {@link CorpusRepos#UNDO_PREFIX} and its restore,
	 * and the rollback of the migration to {@code other}: each undo beside the forward
	 * operation it undoes (the table's {@code delete-refs} and {@code migrate} rows).
	 */
	private static void undoRows(List<Operation> operations, CorpusRepos repos, String format, String other) {
		String prefix = CorpusRepos.UNDO_PREFIX;
		List<String> delete = List.of("delete-refs", "--prefix=" + prefix, "--manifest=" + MANIFEST, "-q");
		List<String> gitUpdate = List.of("update-ref", "--stdin");
		operations.add(Operation.write("delete-refs/" + format,
				format + ": delete the " + repos.undoCount() + " refs under `" + prefix + "`: `refstore "
						+ String.join(" ", delete) + "` (chunks of 1000, a manifest), git `update-ref --stdin` "
						+ "(one transaction)",
				Weight.SLOW, repos.full(format), new Operation.Invocation(gitUpdate, repos.undoDeleteInput()),
				new Operation.Invocation(delete, null), format, null));
		// both sides start from refstore's deletion: refstore undoes it with its
		// manifest, git (which has no restore) recreates the refs
		Operation.Setup deleted = (repo, args, tools) -> {
			tools.refstore(repo, delete.toArray(String[]::new));
			return args;
		};
		// git's creations after a deletion in the reftable format step over every deleted
		// ref's tombstone in its tables, one after another: 5,000 of the 45,000 took git
		// 94 s on 100,000 refs, 0.15 s once its own compaction (`pack-refs`) had dropped
		// the tombstones. Its side compacts first, untimed: a git user would, and the
		// row times the creations
		Operation.Setup gitDeleted = format.equals("reftable") ? (repo, args, tools) -> {
			deleted.prepare(repo, args, tools);
			tools.git(repo, "pack-refs");
			return args;
		} : deleted;
		operations.add(Operation.write("restore/" + format,
				format + ": bring back the " + repos.undoCount() + " refs `delete-refs` deleted: `refstore "
						+ "restore-refs --manifest=…`, git `update-ref --stdin` creating them (one transaction"
						+ (format.equals("reftable") ? ", after an untimed `pack-refs`" : "") + ")",
				Weight.SLOW, repos.full(format),
				new Operation.Invocation(gitUpdate, repos.undoCreateInput(), gitDeleted),
				new Operation.Invocation(List.of("restore-refs", "--manifest=" + MANIFEST, "-q"), null, deleted),
				format, null));
		// each side undoes its own migration: refstore from the backup it kept, git
		// (which keeps none) by migrating back
		Operation.Setup gitMigrated = (repo, args, tools) -> {
			tools.git(repo, "refs", "migrate", "--ref-format=" + other);
			return args;
		};
		Operation.Setup refstoreMigrated = (repo, args, tools) -> {
			tools.refstore(repo, "refs", "migrate", "--ref-format=" + other, "-q");
			List<String> backups = tools.refstore(repo, "refs", "backups").lines().toList();
			if (backups.size() != 1) {
				throw new IllegalStateException("refstore refs backups lists " + backups + " in " + repo
						+ " after one migration, not one backup");
			}
			List<String> withName = new ArrayList<>(args);
			withName.add(backups.get(0).split(" ", 2)[0]);
			return withName;
		};
		operations.add(Operation.write("rollback/" + format,
				format + " → " + other + " → " + format + ": `refstore refs rollback <backup>` after `refstore "
						+ "refs migrate`, git `refs migrate --ref-format=" + format + "` after its own migration",
				Weight.SLOW, repos.full(format),
				new Operation.Invocation(List.of("refs", "migrate", "--ref-format=" + format), null, gitMigrated),
				new Operation.Invocation(List.of("refs", "rollback", "-q"), null, refstoreMigrated), format, null));
	}

	/**
	 * Whether the refstore command can migrate yet: it migrates a repository of one ref
	 * in {@code scratch}.
	 * @return why it cannot, or {@code null} if it can
	 */
	static String migrateMissing(Processes processes, List<String> git, List<String> refstore, CorpusRepos repos,
			Path scratch) throws IOException {
		Path probe = scratch.resolve("probe.git");
		RepoFiles.deleteTree(probe);
		List<String> init = new ArrayList<>(git);
		init.addAll(List.of("init", "-q", "--bare", "-b", "main", "--ref-format=files", probe.toString()));
		processes.check(init, scratch);
		List<String> update = new ArrayList<>(git);
		update.addAll(List.of("update-ref", "--stdin"));
		String first;
		try (BufferedReader in = Files.newBufferedReader(repos.createInput(), StandardCharsets.US_ASCII)) {
			first = in.readLine();
		}
		RepoFiles.deleteTree(probe.resolve("objects"));
		RepoFiles.linkTree(repos.empty("files").resolve("objects"), probe.resolve("objects"));
		processes.check(update, probe, (stdin) -> stdin.write((first + "\n").getBytes(StandardCharsets.US_ASCII)));
		List<String> migrate = new ArrayList<>(refstore);
		migrate.addAll(List.of("refs", "migrate", "--ref-format=reftable"));
		Processes.Measured measured = processes.measure(migrate, probe, null, scratch.resolve("probe.out"));
		List<String> format = new ArrayList<>(git);
		format.addAll(List.of("rev-parse", "--show-ref-format"));
		String after = (measured.exitCode() == 0) ? processes.check(format, probe).strip() : "";
		RepoFiles.deleteTree(probe);
		if (measured.exitCode() == 0 && after.equals("reftable")) {
			return null;
		}
		String why = measured.stderr().lines().findFirst().orElse("exit " + measured.exitCode());
		return "refstore cannot migrate yet (`refstore refs migrate` on a one-ref repository: " + why
				+ ((measured.exitCode() == 0) ? "; the format stayed " + after : "") + ")";
	}

}
