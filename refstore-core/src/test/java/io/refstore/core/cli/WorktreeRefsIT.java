package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertSame;
import static io.refstore.core.cli.CliHarness.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.testing.GitCli;

/**
 * Refs of a repository with linked worktrees, written through refstore and through git
 * 2.55 on two identical repositories: each worktree's own refs ({@code HEAD},
 * {@code refs/bisect/*}, {@code refs/worktree/*}) go where git keeps them (the reftable
 * backend's stack per worktree, the files backend's worktree directory), and git reads
 * the same refs and reflogs from every worktree of both. The names
 * {@code worktrees/<name>/<ref>} and {@code main-worktree/<ref>} reach the other
 * worktrees' refs: written through them, git 2.55's reftable backend stores the name
 * unrewritten (a record that neither it nor anyone reads back), while refstore writes the
 * ref the name means, as git's files backend does, so there git reads them back.
 */
class WorktreeRefsIT {

	@TempDir
	Path temp;

	private static final List<String> DIRS = List.of("repo", "wt1", "wt2");

	/** Steps: the directory a command runs in, its standard input, its arguments. */
	private record Step(String dir, String stdin, String... args) {
	}

	/** Each worktree writing its own refs, shared ones, and both in one transaction. */
	private static final List<Step> STEPS = List.of(new Step("wt1", "", "update-ref", "refs/bisect/bad", "HEAD"),
			new Step("wt1", "", "update-ref", "-m", "own", "--create-reflog", "refs/worktree/own", "HEAD"),
			new Step("wt2", "", "update-ref", "refs/bisect/good", "HEAD"),
			new Step("repo", "", "update-ref", "refs/bisect/main", "HEAD"),
			new Step("wt1", "create refs/heads/shared HEAD\ncreate refs/worktree/tx HEAD\n", "update-ref", "--stdin"),
			new Step("wt2", "", "symbolic-ref", "-m", "switch", "HEAD", "refs/heads/b1"),
			new Step("wt2", "", "update-ref", "-m", "move", "HEAD", "b0"),
			new Step("wt1", "", "update-ref", "-d", "refs/bisect/bad"), new Step("wt1", "", "pack-refs", "--all"));

	/** The same through the names that reach other worktrees. */
	private static final List<Step> PREFIXED = List.of(
			new Step("repo", "", "update-ref", "worktrees/wt2/refs/bisect/good", "HEAD"),
			new Step("wt2", "", "update-ref", "main-worktree/refs/bisect/main", "HEAD"),
			new Step("wt1", "create worktrees/wt2/refs/worktree/tx HEAD\ncreate refs/heads/shared HEAD\n", "update-ref",
					"--stdin"),
			// git refuses the name for a deletion
			new Step("repo", "", "update-ref", "-d", "worktrees/wt2/refs/bisect/good"));

