package io.refstore.core.ref;

/**
 * Which refs get a reflog when they are updated, from {@code core.logAllRefUpdates}.
 */
public enum ReflogPolicy {

	/**
	 * {@code false}: only refs whose log already exists (git's default in bare
	 * repositories).
	 */
	EXISTING_ONLY,

	/**
	 * {@code true}: {@code HEAD}, {@code refs/heads/}, {@code refs/remotes/} and
	 * {@code refs/notes/} get a log (git's default in repositories with a working tree),
	 * others only if their log exists.
	 */
	NORMAL,

	/** {@code always}: every ref gets a log. */
	ALWAYS;

	/** Whether an update of {@code name} creates its log when none exists yet. */
	public boolean createsLogFor(String name) {
		return switch (this) {
			case EXISTING_ONLY -> false;
			case ALWAYS -> true;
			case NORMAL -> name.equals("HEAD") || name.startsWith("refs/heads/") || name.startsWith("refs/remotes/")
					|| name.startsWith("refs/notes/");
		};
	}

}
