package io.refstore.core.migrate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import io.refstore.core.testing.GitCli;

/**
 * What a git shows of a repository's refs, captured by running that git: the format its
 * configuration names, and the listings a migration must leave unchanged (every ref with
 * root refs, {@code show-ref -d}, {@code ls-remote .}, the refs that have a reflog and
 * every reflog entry). Immutable.
 *
 * @param format what {@code rev-parse --show-ref-format} prints
 * @param forEachRef {@code for-each-ref --include-root-refs} with name, value and
 * symbolic target
 * @param showRef {@code show-ref -d}: refs and peeled tags
 * @param lsRemote {@code ls-remote .}: {@code HEAD} first, then refs and peeled tags
 * @param reflogList {@code reflog list}, sorted bytewise
 * @param reflogs the entries of {@code HEAD}'s log and of every listed log (in that
 * order), newest first, with identity, raw time stamp and message; git shows only the
 * entries whose value is a commit
 */
record GitView(String format, String forEachRef, String showRef, String lsRemote, String reflogList, String reflogs) {

	private static final String REFLOG_FORMAT = "--format=%gD %H %gn <%ge> %gs";

	/**
	 * Captures the view with one {@code reflog show <ref>} per log, as a user would look
	 * at them.
	 * @param git a git that reads the repository's format (2.46 or newer for root refs
	 * and {@code reflog list})
	 */
	static GitView capture(GitCli git, Path dir) {
		return capture(git, dir, true);
	}

	/**
	 * Captures the view with all reflogs in one {@code log -g --stdin} run: the same
	 * lines as {@link #capture(GitCli, Path)}, but git merges the logs newest first (each
	 * log's entries keep their order, and each line names its log, so two views are equal
	 * exactly when their per-log views are), with far fewer processes for many logs.
	 */
	static GitView captureQuickly(GitCli git, Path dir) {
		return capture(git, dir, false);
	}

	private static GitView capture(GitCli git, Path dir, boolean eachReflog) {
		String format = git.ok(dir, "rev-parse", "--show-ref-format").strip();
		String forEachRef = git.ok(dir, "for-each-ref", "--include-root-refs",
				"--format=%(refname) %(objectname) %(symref)");
		// git lists logs in its backend's order (files: directory by directory), so in
		// byte order here
		List<String> names = git.ok(dir, "reflog", "list").lines().sorted(GitView::compareBytes).toList();
		String reflogList = names.stream().map((name) -> name + "\n").collect(Collectors.joining());
		List<String> logged = new ArrayList<>(List.of("HEAD"));
		names.stream().filter((name) -> !name.equals("HEAD")).forEach(logged::add);
		StringBuilder reflogs = new StringBuilder();
		if (eachReflog) {
			for (String name : logged) {
				reflogs.append(git.ok(dir, "reflog", "show", "--date=raw", REFLOG_FORMAT, name));
			}
		}
		else {
			byte[] stdin = String.join("\n", logged).concat("\n").getBytes(StandardCharsets.UTF_8);
			reflogs
				.append(git.run(dir, stdin, "log", "-g", "--stdin", "--date=raw", REFLOG_FORMAT).requireOk().stdout());
		}
		return new GitView(format, forEachRef, showRefs(git, dir), lsRemote(git, dir), reflogList, reflogs.toString());
	}

	private static int compareBytes(String a, String b) {
		return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
	}

	/** {@code show-ref -d}, which every git (2.39 included) prints the same way. */
	static String showRefs(GitCli git, Path dir) {
		return git.ok(dir, "show-ref", "-d");
	}

	/** {@code ls-remote .}, which every git (2.39 included) prints the same way. */
	static String lsRemote(GitCli git, Path dir) {
		return git.ok(dir, "ls-remote", ".");
	}

	/**
	 * Everything but the format, with headings, for one comparison with a readable
	 * difference.
	 */
	String listings() {
		return "# for-each-ref\n" + this.forEachRef + "# show-ref -d\n" + this.showRef + "# ls-remote .\n"
				+ this.lsRemote + "# reflog list\n" + this.reflogList + "# reflogs\n" + this.reflogs;
	}

	/** Whether {@code other} lists the same refs and logs, whatever the formats. */
	boolean sameListings(GitView other) {
		return listings().equals(other.listings());
	}

	/**
	 * How the listings of {@code other} differ from these, for a failure message that
	 * fits on a screen: the lines each side lacks (at most 20 each), or the first line
	 * out of order.
	 * @return {@code null} if the listings are equal
	 */
	String difference(GitView other) {
		if (sameListings(other)) {
			return null;
		}
		List<String> mine = listings().lines().toList();
		List<String> theirs = other.listings().lines().toList();
		List<String> lost = new ArrayList<>(mine);
		lost.removeAll(theirs);
		List<String> gained = new ArrayList<>(theirs);
		gained.removeAll(mine);
		if (lost.isEmpty() && gained.isEmpty()) {
			for (int i = 0; i < Math.min(mine.size(), theirs.size()); i++) {
				if (!mine.get(i).equals(theirs.get(i))) {
					return "same lines in another order, from line " + (i + 1) + ": expected '" + mine.get(i)
							+ "' but was '" + theirs.get(i) + "'";
				}
			}
			return "same lines, repeated differently (" + mine.size() + " vs " + theirs.size() + " lines)";
		}
		return "missing " + lost.subList(0, Math.min(20, lost.size())) + ", unexpected "
				+ gained.subList(0, Math.min(20, gained.size()));
	}

	/**
	 * Runs {@code git fsck} and {@code git refs verify}.
	 * @return {@code null} if both pass silently (fsck may report dangling objects), else
	 * what they said
	 */
	static String unsoundness(GitCli git, Path dir) {
		GitCli.Result fsck = git.run(dir, "fsck", "--no-progress");
		GitCli.Result verify = git.run(dir, "refs", "verify", "--strict");
		if (fsck.exitCode() == 0 && verify.exitCode() == 0 && verify.stderr().isEmpty()) {
			return null;
		}
		return "fsck exited " + fsck.exitCode() + ": " + fsck.stderr().strip() + "; refs verify exited "
				+ verify.exitCode() + ": " + verify.stderr().strip();
	}

}
