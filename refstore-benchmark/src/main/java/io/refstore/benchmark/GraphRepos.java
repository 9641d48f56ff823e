package io.refstore.benchmark;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The history the commit filters of {@code for-each-ref} ({@code --merged}) are timed on:
 * {@code n} commits and {@code n} branches besides {@code main}. The first half of the
 * commits is {@code main}'s line, each the child of the one before; each commit of the
 * second half forks from one of {@code main}'s ({@code topic/<k>} from the {@code k}th).
 * Branch {@code merged/<k>} points at {@code main}'s {@code k}th commit (merged into it),
 * {@code topic/<k>} at the {@code k}th fork (not merged). Built once per size in
 * {@code <work>/graph-<n>} in both formats, sharing one pack and no commit-graph file, so
 * every commit is read from the object database. Immutable once prepared.
 */
final class GraphRepos {

	/** The largest history built: the 100,000 commits and branches. */
	static final int MAX_COMMITS = 100_000;

	private static final String GENERATION = "refstore-benchmark graph 1";

	/**
	 * The marker of the copies with a commit-graph file, built after the repositories.
	 */
	private static final String GRAPH_GENERATION = "refstore-benchmark commit-graph 1";

	private static final long EPOCH = 1_700_000_000L;

	private final Path dir;

	private final int commits;

	private GraphRepos(Path dir, int commits) {
		this.dir = dir;
		this.commits = commits;
	}

	/** How many commits a corpus of {@code refs} refs gets: as many, at most 100,000. */
	static int commitsFor(int refs) {
		return Math.min(refs, MAX_COMMITS) / 2 * 2;
	}

	/**
	 * The repositories for {@code commits} commits, built unless a complete earlier build
	 * is there.
	 */
	static GraphRepos prepare(Path work, int commits, Processes processes, String git, PrintStream log)
			throws IOException {
		GraphRepos repos = new GraphRepos(work.resolve("graph-" + commits), commits);
		Path ready = repos.dir.resolve("READY");
		if (Files.isRegularFile(ready) && Files.readString(ready).equals(GENERATION)) {
			repos.prepareCommitGraphs(processes, git, log);
			return repos;
		}
		log.println("building a history of " + commits + " commits and branches in " + repos.dir
				+ " (cached for later runs)");
		RepoFiles.deleteTree(repos.dir);
		Files.createDirectories(repos.dir);
		long start = System.nanoTime();
		repos.build(processes, git);
		log.printf("  %-60s %8.1f s%n", "graph repositories", (System.nanoTime() - start) / 1e9);
		Files.writeString(ready, GENERATION);
		repos.prepareCommitGraphs(processes, git, log);
		return repos;
	}

	/**
	 * Copies of both repositories with a commit-graph file ({@code git commit-graph write
	 * --reachable}), unless an earlier run made them.
	 */
	private void prepareCommitGraphs(Processes processes, String git, PrintStream log) throws IOException {
		Path ready = this.dir.resolve("READY-commit-graph");
		if (Files.isRegularFile(ready) && Files.readString(ready).equals(GRAPH_GENERATION)) {
			return;
		}
		long start = System.nanoTime();
		for (String format : List.of("files", "reftable")) {
			Path copy = repoWithCommitGraph(format);
			RepoFiles.deleteTree(copy);
			RepoFiles.copyRepo(repo(format), copy);
			processes.check(List.of(git, "commit-graph", "write", "--reachable"), copy);
		}
		log.printf("  %-60s %8.1f s%n", "graph repositories with a commit-graph", (System.nanoTime() - start) / 1e9);
		Files.writeString(ready, GRAPH_GENERATION);
	}

	/** The copy of the repository of {@code format} that has a commit-graph file. */
	Path repoWithCommitGraph(String format) {
		return this.dir.resolve(format + "-commit-graph.git");
	}

	/** The repository of {@code format}. */
	Path repo(String format) {
		return this.dir.resolve(format + ".git");
	}

	/** How many commits, and branches besides {@code main}. */
	int commits() {
		return this.commits;
	}

	/**
	 * fast-import the history with its branches into the files repository, pack its refs,
	 * then give the reftable repository the same refs over the same objects.
	 */
	private void build(Processes processes, String git) throws IOException {
		Path files = repo("files");
		processes.check(List.of(git, "init", "-q", "--bare", "-b", "main", "--ref-format=files", files.toString()),
				this.dir);
		processes.check(List.of(git, "fast-import", "--quiet"), files, this::writeStream);
		processes.check(List.of(git, "pack-refs", "--all"), files);
		Path reftable = repo("reftable");
		processes.check(
				List.of(git, "init", "-q", "--bare", "-b", "main", "--ref-format=reftable", reftable.toString()),
				this.dir);
		RepoFiles.deleteTree(reftable.resolve("objects"));
		RepoFiles.linkTree(files.resolve("objects"), reftable.resolve("objects"));
		Path input = this.dir.resolve("create.txt");
		Files.writeString(input,
				processes.check(List.of(git, "for-each-ref", "--format=create %(refname) %(objectname)"), files));
		processes.check(List.of(git, "update-ref", "--stdin"), reftable, (in) -> Files.copy(input, in));
		processes.check(List.of(git, "pack-refs", "--all"), reftable);
		Files.delete(input);
		String fromFiles = processes.check(List.of(git, "show-ref"), files);
		long lines = fromFiles.lines().count();
		if (!fromFiles.equals(processes.check(List.of(git, "show-ref"), reftable)) || lines != this.commits + 1) {
			throw new IllegalStateException("git lists " + lines + " refs in " + files + " and other refs in "
					+ reftable + ", not the same " + (this.commits + 1));
		}
	}

	/**
	 * The fast-import stream: {@code main}'s line (marks 1 to n/2), the forks (marks
	 * n/2+1 to n), each on its {@code topic/<k>} branch, then a {@code merged/<k>} branch
	 * per commit of {@code main}.
	 */
	private void writeStream(OutputStream stream) throws IOException {
		OutputStream out = new BufferedOutputStream(stream, 1 << 16);
		int half = this.commits / 2;
		StringBuilder text = new StringBuilder(256);
		for (int k = 1; k <= this.commits; k++) {
			boolean fork = k > half;
			int base = fork ? k - half : 0;
			String message = (fork ? "Topic " + base : "Main " + k) + "\n";
			text.setLength(0);
			text.append("commit refs/heads/")
				.append(fork ? "topic/" + base : "main")
				.append("\nmark :")
				.append(k)
				.append("\ncommitter C O Mitter <committer@example.com> ")
				.append(EPOCH + k)
				.append(" +0000\ndata ")
				.append(message.length())
				.append('\n')
				.append(message);
			if (fork) {
				text.append("from :").append(base).append('\n');
			}
			text.append('\n');
			out.write(text.toString().getBytes(StandardCharsets.US_ASCII));
		}
		List<String> resets = new ArrayList<>();
		for (int k = 1; k <= half; k++) {
			resets.add("reset refs/heads/merged/" + k + "\nfrom :" + k + "\n\n");
		}
		out.write(String.join("", resets).getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

}
