package io.refstore.core.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
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

	private final RefTool jarReader;

	private final Supplier<String> context;

	/**
	 * @param reader the refstore tool whose {@code show-ref} and {@code for-each-ref} read both twins, or
	 * null when twin B is written by git
	 * @param jarReader the refstore jar, which also reads both twins in the final comparison, or null
	 * @param context describes where the test is (seed, step), for failure messages
	 */
	Twins(TempRepo a, TempRepo b, RefTool git, RefTool reader, RefTool jarReader, Supplier<String> context) {
		this.a = a;
		this.b = b;
		this.git = git;
		this.reader = reader;
		this.jarReader = jarReader;
		this.context = context;
	}

	/** Where the test is (seed, step), for failure messages. */
	String context() {
		return this.context.get();
	}

	/**
	 * Makes twin B's ref files a copy of twin A's (after a recorded difference, so later steps compare again
	 * from equal states).
	 */
	void resetB() {
		try {
			RepoSnapshot.of(this.a.gitDir()).restore(this.b.gitDir());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot reset twin B", ex);
		}
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
	RepoSnapshot compareFiles(String step, Consumer<String> directoryDifference) {
		RepoSnapshot snapshotA = RepoSnapshot.of(this.a.gitDir());
		RepoSnapshot snapshotB = RepoSnapshot.of(this.b.gitDir());
		String differences = snapshotA.differences(snapshotB, "twin A (git)", "twin B");
		if (differences != null) {
			throw new AssertionError(this.context.get() + ": the ref files of the twins differ after " + step + ":\n"
					+ differences);
		}
		String directories = snapshotA.directoryDifferences(snapshotB, "twin A (git)", "twin B");
		if (directories != null) {
			directoryDifference.accept(this.context.get() + ":\n" + directories);
		}
		return snapshotA;
	}

	/**
	 * Lets git read both twins ({@code show-ref -d}, {@code show-ref --head}, two forms of
	 * {@code for-each-ref}) and refstore read both twins (in this JVM, and also through the jar if
	 * {@code withJar}); every answer must equal git's answer on twin A.
	 * @return how many reader commands ran
	 */
	int compareReaders(boolean withJar) {
		List<List<String>> commands = List.of(List.of("show-ref", "-d"),
				List.of("for-each-ref", "--format=%(refname) %(objectname) %(symref)"), List.of("for-each-ref"),
				List.of("show-ref", "--head"));
		int count = 0;
		for (List<String> command : commands) {
			GitCli.Result expected = this.git.run(this.a.dir(), new byte[0], command);
			same(expected, this.git.run(this.b.dir(), new byte[0], command), "git reading twin B");
			count += 2;
			for (RefTool tool : (withJar && this.jarReader != null) ? List.of(this.reader, this.jarReader)
					: (this.reader != null) ? List.of(this.reader) : List.<RefTool>of()) {
				same(expected, tool.run(this.a.dir(), new byte[0], command), tool.name() + " reading twin A");
				same(expected, tool.run(this.b.dir(), new byte[0], command), tool.name() + " reading twin B");
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
			boolean quiet = (result.stdout() + result.stderr()).lines().allMatch((line) -> line.startsWith("notice:"));
			if (result.exitCode() != 0 || !quiet) {
				throw new AssertionError(this.context.get() + ": git fsck of " + twin.dir() + " exited with "
						+ result.exitCode() + ":\n" + result.stdout() + result.stderr());
			}
		}
	}

	/** Fails unless {@code actual} has {@code expected}'s exit code and standard output bytes. */
	void same(GitCli.Result expected, GitCli.Result actual, String what) {
		if (expected.exitCode() != actual.exitCode() || !Arrays.equals(expected.out(), actual.out())) {
			String headline = actual.command() + ": exit " + expected.exitCode() + " (git) vs " + actual.exitCode()
					+ ", stdout " + (Arrays.equals(expected.out(), actual.out()) ? "same" : "differs") + "; git: "
					+ firstLine(expected.err()) + "; twin B: " + firstLine(actual.err());
			throw new AssertionError(this.context.get() + ": " + headline + "\n" + what
					+ " differs from git on twin A\n" + describe("git on twin A", expected) + describe(what, actual));
		}
	}

	private static String firstLine(byte[] bytes) {
		String text = new String(bytes, StandardCharsets.UTF_8).strip();
		int newline = text.indexOf('\n');
		return (newline < 0) ? text : text.substring(0, newline);
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
