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
 * @param after the page starts after this repository ({@code <storage>/<path>}, the
 * previous page's {@link FleetPage#next()}), or {@code null} for the first page: keyset
 * paging, as fast deep in the list as at its start
 * @param limit the page's size
 */
public record FleetFilter(String node, String storage, String format, Boolean maintenanceDue, String query,
		String after, int limit) {

	/** The most repositories one page holds. */
	public static final int MAX_LIMIT = 500;

}
