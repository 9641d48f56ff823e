package io.refstore.benchmark;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.refstore.core.ref.ObjectId;

/**
 * The benchmark's repositories for one ref count, built once with git and cached in the
 * work directory: bare repositories (as hosting servers keep them, so without reflogs)
 * sharing one pack of objects through hard links, and the inputs of the write benchmarks.
 *
 * <p>
 * Layout of {@code <work>/corpus-<n>/}: {@code objects.git} (made by one
 * {@code git fast-import} stream), {@code files.git} (every ref in {@code packed-refs}),
 * {@code reftable.git} (one compacted table), {@code empty-files.git} and
 * {@code empty-reftable.git} (the objects, no refs), {@code create.txt} and
 * {@code delete.txt} ({@code update-ref --stdin} input), and the {@code READY} marker
 * written last; then, derived from {@code create.txt} when missing (in a cache of an
 * older version too), {@code create-pull.txt} and {@code delete-pull.txt}. Not
 * thread-safe while building; read-only afterwards.
 */
final class CorpusRepos {

	/**
	 * Written to {@code READY}; changing how repositories are generated must change it.
	 */
	private static final String GENERATION = "refstore-benchmark corpus 2";

	/** How many refs the delete benchmark removes, at most. */
	static final int DELETE_COUNT = 1000;

	/**
	 * Loose refs of {@link #looseFiles()}, at most: about what a busy server gathers
	 * between two maintenance runs (issue 36 saw 19,693 on a repository marked due).
	 */
	static final int LOOSE_COUNT = 20_000;

	/**
	 * The refs that the mass deletion removes and the restore brings back: the pull
	 * requests' heads, 45% of the corpus, none of them protected from
	 * {@code refstore delete-refs}.
	 */
	static final String UNDO_PREFIX = "refs/pull/";

	private final Path dir;

	private final String lookupName;

	private final int deleteCount;

	private final int looseCount;

	private final int undoCount;

	private CorpusRepos(Path dir, String lookupName, int deleteCount, int looseCount, int undoCount) {
		this.dir = dir;
		this.lookupName = lookupName;
		this.deleteCount = deleteCount;
		this.looseCount = looseCount;
		this.undoCount = undoCount;
	}

	/**
	 * The cached repositories for {@code corpus}, built first if the cache lacks them or
	 * was made by another version of this class.
	 * @param git the reftable-capable git that builds them
	 * @param log where progress is reported
	 */
	static CorpusRepos prepare(Path work, RefCorpus corpus, Processes processes, String git, PrintStream log)
			throws IOException {
		Path dir = work.resolve("corpus-" + corpus.size());
		int deleteCount = Math.min(DELETE_COUNT, corpus.size() / 10);
		CorpusRepos repos = new CorpusRepos(dir, corpus.name(corpus.lookupIndex()), deleteCount,
				Math.min(LOOSE_COUNT, corpus.size() / 5), corpus.count(RefCorpus.Kind.PULL));
		Path ready = dir.resolve("READY");
		if (Files.isRegularFile(ready) && Files.readString(ready).strip().equals(GENERATION)) {
			log.println("using the cached repositories in " + dir);
		}
		else {
			log.println("building repositories of " + corpus.size() + " refs in " + dir + " (cached for later runs)");
			RepoFiles.deleteTree(dir);
			Files.createDirectories(dir);
			new Builder(corpus, repos, processes, git, log).build();
			Files.writeString(ready, GENERATION + "\n");
		}
		repos.writeUndoInputs();
		return repos;
	}

	/**
	 * {@code update-ref --stdin} input creating every ref under {@link #UNDO_PREFIX} with
	 * its value: git's way of bringing back what {@code refstore delete-refs} removed.
	 */
	Path undoCreateInput() {
		return this.dir.resolve("create-pull.txt");
	}

	/**
	 * {@code update-ref --stdin} input deleting every ref under {@link #UNDO_PREFIX},
	 * each with its old value: git's mass deletion.
	 */
	Path undoDeleteInput() {
		return this.dir.resolve("delete-pull.txt");
	}

	/** How many refs {@link #UNDO_PREFIX} holds. */
	int undoCount() {
		return this.undoCount;
	}