	/** What git reads in each worktree. */
	private static final String[][] GIT_READS = { { "for-each-ref" }, { "reflog", "list" },
			{ "reflog", "show", "--format=%H %gs", "HEAD" }, { "reflog", "show", "refs/worktree/own" },
			{ "rev-parse", "HEAD", "worktrees/wt1/HEAD", "main-worktree/HEAD" },
			{ "for-each-ref", "--format=%(refname)", "refs/worktree", "refs/bisect" },
			{ "rev-parse", "--verify", "-q", "main-worktree/refs/bisect/main" },
			{ "rev-parse", "--verify", "-q", "worktrees/wt2/refs/bisect/good" },
			{ "rev-parse", "--verify", "-q", "worktrees/wt2/refs/worktree/tx" }, { "refs", "verify" } };

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void writesWhereGitDoes(String format) throws Exception {
		GitCli git = GitCli.reftable();
		Path byGit = setUp(git, this.temp.resolve("git"), format);
		Path byRefstore = setUp(git, this.temp.resolve("refstore"), format);
		for (Step step : STEPS) {
			assertSame(run(git, byGit, step), refstore(byRefstore, step));
		}
		assertSameReads(git, byGit, byRefstore);
		assertThat(Files.exists(byRefstore.resolve("repo/.git/worktrees/wt1/reftable")))
			.isEqualTo(format.equals("reftable"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void reachesOtherWorktreesRefsByName(String format) throws Exception {
		GitCli git = GitCli.reftable();
		Path byRefstore = setUp(git, this.temp.resolve("refstore"), format);
		Path byGit = setUp(git, this.temp.resolve("git"), format);
		for (Step step : PREFIXED) {
			GitCli.Result result = refstore(byRefstore, step);
			if (format.equals("files")) {
				assertSame(run(git, byGit, step), result);
			}
			else {
				assertThat(result.exitCode()).as(result.stderr()).isEqualTo(step.args()[1].equals("-d") ? 1 : 0);
			}
		}
		if (format.equals("files")) {
			assertSameReads(git, byGit, byRefstore);
		}
		String head = git.ok(byRefstore.resolve("repo"), "rev-parse", "HEAD").trim();
		assertThat(git.ok(byRefstore.resolve("wt2"), "rev-parse", "refs/bisect/good", "refs/worktree/tx"))
			.isEqualTo(head + "\n" + head + "\n");
		assertThat(git.ok(byRefstore.resolve("repo"), "rev-parse", "refs/bisect/main", "refs/heads/shared"))
			.isEqualTo(head + "\n" + head + "\n");
		assertThat(git.run(byRefstore.resolve("wt1"), new byte[0], "rev-parse", "-q", "--verify", "refs/bisect/good")
			.exitCode()).isEqualTo(1);
		for (String dir : DIRS) {
			git.ok(byRefstore.resolve(dir), "refs", "verify");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "files", "reftable" })
	void readsWhatGitReads(String format) throws Exception {
		GitCli git = GitCli.reftable();
		Path root = setUp(git, this.temp.resolve("read"), format);
		for (Step step : STEPS) {
			run(git, root, step).requireOk();
		}
		for (String dir : DIRS) {
			for (String[] read : new String[][] { { "for-each-ref" },
					{ "for-each-ref", "refs/bisect", "refs/worktree" },
					{ "show-ref", "--verify", "HEAD", "main-worktree/HEAD", "worktrees/wt2/HEAD" },
					{ "show-ref", "--verify", "worktrees/wt1/refs/worktree/own", "main-worktree/refs/bisect/main" },
					{ "symbolic-ref", "HEAD" }, { "show-ref", "--exists", "worktrees/wt2/refs/bisect/good" },
					{ "for-each-ref", "--format=%(refname) %(objectname)", "--include-root-refs" },
					{ "for-each-ref", "--format=%(refname) %(HEAD) %(worktreepath)", "refs/heads/" } }) {
				assertSame(git.run(root.resolve(dir), new byte[0], read), CliHarness.refstore(root.resolve(dir), read));
			}
		}
	}

	private static void assertSameReads(GitCli git, Path byGit, Path byRefstore) {
		for (String dir : DIRS) {
			for (String[] read : GIT_READS) {
				GitCli.Result expected = git.run(byGit.resolve(dir), new byte[0], read);
				GitCli.Result actual = git.run(byRefstore.resolve(dir), new byte[0], read);
				assertThat(actual.stdout()).as("git " + String.join(" ", read) + " in " + dir + " " + actual.stderr())
					.isEqualTo(expected.stdout());
				assertThat(actual.exitCode()).as("git " + String.join(" ", read) + " in " + dir)
					.isEqualTo(expected.exitCode());
			}
		}
	}

	private static GitCli.Result run(GitCli git, Path root, Step step) {
		return git.run(root.resolve(step.dir()), bytes(step.stdin()), resolve(git, root, step.args()));
	}

	private static GitCli.Result refstore(Path root, Step step) {
		return CliHarness.refstore(root.resolve(step.dir()), bytes(step.stdin()),
				resolve(GitCli.reftable(), root, step.args()));
	}

	/**
	 * A repository with commits {@code b0} and {@code b1} (branches of those names), and
	 * two linked worktrees beside it.
	 */
	private static Path setUp(GitCli git, Path root, String format) throws Exception {
		Files.createDirectories(root);
		git.ok(root, "init", "-q", "--ref-format=" + format, "-b", "main", "repo");
		Path repo = root.resolve("repo");
		git.ok(repo, "commit", "-q", "--allow-empty", "-m", "zero");
		git.ok(repo, "branch", "b0");
		git.ok(repo, "commit", "-q", "--allow-empty", "-m", "one");
		git.ok(repo, "branch", "b1");
		git.ok(repo, "worktree", "add", "-q", "../wt1");
		git.ok(repo, "worktree", "add", "-q", "../wt2");
		return root;
	}

	/**
	 * The arguments with the branch name {@code b0} as its commit id (for update-ref).
	 */
	private static String[] resolve(GitCli git, Path root, String[] args) {
		List<String> resolved = new ArrayList<>();
		for (String arg : args) {
			resolved.add(arg.equals("b0") ? git.ok(root.resolve("repo"), "rev-parse", "b0").trim() : arg);
		}
		return resolved.toArray(String[]::new);
	}

}
