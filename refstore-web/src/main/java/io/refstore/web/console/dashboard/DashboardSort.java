package io.refstore.web.console.dashboard;

import java.util.Locale;

import io.refstore.web.fleet.FleetQuery;
import io.refstore.web.system.InvalidRequestException;

/**
 * The orders the dashboard offers, each answered by the fleet's inventory from its stored
 * columns and index. {@link #WORST} comes first: unreadable repositories, then those due
 * for maintenance, then the most loose refs (the untidiest files stores), then the most
 * refs, so the one needing attention is at the top. (A reftable store's extra tables are
 * not stored by the inventory: among reftable stores, due ones come first, then the
 * largest.)
 */
enum DashboardSort {

	WORST(FleetQuery.Order.WORST),

	NAME(FleetQuery.Order.NAME),

	REFS(FleetQuery.Order.REFS),

	SIZE(FleetQuery.Order.SIZE);

	private final FleetQuery.Order order;

	DashboardSort(FleetQuery.Order order) {
		this.order = order;
	}

	FleetQuery.Order order() {
		return this.order;
	}

	/** The value of the {@code sort} parameter for this order. */
	String parameter() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * @throws org.springframework.web.ErrorResponseException 400 naming the parameter if
	 * {@code value} is no order
	 */
	static DashboardSort parse(String value) {
		for (DashboardSort sort : values()) {
			if (sort.parameter().equals(value)) {
				return sort;
			}
		}
		throw new InvalidRequestException("sort", value, "it must be one of worst, name, refs, size");
	}

}
