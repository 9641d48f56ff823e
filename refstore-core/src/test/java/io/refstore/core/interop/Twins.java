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
 * Two repositories made identically by git: twin A is only ever written by git, twin B
 * only by the tool under test (refstore, or git again to prove the harness). Knows how to
 * compare them, in the way their {@link StoreFormat} allows: their stores (byte for byte
 * for files, by what git and refstore read for reftable), and what readers (git's, and
 * refstore's) print for each. Comparisons fail with an {@link AssertionError} that names
 * the command and shows both answers. Not thread-safe.
 */
final class Twins {

	private final TempRepo a;

	private final TempRepo b;

	private final StoreFormat format;

	private final RefTool git;

	private final RefTool reader;

	private final RefTool jarReader;

	private final Supplier<String> context;

	/**
	 * @param reader the refstore tool whose {@code show-ref} and {@code for-each-ref}
	 * read both twins, or null when twin B is written by git
	 * @param jarReader the refstore jar, which also reads both twins in the final
	 * comparison, or null
	 * @param context describes where the test is (seed, step), for failure messages
	 */
	Twins(TempRepo a, TempRepo b, StoreFormat format, RefTool git, RefTool reader, RefTool jarReader,
			Supplier<String> context) {
		this.a = a;
		this.b = b;
		this.format = format;
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
	 * Makes twin B's ref store a copy of twin A's (after a recorded difference, so later
	 * steps compare again from equal states).
	 */
	void resetB() {
		try {
			this.format.snapshot(this.a).restore(this.b);
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

	StoreFormat format() {
		return this.format;
	}

	/** Captures twin A's store now. */
	StoreSnapshot snapshotA() {
		return this.format.snapshot(this.a);
	}

	/** Captures twin B's store now. */
	StoreSnapshot snapshotB() {
		return this.format.snapshot(this.b);
	}

	/**
	 * Fails unless both twins' stores hold the same (for files: the same bytes); minor
	 * differences (directories that exist in only one twin: empty directories change no
	 * ref) are handed to {@code minorDifference}, not failed on.
	 * @param snapshotA twin A's store as it is now
	 * @return twin B's snapshot
	 */
	StoreSnapshot compareStores(String step, StoreSnapshot snapshotA, Consumer<String> minorDifference) {
		StoreSnapshot snapshotB = snapshotB();
		String differences = snapshotA.differences(snapshotB, "twin A (git)", "twin B");
		if (differences != null) {
			throw new AssertionError(this.context.get() + ": the " + this.format.name()
					+ " stores of the twins differ after " + step + ":\n" + differences);
		}
		String minor = snapshotA.minorDifferences(snapshotB, "twin A (git)", "twin B");
		if (minor != null) {
			minorDifference.accept(this.context.get() + ":\n" + minor);
		}
		return snapshotB;
	}

	/**
	 * Lets git read both twins (the format's reader commands, such as
	 * {@code show-ref -d}, {@code show-ref --head} and two forms of {@code for-each-ref})
	 * and refstore read both twins (in this JVM, and also through the jar if
	 * {@code withJar}); every answer must equal git's answer on twin A.
	 * @return how many reader commands ran
	 */
	int compareReaders(boolean withJar) {
		int count = 0;
		for (List<String> command : this.format.readers()) {
			GitCli.Result expected = this.git.run(this.a.dir(), new byte[0], command);
			same(expected, this.git.run(this.b.dir(), new byte[0], command), "git reading twin B");
			count += 2;
			for (RefTool tool : refstoreTools(withJar)) {
				same(expected, tool.run(this.a.dir(), new byte[0], command), tool.name() + " reading twin A");
				same(expected, tool.run(this.b.dir(), new byte[0], command), tool.name() + " reading twin B");
				count += 2;
			}
		}
		for (List<String> command : this.format.gitReaders()) {
			same(this.git.run(this.a.dir(), new byte[0], command), this.git.run(this.b.dir(), new byte[0], command),
					"git reading twin B");
			count += 2;
		}
		return count;
	}

	private List<RefTool> refstoreTools(boolean withJar) {
		if (this.reader == null) {
			return List.of();
		}
		return (withJar && this.jarReader != null) ? List.of(this.reader, this.jarReader) : List.of(this.reader);
	}

	/**
	 * The reflog of every ref with a log (in either twin), and of HEAD, as git shows it,
	 * on both twins.
	 * @return how many reflogs were compared
	 */
	int compareReflogs(StoreSnapshot snapshotA) {
		List<String> names = new ArrayList<>(snapshotA.reflogNames());
		snapshotB().reflogNames().stream().filter((name) -> !names.contains(name)).forEach(names::add);
		if (!names.contains("HEAD")) {
			names.add("HEAD");
		}
		for (String name : names) {
			List<String> command = this.format.reflogCommand(name);
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

	/**
	 * The format's consistency checks ({@code refs verify}) by git and by refstore (in
	 * this JVM and the jar) are clean on both twins: exit code 0, no output.
	 * @return how many checks ran
	 */
	int verify() {
		int count = 0;
		List<RefTool> tools = new ArrayList<>(List.of(this.git));
		tools.addAll(refstoreTools(true));
		for (List<String> command : this.format.verifiers()) {
			for (RefTool tool : tools) {
				for (TempRepo twin : List.of(this.a, this.b)) {
					GitCli.Result result = tool.run(twin.dir(), new byte[0], command);
					count++;
					if (result.exitCode() != 0 || result.out().length > 0 || result.err().length > 0) {
						throw new AssertionError(this.context.get() + ": " + tool.name() + " " + command + " of "
								+ twin.dir() + " is not clean\n" + describe(tool.name(), result));
					}
				}
			}
		}
		return count;
	}

	/**
	 * Fails unless {@code actual} has {@code expected}'s exit code and standard output
	 * bytes.
	 */
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
