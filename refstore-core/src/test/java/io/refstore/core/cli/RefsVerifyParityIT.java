package io.refstore.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refs verify} judged by git 2.55's: a corpus of repositories, each broken in one
 * way (or sound) by a shell snippet, in both formats; on each, {@code refs verify}, with
 * {@code --strict} and with {@code --verbose}, prints the same bytes on standard output
 * and standard error as git's and exits with the same code.
 */
class RefsVerifyParityIT {

	@TempDir
	static Path temp;

	private static GitCli git;

	private static TempRepo files;

	private static TempRepo reftable;

	@BeforeAll
	static void makeRepositories() {
		git = GitCli.reftable();
		files = base("files");
		reftable = base("reftable");
	}

	/** A repository with a branch, a tag, a symbolic ref and packed refs. */
	private static TempRepo base(String format) {
		TempRepo repo = TempRepo.init(git, temp.resolve("base-" + format), "--ref-format=" + format);
		String c1 = repo.commit("one", null);
		String c2 = repo.commit("two", c1);
		repo.git("update-ref", "refs/heads/main", c2);
		repo.git("update-ref", "refs/heads/topic", c1);
		repo.git("update-ref", "refs/tags/v1", repo.tagObject("v1", c2, "commit"));
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/main");
		repo.git("pack-refs", "--all");
		repo.git("update-ref", "refs/heads/loose", c1);
		return repo;
	}

	/**
	 * The corruptions, as shell run in the repository's working tree with {@code $GIT}
	 * (git 2.55), {@code $C} (a commit) and {@code $Z} (the null id) set.
	 */
	static Stream<Arguments> files() {
		return Stream.of(
				// sound
				files("sound", ""),
				// loose files
				files("bad content", "echo garbage >.git/refs/heads/bad"),
				files("short id", "echo 1234 >.git/refs/heads/short"),
				files("missing newline", "printf %s $C >.git/refs/heads/nolf"),
				files("trailing garbage", "printf '%s garbage\\n' $C >.git/refs/heads/trail"),
				files("two newlines", "printf '%s\\n\\n' $C >.git/refs/heads/twolf"),
				files("nul in content", "printf '%s\\0more\\n' $C >.git/refs/heads/nul"),
				files("null id", "echo $Z >.git/refs/heads/null"),
				files("uppercase id", "echo $C | tr a-f A-F >.git/refs/heads/upper"),
				files("bad names",
						"echo $C >.git/refs/heads/.hidden; echo $C >.git/refs/heads/'a..b'; "
								+ "echo $C >.git/refs/heads/.dot.lock; echo $C >.git/refs/heads/main.lock"),
				files("fifo", "mkfifo .git/refs/heads/fifo"),
				files("symref without newline", "printf 'ref: refs/heads/main' >.git/refs/heads/s"),
				files("symref with blanks", "printf 'ref: refs/heads/main \\n\\n' >.git/refs/heads/s"),
				files("symref with space and no newline", "printf 'ref:   refs/heads/main  ' >.git/refs/heads/s"),
				files("symref to bad name", "echo 'ref: refs/heads/a..b' >.git/refs/heads/s"),
				files("symref to pseudoref", "echo 'ref: FETCH_HEAD' >.git/refs/heads/s"),
				files("symref to root ref", "echo 'ref: ORIG_HEAD' >.git/refs/heads/s"),
				files("symref outside refs", "echo 'ref: foo/bar' >.git/refs/heads/s"),
				files("empty symref", "printf 'ref:' >.git/refs/heads/s"),
				files("HEAD to a tag", "echo 'ref: refs/tags/v1' >.git/HEAD"),
				files("symlink symref", "ln -s main .git/refs/heads/link"),
				files("dangling symlink", "ln -s gone .git/refs/heads/link"),
				files("symlink outside",
						"ln -s ../../../.. .git/refs/heads/link; ln -s ../../config .git/refs/heads/cfg"),
				files("root refs",
						"echo garbage >.git/ORIG_HEAD; printf %s $C >.git/AUTO_MERGE; "
								+ "echo garbage >.git/FETCH_HEAD; echo garbage >.git/lower_HEAD"),
				files("root ref as link", "ln -s refs/heads/main .git/ORIG_HEAD"),
				// packed-refs
				files("empty packed-refs", ": >.git/packed-refs"),
				files("packed-refs a symlink", "mv .git/packed-refs .git/p && ln -s p .git/packed-refs"),
				files("packed-refs a directory", "rm .git/packed-refs && mkdir .git/packed-refs"),
				files("bad header", "sed -i 1s/with/wit/ .git/packed-refs"),
				files("no header", "sed -i 1d .git/packed-refs"),
				files("no header, unterminated", "printf '%s refs/heads/z' $C >.git/packed-refs"),
				files("unsorted", "printf '%s refs/heads/z\\n' $C >>.git/packed-refs"),
				files("unsorted, not said sorted",
						"sed -i 1s/sorted// .git/packed-refs; printf '%s refs/heads/z\\n' $C >>.git/packed-refs"),
				files("unsorted twice", "printf '%s refs/heads/z\\n%s refs/heads/y\\n' $C $C >>.git/packed-refs"),
				files("bad lines",
						"printf 'xyz refs/heads/x\\n%s\\trefs/heads/tab\\n%sZrefs/heads/z\\n%s refs/heads/a..b\\n' "
								+ "$C $C $C >>.git/packed-refs"),
				files("bad peeled lines",
						"printf '%s refs/tags/w\\n^xyz\\n%s refs/tags/x\\n^%s junk\\n' $C $C $C "
								+ ">>.git/packed-refs"),
				files("peeled first", "sed -i '1a ^'$C .git/packed-refs"),
				files("unterminated last line", "printf '%s refs/tags/zz' $C >>.git/packed-refs"),
				files("nul in a packed name", "printf '%s refs/tags/n\\0ul\\n' $C >>.git/packed-refs"),
				files("blank line", "echo >>.git/packed-refs"),
				// worktrees
				files("worktree",
						"$GIT worktree add -q -b side ../wt-$$ main; "
								+ "echo garbage >.git/worktrees/wt-$$/HEAD; mkdir -p .git/worktrees/wt-$$/refs/bisect; "
								+ "echo $Z >.git/worktrees/wt-$$/refs/bisect/bad"),
				files("worktree without gitdir",
						"mkdir -p .git/worktrees/gone; echo garbage >.git/worktrees/gone/HEAD"),
				// severities
				files("configured severities",
						"$GIT config fsck.badRefContent warn; $GIT config fsck.refmissingnewline error; "
								+ "$GIT config fsck.BADREFNAME ignore; echo garbage >.git/refs/heads/bad; "
								+ "printf %s $C >.git/refs/heads/nolf; echo $C >.git/refs/heads/.hidden"),
				files("unknown message id", "$GIT config fsck.noSuchCheck warn"),
				files("unknown severity", "$GIT config fsck.badRefName fatal"),
				files("fatal demoted", "$GIT config fsck.nulInHeader warn"),
				files("object check configured", "$GIT config fsck.missingEmail ignore"));
	}

