package io.refstore.web.fleet;

/**
 * Which of the fleet's repositories to list, and which page.
 *
 * @param node only this node's, or {@code null}
 * @param storage only this storage's, or {@code null}
 * @param format only {@code files} or {@code reftable}, or {@code null}
 * @param maintenanceDue only those with maintenance due (true) or not (false), or
 * {@code null}
 * @param query only those whose path contains this text, or {@code null}
 * @param offset how many matches to skip
 * @param limit the page's size
 */
public record FleetFilter(String node, String storage, String format, Boolean maintenanceDue, String query, int offset,
		int limit) {

	/** The most repositories one page holds. */
	public static final int MAX_LIMIT = 500;

}
