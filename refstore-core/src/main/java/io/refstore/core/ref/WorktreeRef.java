package io.refstore.core.ref;

/**
 * Which worktree's refs a name belongs to, as git parses it. A repository with linked
 * worktrees keeps the refs every worktree shares ({@code refs/heads/*}, ...) once, and
 * {@code HEAD}, the other root refs and {@code refs/worktree/*}, {@code refs/bisect/*},
 * {@code refs/rewritten/*} once per worktree. Any worktree reaches another's with
 * {@code worktrees/<name>/<ref>} and the main worktree's with
 * {@code main-worktree/<ref>}.
 *
 * @param scope whose ref it is
 * @param worktree the worktree named by {@code worktrees/<name>/}, else {@code null}
 * @param name the name within that worktree's refs (the whole name unless it had one of
 * the two prefixes)
 */
public record WorktreeRef(Scope scope, String worktree, String name) {

	/** Whose ref a name is. */
	public enum Scope {

		/** Shared by every worktree (kept in the common directory). */
		SHARED,
		/** The current worktree's own. */
		CURRENT,
		/** The main worktree's own, through {@code main-worktree/}. */
		MAIN,
		/** Another linked worktree's own, through {@code worktrees/<name>/}. */
		OTHER

	}

	private static final String WORKTREES = "worktrees/";

	private static final String MAIN_WORKTREE = "main-worktree/";

	/**
	 * Parses a full ref name. {@code worktrees/<name>/<ref>} and
	 * {@code main-worktree/<ref>} address another worktree only when {@code <ref>} is one
	 * of a worktree's own; otherwise they are ordinary shared names.
	 */
	public static WorktreeRef parse(String name) {
		if (name.startsWith(WORKTREES)) {
			int slash = name.indexOf('/', WORKTREES.length());
			if (slash > WORKTREES.length() && isPerWorktree(name.substring(slash + 1))) {
				return new WorktreeRef(Scope.OTHER, name.substring(WORKTREES.length(), slash),
						name.substring(slash + 1));
			}
		}
		if (name.startsWith(MAIN_WORKTREE) && isPerWorktree(name.substring(MAIN_WORKTREE.length()))) {
			return new WorktreeRef(Scope.MAIN, null, name.substring(MAIN_WORKTREE.length()));
		}
		return new WorktreeRef(isPerWorktree(name) ? Scope.CURRENT : Scope.SHARED, null, name);
	}

	/**
	 * Whether a name is each worktree's own: a name of root-ref syntax ({@code HEAD},
	 * {@code ORIG_HEAD}, ...) or one under {@code refs/worktree/}, {@code refs/bisect/}
	 * or {@code refs/rewritten/}.
	 */
	public static boolean isPerWorktree(String name) {
		return name.startsWith("refs/worktree/") || name.startsWith("refs/bisect/")
				|| name.startsWith("refs/rewritten/") || RefName.isRootRefSyntax(name);
	}

	/** {@link #isPerWorktree(String)} of the first {@code length} bytes of a name. */
	public static boolean isPerWorktree(byte[] name, int length) {
		if (startsWith(name, length, "refs/")) {
			return startsWith(name, length, "refs/worktree/") || startsWith(name, length, "refs/bisect/")
					|| startsWith(name, length, "refs/rewritten/");
		}
		if (length == 0) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			byte c = name[i];
			if (!((c >= 'A' && c <= 'Z') || c == '-' || c == '_')) {
				return false;
			}
		}
		return true;
	}

	private static boolean startsWith(byte[] name, int length, String prefix) {
		if (length < prefix.length()) {
			return false;
		}
		for (int i = 0; i < prefix.length(); i++) {
			if (name[i] != prefix.charAt(i)) {
				return false;
			}
		}
		return true;
	}

}
