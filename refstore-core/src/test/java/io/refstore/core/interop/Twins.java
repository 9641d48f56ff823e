package io.refstore.core.interop;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Two repositories made identically by git: twin A is only ever written by git, twin B only by the tool
 * under test (refstore, or git again to prove the harness). Knows how to compare them: their ref files byte
 * for byte, and what readers (git's, and refstore's) print for each. Comparisons fail with an
 * {@link AssertionError} that names the command and shows both answers. Not thread-safe.
 */
final class Twins {

	private final TempRepo a;

	private final TempRepo b;

	private final RefTool git;

	private final RefTool reader;

	private final Supplier<String> context;

	/**
	 * @param reader the refstore tool whose {@code show-ref} and {@code for-each-ref} read both twins, or
	 * null when twin B is written by git
	 * @param context describes where the test is (seed, step), for failure messages
	 */
	Twins(TempRepo a, TempRepo b, RefTool git, RefTool reader, Supplier<String> context) {
		this.a = a;
		this.b = b;
		this.git = git;
		this.reader = reader;
		this.context = context;
	}

	TempRepo a() {
		return this.a;
	}

	TempRepo b() {
		return this.b;
	}

	/**
	 * Fails unless both twins' ref files are equal byte for byte; directories that exist in only one twin are
	 * handed to {@code directoryDifference} (empty directories change no ref, so they are reported, not
	 * failed on).
	 * @return twin A's snapshot
	 */
	RepoSnapshot compareFiles(Consumer<String> directoryDifference) {
		RepoSnapshot snapshotA = RepoSnapshot.of(this.a.gitDir());
		RepoSnapshot snapshotB = RepoSnapshot.of(this.b.gitDir());
		String differences = snapshotA.differences(snapshotB, "twin A (git)", "twin B");
		if (differences != null) {
			throw new AssertionError(this.context.get() + ": the ref files of the twins differ:\n" + differences);
		}
		String directories = snapshotA.directoryDifferences(snapshotB, "twin A (git)", "twin B");
		if (directories != null) {
			directoryDifference.accept(this.context.get() + ":\n" + directories);
		}
		return snapshotA;
	}

	/**
	 * Lets git read both twins ({@code show-ref -d}, two forms of {@code for-each-ref}) and refstore read both
	 * twins; every answer must equal git's answer on twin A.
	 * @return how many reader commands ran
	 */
	int compareReaders() {
		List<List<String>> commands = List.of(List.of("show-ref", "-d"),
				List.of("for-each-ref", "--format=%(refname) %(objectname) %(symref)"), List.of("for-each-ref"),
				List.of("show-ref", "--head"));
		int count = 0;
		for (List<String> command : commands) {
			GitCli.Result expected = this.git.run(this.a.dir(), new byte[0], command);
			same(expected, this.git.run(this.b.dir(), new byte[0], command), "git reading twin B");
			count += 2;
			if (this.reader != null) {
				same(expected, this.reader.run(this.a.dir(), new byte[0], command), this.reader.name() + " reading twin A");
				same(expected, this.reader.run(this.b.dir(), new byte[0], command), this.reader.name() + " reading twin B");
				count += 2;
			}
		}
		return count;
	}

	/**
	 * {@code git reflog show} of every ref with a log (in either twin), and of HEAD, on both twins.
	 * @return how many reflogs were compared
	 */
	int compareReflogs(RepoSnapshot snapshotA) {
		List<String> names = new ArrayList<>(snapshotA.reflogNames());
		RepoSnapshot.of(this.b.gitDir()).reflogNames().stream().filter((name) -> !names.contains(name)).forEach(names::add);
		if (!names.contains("HEAD")) {
			names.add("HEAD");
		}
		for (String name : names) {
			List<String> command = List.of("reflog", "show", name, "--");
			same(this.git.run(this.a.dir(), new byte[0], command), this.git.run(this.b.dir(), new byte[0], command),
					"git reflog of " + name + " on twin B");
		}
		return names.size();
	}

	/** {@code git fsck --no-dangling} is clean on both twins. */
	void fsck() {
		for (TempRepo twin : List.of(this.a, this.b)) {
			GitCli.Result result = this.git.run(twin.dir(), new byte[0], List.of("fsck", "--no-dangling"));
			if (result.exitCode() != 0 || result.out().length != 0 || result.err().length != 0) {
				throw new AssertionError(this.context.get() + ": git fsck of " + twin.dir() + " exited with "
						+ result.exitCode() + ":\n" + result.stdout() + result.stderr());
			}
		}
	}

	/** Fails unless {@code actual} has {@code expected}'s exit code and standard output bytes. */
	void same(GitCli.Result expected, GitCli.Result actual, String what) {
		if (expected.exitCode() != actual.exitCode() || !Arrays.equals(expected.out(), actual.out())) {
			throw new AssertionError(this.context.get() + ": " + what + " differs from git on twin A for "
					+ actual.command() + "\n" + describe("git on twin A", expected) + describe(what, actual));
		}
	}

	static String describe(String who, GitCli.Result result) {
		return "--- " + who + ": exit " + result.exitCode() + "\n[stdout]\n" + show(result.out()) + "[stderr]\n"
				+ show(result.err());
	}

	static String show(byte[] bytes) {
		String text = new String(bytes, StandardCharsets.UTF_8).replace("\0", "\\0");
		return (text.length() > 4000) ? text.substring(0, 4000) + "...\n" : text;
	}

}
