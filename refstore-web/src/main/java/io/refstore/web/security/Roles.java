package io.refstore.web.security;

import java.util.List;

/**
 * The roles of refstore, weakest first; each implies the ones before it.
 * <ul>
 * <li>{@link #VIEWER}: read repositories, refs and logs, manage one's own API
 * tokens.</li>
 * <li>{@link #OPERATOR}: also run jobs, dry runs and deletion plans, and read the audit
 * log.</li>
 * <li>{@link #ADMIN}: also destructive execution: ref writes, migration, deletion,
 * rollback, restore, settings, and every user's tokens (which job needs which role is
 * {@code JobPolicy}'s to say).</li>
 * </ul>
 */
public final class Roles {

	/** Read-only access. */
	public static final String VIEWER = "VIEWER";

	/** Jobs, dry runs, plans, the audit log. */
	public static final String OPERATOR = "OPERATOR";

	/** Destructive execution. */
	public static final String ADMIN = "ADMIN";

	/** Every role, weakest first. */
	public static final List<String> ALL = List.of(VIEWER, OPERATOR, ADMIN);

	private Roles() {
	}

}
