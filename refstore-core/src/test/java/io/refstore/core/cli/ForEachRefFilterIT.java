package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertSame;
import static io.refstore.core.cli.CliHarness.refstore;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.cli.format.FormatThresholds;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code for-each-ref}'s ref selection against git 2.55's ({@link GitCli#reftable()}):
 * {@code --merged}, {@code --no-merged}, {@code --contains}, {@code --no-contains},
 * {@code --points-at}, {@code --exclude}, {@code --stdin}, {@code --include-root-refs},
 * on a generated history with merges, branches and tags (light, annotated, nested, on a
 * tree), in both ref formats and both hashes, with and without a commit-graph (single
 * file and split chain), same bytes on both streams and the same exit code.
 */
class ForEachRefFilterIT {

	@TempDir
	static Path temp;

	private static final List<Path> repositories = new ArrayList<>();

	@BeforeAll
	static void makeRepositories() {
		GitCli git = GitCli.reftable();
		int n = 0;
		for (String format : List.of("files", "reftable")) {
			for (String hash : List.of("sha1", "sha256")) {
				for (String graph : List.of("none", "single", "split")) {
					TempRepo repo = TempRepo.init(git, temp.resolve("r" + n++), "--ref-format=" + format,
							"--object-format=" + hash);
					populate(repo, graph);
					repositories.add(repo.dir());
				}
			}
		}
	}

	/**
	 * A history of 60 commits where each one has one or two earlier parents, refs at
	 * chosen commits, and the given commit-graph (a split chain covers part of history
	 * only, the rest is read from objects).
	 */
	private static void populate(TempRepo repo, String graph) {
		Random random = new Random(16);
		StringBuilder stream = new StringBuilder();
		int commits = 60;
		for (int i = 1; i <= commits; i++) {
			String message = "c" + i + "\n";
			stream.append("commit refs/heads/b").append(i % 7).append("\nmark :").append(i).append('\n');
			stream.append("committer C O Mitter <committer@example.com> ")
				.append(1700000000 + i)
				.append(" +0000\ndata ")
				.append(message.length())
				.append('\n')
				.append(message);
			if (i > 1) {
				stream.append("from :").append(i - 1 - random.nextInt(Math.min(i - 1, 5))).append('\n');
			}
			if (i > 3 && random.nextInt(4) == 0) {
				stream.append("merge :").append(1 + random.nextInt(i - 2)).append('\n');
			}
			stream.append('\n');
			if (i % 9 == 0) {
				stream.append("reset refs/tags/light").append(i).append("\nfrom :").append(i).append("\n\n");
				stream.append("tag ann")
					.append(i)
					.append("\nfrom :")
					.append(i)
					.append("\ntagger T <t@example.com> 1700000000 +0000\ndata 4\nann\n\n");
			}
		}
		stream.append("reset refs/heads/main\nfrom :").append(commits).append("\n\n");
		repo.run(stream.toString().getBytes(StandardCharsets.UTF_8), "fast-import", "--quiet").requireOk();
		if (graph.equals("split")) {
			repo.git("commit-graph", "write", "--split", "--reachable");
		}
		String old = repo.git("rev-parse", "main~3").trim();
		repo.git("update-ref", "refs/heads/late", repo.commit("late", repo.git("rev-parse", "main").trim()));
		repo.git("update-ref", "refs/tags/nested",
				repo.tagObject("nested", repo.git("rev-parse", "ann18").trim(), "tag"));
		repo.git("update-ref", "refs/tags/tree", repo.git("rev-parse", "main^{tree}").trim());
		repo.git("update-ref", "refs/odd/spot", old);
		repo.git("update-ref", "ORIG_HEAD", old);
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/b3");
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");
		if (graph.equals("single")) {
			repo.git("commit-graph", "write", "--reachable");
		}
		repo.git("pack-refs", "--all");
		repo.git("update-ref", "refs/heads/loose", old);
	}

	static Stream<String> selections() {
		return Stream.of("--merged=main", "--merged", "--no-merged=main", "--no-merged=b2", "--merged b3",
				"--merged=b1 --merged=b4", "--no-merged=b1 --no-merged=b4", "--merged=main --no-merged=b5",
				"--contains=light9", "--contains=ann27", "--no-contains=light18", "--contains=b1 --contains=b6",
				"--no-contains=b1 --no-contains=b6", "--contains=light9 --no-contains=b2",
				"--contains=light9 --merged=main refs/tags", "--contains", "--no-contains", "--points-at=b3",
				"--points-at=ann18", "--points-at=light27 --points-at=b0", "--exclude=refs/tags",
				"--exclude=refs/heads/b* --exclude=refs/tags/ann*", "--include-root-refs", "--include-root-refs *HEAD",
				"--include-root-refs --merged=main", "--sort=-refname --contains=b0", "--count=3 --no-merged=b0",
				"--merged=nope", "--no-merged=nope", "--contains=nope", "--no-contains=nope", "--points-at=nope",
				"--contains=tree", "--merged=nested", "--stdin refs/heads");
	}

	static Stream<Arguments> cases() {
		return selections()
			.flatMap((args) -> repositories.stream().map((dir) -> Arguments.of(dir.getFileName(), args)));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("cases")
	void selectsAsGitDoes(Path name, String args) {
		Path dir = temp.resolve(name);
		List<String> command = new ArrayList<>(List.of("for-each-ref"));
		command.addAll(List.of(args.split(" ")));
		String[] argv = command.toArray(String[]::new);
		assertSame(GitCli.reftable().run(dir, new byte[0], argv), refstore(dir, new byte[0], argv));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("repositoryNames")
	void readsPatternsFromStdinAsGitDoes(Path name) {
		Path dir = temp.resolve(name);
		byte[] stdin = "refs/tags/a*\nrefs/heads/b1\nrefs/odd\n".getBytes(StandardCharsets.UTF_8);
		String[] argv = { "for-each-ref", "--stdin", "--format=%(refname) %(objectname)" };
		assertSame(GitCli.reftable().run(dir, stdin, argv), refstore(dir, stdin, argv));
	}

	/**
	 * Enough refs for a second thread to look up their objects' types while this one
	 * walks the history ({@link FormatThresholds#FILTER_SHARED_MIN}): branches on a main
	 * line and on forks off it, annotated tags, a tag of a tree; then a branch to a
	 * missing object.
	 */
	@Test
	void filtersManyRefsAsGitDoes() throws Exception {
		GitCli git = GitCli.reftable();
		TempRepo repo = TempRepo.init(git, temp.resolve("many"));
		StringBuilder stream = new StringBuilder();
		int line = 300;
		for (int i = 1; i <= line; i++) {
			stream.append("commit refs/heads/main\nmark :").append(i).append('\n');
			stream.append("committer C <c@example.com> ").append(1700000000 + i).append(" +0000\ndata 2\nm\n\n");
		}
		int forks = FormatThresholds.FILTER_SHARED_MIN / 4;
		for (int i = 0; i < FormatThresholds.FILTER_SHARED_MIN; i++) {
			stream.append("reset refs/heads/on/").append(i).append("\nfrom :").append(1 + i % line).append("\n\n");
			if (i < forks) {
				stream.append("commit refs/heads/fork/").append(i).append('\n');
				stream.append("committer C <c@example.com> ").append(1700001000 + i).append(" +0000\ndata 2\nf\n");
				stream.append("from :").append(1 + (i * 7) % line).append("\n\n");
			}
			if (i % 16 == 0) {
				stream.append("tag t").append(i).append("\nfrom :").append(1 + i % line).append('\n');
				stream.append("tagger T <t@example.com> 1700000000 +0000\ndata 2\nt\n\n");
			}
		}
		repo.run(stream.toString().getBytes(StandardCharsets.UTF_8), "fast-import", "--quiet").requireOk();
		repo.git("update-ref", "refs/tags/tree", repo.git("rev-parse", "main^{tree}").trim());
		repo.git("pack-refs", "--all");
		List<String> selections = List.of("--merged=main", "--no-merged=main", "--merged=main~150",
				"--contains=main~299", "--no-contains=main~100 --merged=main", "--merged=fork/5 --no-merged=main~200",
				"--sort=-refname --merged=main --format=%(objecttype)%(*objecttype) %(refname)", "--merged=main~999",
				"--points-at=main~3", "--merged=t16^{}", "--format=%(refname) %(ahead-behind:main~10) refs/tags/t3*");
		for (String args : selections) {
			List<String> command = new ArrayList<>(List.of("for-each-ref"));
			command.addAll(List.of(args.split(" ")));
			String[] argv = command.toArray(String[]::new);
			assertSame(git.run(repo.dir(), new byte[0], argv), refstore(repo.dir(), new byte[0], argv));
		}
		java.nio.file.Files.createDirectories(repo.gitDir().resolve("refs/heads/on"));
		java.nio.file.Files.writeString(repo.gitDir().resolve("refs/heads/on/missing"),
				"1234567890123456789012345678901234567890\n");
		for (String args : List.of("--merged=main", "--no-merged=main")) {
			String[] argv = { "for-each-ref", args };
			assertSame(git.run(repo.dir(), new byte[0], argv), refstore(repo.dir(), new byte[0], argv));
		}
	}

	static Stream<Path> repositoryNames() {
		return repositories.stream().map(Path::getFileName);
	}

}