	static Stream<Arguments> reftable() {
		return Stream.of(
				// sound
				reftable("sound", ""),
				reftable("bad table name",
						"t=$(head -1 .git/reftable/tables.list); mv .git/reftable/$t .git/reftable/x$t; "
								+ "sed -i 1s/^/x/ .git/reftable/tables.list"),
				reftable("odd but valid table names",
						"t=$(head -1 .git/reftable/tables.list); mv .git/reftable/$t '.git/reftable/ -1-0x-.ref'; "
								+ "sed -i '1s/.*/ -1-0x-.ref/' .git/reftable/tables.list"),
				reftable("HEAD to a tag", "$GIT symbolic-ref HEAD refs/tags/v1"),
				reftable("symref outside refs", "$GIT symbolic-ref refs/heads/s foo/bar"),
				reftable("symref to a root ref", "$GIT symbolic-ref refs/heads/s ORIG_HEAD"),
				reftable("worktree",
						"$GIT worktree add -q -b side ../wt-$$ main; $GIT -C ../wt-$$ symbolic-ref HEAD "
								+ "refs/tags/v1; w=.git/worktrees/wt-$$/reftable; t=$(head -1 $w/tables.list); "
								+ "mv $w/$t $w/x$t; sed -i 1s/^/x/ $w/tables.list"),
				reftable("broken worktree stack", "$GIT worktree add -q -b side ../wt-$$ main; "
						+ "echo 0x000000000001-0x000000000001-00000000.ref >.git/worktrees/wt-$$/reftable/tables.list"),
				reftable("broken stack, checked in its worktree",
						"$GIT worktree add -q -b side wt main; "
								+ "echo garbage >.git/worktrees/wt/reftable/tables.list"),
				reftable("configured severities",
						"$GIT config fsck.badHeadTarget warn; $GIT symbolic-ref HEAD refs/tags/v1; "
								+ "$GIT symbolic-ref refs/heads/s foo/bar"));
	}

	private static Arguments files(String name, String shell) {
		return Arguments.of(name, shell);
	}

	private static Arguments reftable(String name, String shell) {
		return Arguments.of(name, shell);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("files")
	void filesAsGitChecksThem(String name, String shell) {
		judge(files, name, shell);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("reftable")
	void reftableAsGitChecksIt(String name, String shell) {
		judge(reftable, name, shell);
	}

	private static void judge(TempRepo base, String name, String shell) {
		Path dir = CliHarness.copy(base.dir(), temp.resolve(base.dir().getFileName() + "-" + name.replace(' ', '-')));
		String commit = base.git("rev-parse", "refs/heads/main").trim();
		Path from = name.endsWith("in its worktree") ? dir.resolve("wt") : dir;
		GitCli.Result setup = GitCli.command(List.of("bash", "-c", "set -e; " + shell))
			.withEnv("GIT", git.command().get(0))
			.withEnv("C", commit)
			.withEnv("Z", "0".repeat(commit.length()))
			.run(dir);
		assertThat(setup.exitCode()).as(setup.stderr()).isZero();
		List<String> seen = new ArrayList<>();
		for (String[] args : new String[][] { { "refs", "verify" }, { "refs", "verify", "--strict" },
				{ "refs", "verify", "--verbose" } }) {
			GitCli.Result expected = git.run(from, new byte[0], args);
			GitCli.Result actual = CliHarness.refstoreNamed("git", from, args);
			String context = name + ": " + String.join(" ", args) + "\n--- git (" + expected.exitCode() + ") ---\n"
					+ expected.stderr() + "--- refstore (" + actual.exitCode() + ") ---\n" + actual.stderr();
			assertThat(actual.exitCode()).as(context).isEqualTo(expected.exitCode());
			assertThat(actual.stderr()).as(context).isEqualTo(expected.stderr());
			assertThat(actual.stdout()).as(context).isEqualTo(expected.stdout());
			seen.add(expected.exitCode() + ":" + expected.stderr());
		}
		// a sound repository must say nothing (and the corpus must really break the
		// others)
		if (name.equals("sound")) {
			assertThat(seen.get(0)).isEqualTo("0:");
		}
		else {
			assertThat(seen.get(2)).as("the snippet broke nothing git sees").isNotEqualTo("0:");
		}
	}

}