	/**
	 * Writes {@link #undoCreateInput()} and {@link #undoDeleteInput()} from
	 * {@link #createInput()} unless they exist (each written aside and moved into place).
	 */
	private void writeUndoInputs() throws IOException {
		for (String verb : List.of("create", "delete")) {
			Path input = verb.equals("create") ? undoCreateInput() : undoDeleteInput();
			if (Files.isRegularFile(input)) {
				continue;
			}
			Path partial = input.resolveSibling(input.getFileName() + ".partial");
			try (BufferedReader lines = Files.newBufferedReader(createInput(), StandardCharsets.US_ASCII);
					BufferedWriter out = Files.newBufferedWriter(partial, StandardCharsets.US_ASCII)) {
				for (String line = lines.readLine(); line != null; line = lines.readLine()) {
					// create <name> <hex>
					if (line.startsWith("create " + UNDO_PREFIX)) {
						out.write(verb + line.substring("create".length()) + "\n");
					}
				}
			}
			Files.move(partial, input, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
	}

	/** Every ref packed into {@code packed-refs}. */
	Path files() {
		return this.dir.resolve("files.git");
	}

	/** Every ref in one reftable. */
	Path reftable() {
		return this.dir.resolve("reftable.git");
	}

	/** The repository of {@code format} ("files" or "reftable") with every ref. */
	Path full(String format) {
		return format.equals("files") ? files() : reftable();
	}

	/**
	 * {@link #files()} with {@link #looseCount()} of its refs loose too, each with its
	 * packed value, spread over the whole name range: what {@code pack-refs --all} finds
	 * on a server between maintenance runs.
	 */
	Path looseFiles() {
		return this.dir.resolve("loose-files.git");
	}

	/** How many loose refs {@link #looseFiles()} holds. */
	int looseCount() {
		return this.looseCount;
	}

	/** The same objects and no refs (HEAD names the unborn {@code refs/heads/main}). */
	Path empty(String format) {
		return this.dir.resolve("empty-" + format + ".git");
	}

	/** {@code update-ref --stdin} input creating every ref. */
	Path createInput() {
		return this.dir.resolve("create.txt");
	}

	/**
	 * {@code update-ref --stdin} input deleting {@link #deleteCount()} refs, each with
	 * its old value.
	 */
	Path deleteInput() {
		return this.dir.resolve("delete.txt");
	}

	/** How many refs {@link #deleteInput()} deletes. */
	int deleteCount() {
		return this.deleteCount;
	}

	/** The ref that single lookups ask for. */
	String lookupName() {
		return this.lookupName;
	}

	Path objectsRepo() {
		return this.dir.resolve("objects.git");
	}

	/** The build steps, in order. */
	private static final class Builder {

		private final RefCorpus corpus;

		private final CorpusRepos repos;

		private final Processes processes;

		private final String git;

		private final PrintStream log;

		Builder(RefCorpus corpus, CorpusRepos repos, Processes processes, String git, PrintStream log) {
			this.corpus = corpus;
			this.repos = repos;
			this.processes = processes;
			this.git = git;
			this.log = log;
		}

		/**
		 * 1. fast-import every commit and annotated tag into objects.git; 2. write the
		 * stdin inputs from its marks; 3. create every ref in one transaction in two
		 * reftable repositories, pack them into one table, and migrate one to files
		 * (packed-refs); 4. make the empty repositories; 5. check that both formats list
		 * the same refs.
		 */
		void build() throws IOException {
			Path objects = this.repos.objectsRepo();
			long start = System.nanoTime();
			git(this.repos.dir, "init", "-q", "--bare", "-b", "main", objects.toString());
			Path marks = this.repos.dir.resolve("marks.txt");
			this.processes.check(List.of(this.git, "fast-import", "--quiet", "--export-marks=" + marks), objects,
					(in) -> new FastImportStream(this.corpus).write(in));
			step("fast-import of " + this.corpus.size() + " commits and "
					+ this.corpus.count(RefCorpus.Kind.ANNOTATED_TAG) + " annotated tags", start);
			start = System.nanoTime();
			byte[] ids = FastImportStream.readMarks(marks, this.corpus);
			writeInputs(ids);
			Files.delete(marks);
			step("stdin inputs", start);
			for (String format : List.of("files", "reftable")) {
				start = System.nanoTime();
				Path repo = this.repos.full(format);
				// Both start as reftable: one transaction of a million loose files and
				// their
				// packing takes git an hour on two cores, while its migration to files
				// writes packed-refs straight away (an initial transaction).
				init(repo, "reftable");
				this.processes.check(List.of(this.git, "update-ref", "--stdin"), repo,
						(in) -> Files.copy(this.repos.createInput(), in));
				git(repo, "pack-refs", "--all");
				if (format.equals("files")) {
					git(repo, "refs", "migrate", "--ref-format=files");
				}
				step(format + " repository", start);
				init(this.repos.empty(format), format);
			}
			checkPacked();
			start = System.nanoTime();
			writeLoose();
			step("files repository with " + this.repos.looseCount + " loose refs", start);
			String files = git(this.repos.files(), "show-ref");
			String reftable = git(this.repos.reftable(), "show-ref");
			long lines = files.lines().count();
			if (!files.equals(reftable) || lines != this.corpus.size()) {
				throw new IllegalStateException(
						"git lists " + lines + " refs in " + this.repos.files() + " and " + reftable.lines().count()
								+ " in " + this.repos.reftable() + ", not the same " + this.corpus.size());
			}
		}

		private void init(Path repo, String format) throws IOException {
			git(this.repos.dir, "init", "-q", "--bare", "-b", "main", "--ref-format=" + format, repo.toString());
			RepoFiles.deleteTree(repo.resolve("objects"));
			RepoFiles.linkTree(this.repos.objectsRepo().resolve("objects"), repo.resolve("objects"));
		}

		private void writeInputs(byte[] ids) throws IOException {
			byte[] hex = new byte[40];
			try (BufferedWriter out = Files.newBufferedWriter(this.repos.createInput(), StandardCharsets.US_ASCII)) {
				for (int i = 0; i < this.corpus.size(); i++) {
					out.write("create " + this.corpus.name(i) + " " + hex(ids, i, hex) + "\n");
				}
			}
			try (BufferedWriter out = Files.newBufferedWriter(this.repos.deleteInput(), StandardCharsets.US_ASCII)) {
				for (int i : this.corpus.deleteIndexes(this.repos.deleteCount)) {
					out.write("delete " + this.corpus.name(i) + " " + hex(ids, i, hex) + "\n");
				}
			}
		}

		private static String hex(byte[] ids, int i, byte[] buffer) {
			ObjectId.encodeHex(ids, i * 20, 20, buffer, 0);
			return new String(buffer, StandardCharsets.US_ASCII);
		}

		/**
		 * {@link CorpusRepos#looseFiles()}: a copy of the files repository, and a loose
		 * file for every n-th ref holding its value as git writes it ({@code <hex>\n}).
		 */
		private void writeLoose() throws IOException {
			Path loose = this.repos.looseFiles();
			RepoFiles.copyRepo(this.repos.files(), loose);
			int[] indexes = this.corpus.deleteIndexes(this.repos.looseCount);
			int next = 0;
			try (BufferedReader lines = Files.newBufferedReader(this.repos.createInput(), StandardCharsets.US_ASCII)) {
				String line;
				for (int i = 0; (line = lines.readLine()) != null && next < indexes.length; i++) {
					if (i == indexes[next]) {
						next++;
						// create <name> <hex>
						int space = line.indexOf(' ', 7);
						Path file = loose.resolve(line.substring(7, space));
						Files.createDirectories(file.getParent());
						Files.writeString(file, line.substring(space + 1) + "\n", StandardCharsets.US_ASCII);
					}
				}
			}
		}

		/** Packed as servers keep them: no loose ref left, one table in the stack. */
		private void checkPacked() throws IOException {
			try (Stream<Path> loose = Files.walk(this.repos.files().resolve("refs"))) {
				List<Path> left = loose.filter(Files::isRegularFile).limit(3).toList();
				if (!left.isEmpty()) {
					throw new IllegalStateException("git pack-refs --all left loose refs: " + left);
				}
			}
			List<String> tables = Files.readAllLines(this.repos.reftable().resolve("reftable").resolve("tables.list"));
			if (tables.size() != 1) {
				throw new IllegalStateException(
						"git pack-refs left " + tables.size() + " tables in " + this.repos.reftable() + ", not one");
			}
		}

		private String git(Path dir, String... args) {
			List<String> command = new ArrayList<>(List.of(this.git));
			command.addAll(List.of(args));
			return this.processes.check(command, dir);
		}

		private void step(String what, long start) {
			this.log.printf("  %-60s %8.1f s%n", what, (System.nanoTime() - start) / 1e9);
		}

	}

}
