package io.refstore.web.refs;

import java.util.ArrayList;
import java.util.List;

/**
 * One row of the Branches view: a branch and what it is judged by.
 *
 * @param name the full name ({@code refs/heads/feature/x})
 * @param sha the object it points to (through a symbolic ref, its target's), or
 * {@code null} for none
 * @param symref the ref a symbolic branch points to, or {@code null}
 * @param commit its last commit's date, author and subject
 * @param merged whether the branch {@code HEAD} names reaches it, or {@code null} when
 * none is judged against
 * @param ahead commits it has that {@code HEAD}'s branch lacks, or -1 when unknown
 * @param behind commits {@code HEAD}'s branch has that it lacks, or -1 when unknown
 * @param head whether it is the branch {@code HEAD} names
 * @param protectedBy what keeps it from a deletion plan: {@code HEAD} for the branch
 * {@code HEAD} names, else the protecting pattern; {@code null} if nothing does
 * @param stale whether its last commit is older than the hygiene's stale age
 */
public record BranchRow(String name, String sha, String symref, RefCommit commit, Boolean merged, int ahead, int behind,
		boolean head, String protectedBy, boolean stale) {

	/** The name without {@code refs/heads/}, as the view shows it. */
	public String shortName() {
		return this.name.startsWith(BranchService.BRANCHES) ? this.name.substring(BranchService.BRANCHES.length())
				: this.name;
	}

	/**
	 * The short name cut after each slash ({@code feature/}, {@code x}): the view lets a
	 * long name wrap between its components, never inside one.
	 */
	public List<String> segments() {
		String shortName = shortName();
		List<String> segments = new ArrayList<>();
		int start = 0;
		for (int slash = shortName.indexOf('/'); slash >= 0; slash = shortName.indexOf('/', start)) {
			segments.add(shortName.substring(start, slash + 1));
			start = slash + 1;
		}
		if (start < shortName.length()) {
			segments.add(shortName.substring(start));
		}
		return segments;
	}

	/**
	 * Whether it may be deleted directly: it points to an object, is no symbolic ref, and
	 * is neither {@code HEAD}'s branch nor protected.
	 */
	public boolean deletable() {
		return this.sha != null && this.symref == null && this.protectedBy == null;
	}

	/** Why it cannot be deleted directly, in words, or {@code null} if it can. */
	public String keptBecause() {
		if (this.head) {
			return "The default branch (the one HEAD names) cannot be deleted.";
		}
		if (this.protectedBy != null) {
			return "Protected by " + this.protectedBy + " (refstore.deletion.protected-refs).";
		}
		if (this.symref != null) {
			return "A symbolic ref to " + this.symref + ": delete it with git.";
		}
		if (this.sha == null) {
			return "It points to no object.";
		}
		return null;
	}

}
