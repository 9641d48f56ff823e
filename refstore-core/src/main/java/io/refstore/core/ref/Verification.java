package io.refstore.core.ref;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.refstore.core.ref.RefCheck.Severity;

/**
 * One run of a ref store's consistency check ({@link RefStore#verify(Verification)}):
 * where findings go, how each counts, and how much is checked. The backends report every
 * finding here as git's {@code refs verify} does, and ask the answer (whether it counted
 * as an error) where git's checks depend on it.
 *
 * <p>
 * Not thread-safe: one check at a time.
 */
public final class Verification {

	private final Consumer<VerifyProblem> problems;

	private final Consumer<String> progress;

	private final Map<RefCheck, Severity> severities;

	private final boolean strict;

	private final boolean deep;

	private final String shownGitDir;

	private int errors;

	private Verification(Consumer<VerifyProblem> problems, Consumer<String> progress,
			Map<RefCheck, Severity> severities, boolean strict, boolean deep, String shownGitDir) {
		this.problems = problems;
		this.progress = progress;
		this.severities = severities;
		this.strict = strict;
		this.deep = deep;
		this.shownGitDir = shownGitDir;
	}

	/**
	 * git's check with git's default severities, and refstore's deeper checks when
	 * {@code deep}, handing each finding to {@code problems}.
	 */
	public static Verification of(Consumer<VerifyProblem> problems, boolean deep) {
		return new Verification(problems, (line) -> {
		}, new EnumMap<>(RefCheck.class), false, deep, null);
	}

	/**
	 * As {@code refs verify} runs: {@code --strict} makes warnings errors (not the
	 * {@code INFO} findings, which stay warnings, as in git), {@code severities} are
	 * {@code fsck.<msg-id>} settings, and {@code progress} receives the lines
	 * {@code --verbose} prints.
	 */
	public Verification with(Map<RefCheck, Severity> severities, boolean strict, Consumer<String> progress) {
		Map<RefCheck, Severity> copy = new EnumMap<>(RefCheck.class);
		copy.putAll(severities);
		return new Verification(this.problems, progress, copy, strict, this.deep, this.shownGitDir);
	}

	/**
	 * The git directory as the command's output names it (git prints
	 * {@code packed-refs}'s path as {@code .git/packed-refs} from a working tree).
	 */
	public Verification showingGitDirAs(String shown) {
		return new Verification(this.problems, this.progress, this.severities, this.strict, this.deep, shown);
	}

	/** Whether refstore's deeper checks run too. */
	public boolean deep() {
		return this.deep;
	}

	/** How many findings counted as errors so far. */
	public int errors() {
		return this.errors;
	}

	/**
	 * Reports a finding about {@code path} (a ref name, or a file such as
	 * {@code packed-refs line 3}).
	 * @return whether it counted as an error (an ignored finding or a warning does not)
	 */
	public boolean report(String path, RefCheck check, String message) {
		Severity severity = this.severities.get(check);
		if (severity == null) {
			// --strict raises git's default warnings, not a configured one
			severity = check.defaultSeverity();
			if (this.strict && severity == Severity.WARN) {
				severity = Severity.ERROR;
			}
		}
		if (severity == Severity.IGNORE) {
			return false;
		}
		boolean error = severity == Severity.ERROR || severity == Severity.FATAL;
		if (error) {
			this.errors++;
		}
		this.problems.accept(new VerifyProblem(error, path, check.id(), message));
		return error;
	}

	/**
	 * Reports an error that is no finding of a check, such as git's
	 * {@code error: cannot open directory .git/refs: ...}.
	 */
	public void failure(String message) {
		this.errors++;
		this.problems.accept(new VerifyProblem(true, "", "", message));
	}

	/**
	 * git's checks of a ref's value: the null object id is no value.
	 * @return whether a finding counted as an error
	 */
	public boolean objectId(String name, ObjectId id) {
		return id.isZero() && report(name, RefCheck.BAD_REF_OID, "points to invalid object ID '" + id.name() + "'");
	}

	/**
	 * git's checks of a symbolic ref's target, in git's order: {@code HEAD} (of any
	 * worktree) must point to a branch, then a target that is not a root ref must be a
	 * valid name, and one under {@code refs/} (or {@code worktrees/}). A finding that
	 * counts as an error ends the checks.
	 * @return whether a finding counted as an error
	 */
	public boolean symref(String name, String target) {
		if (WorktreeRef.parse(name).name().equals("HEAD") && !target.startsWith("refs/heads/")
				&& report(name, RefCheck.BAD_HEAD_TARGET, "HEAD points to non-branch '" + target + "'")) {
			return true;
		}
		if (RefName.isRootRef(target)) {
			return false;
		}
		if (!RefName.isValid(target, false)
				&& report(name, RefCheck.BAD_REFERENT_NAME, "points to invalid refname '" + target + "'")) {
			return true;
		}
		return !target.startsWith("refs/") && !target.startsWith("worktrees/")
				&& report(name, RefCheck.SYMREF_TARGET_IS_NOT_A_REF, "points to non-ref target '" + target + "'");
	}

	/** A line of what is being checked, as {@code --verbose} prints it. */
	public void checking(String line) {
		this.progress.accept(line);
	}

	/**
	 * A path below the common git directory as the output names it: relative to the git
	 * directory as the command was given it, else absolute.
	 */
	public String shown(Path commonDir, String name) {
		return (this.shownGitDir != null) ? this.shownGitDir + "/" + name : commonDir.resolve(name).toString();
	}

	/**
	 * The linked worktrees git's check visits after the main one: the entries of
	 * {@code <common dir>/worktrees} in directory order, each with a non-empty
	 * {@code gitdir} file.
	 */
	public static List<String> linkedWorktrees(Path commonDir) throws IOException {
		List<String> ids = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(commonDir.resolve("worktrees"))) {
			for (Path entry : entries) {
				Path gitdir = entry.resolve("gitdir");
				try {
					if (Files.isRegularFile(gitdir) && Files.size(gitdir) > 0) {
						ids.add(entry.getFileName().toString());
					}
				}
				catch (IOException ex) {
					// an unreadable gitdir file: git skips the worktree too
				}
			}
		}
		catch (NoSuchFileException | NotDirectoryException ex) {
			return ids;
		}
		return ids;
	}

}
