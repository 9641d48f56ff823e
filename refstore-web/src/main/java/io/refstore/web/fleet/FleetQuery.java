package io.refstore.web.fleet;

/**
 * Which of the fleet's repositories the console's dashboard lists, in which order, and
 * which page: read from the inventory the nodes keep ({@code refstore_fleet_repository}),
 * never from the stores themselves, so that a page costs the same for 10 repositories as
 * for 100,000.
 *
 * @param query only those whose name contains this text, ignoring case, or {@code null}
 * @param storage only this storage's, or {@code null}
 * @param format only {@code files} or {@code reftable}, or {@code null}
 * @param maintenanceDue only those with maintenance due (true) or not (false), or
 * {@code null}
 * @param order the order
 * @param offset how many repositories come before the page
 * @param limit the page's size
 */
public record FleetQuery(String query, String storage, String format, Boolean maintenanceDue, Order order, long offset,
		int limit) {

	/** The orders the inventory answers from its stored columns, each with its index. */
	public enum Order {

		/**
		 * Worst first: unreadable ones, then those due for maintenance, then the most
		 * loose refs (each a file git reads), then the most refs.
		 */
		WORST,

		/** By storage and path. */
		NAME,

		/** The most refs first. */
		REFS,

		/** The most bytes on disk first. */
		SIZE

	}

	/** The same selection in another order and page. */
	public FleetQuery page(Order order, long offset, int limit) {
		return new FleetQuery(this.query, this.storage, this.format, this.maintenanceDue, order, offset, limit);
	}

	/** The same selection, its maintenance filter replaced by {@code due}. */
	public FleetQuery due(Boolean due) {
		return new FleetQuery(this.query, this.storage, this.format, due, this.order, this.offset, this.limit);
	}

}
