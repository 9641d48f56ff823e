package io.refstore.web.console.dashboard;

import java.util.Comparator;
import java.util.Locale;

import io.refstore.web.repos.RepoHealth;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * The orders the dashboard offers. {@link #WORST} comes first: repositories due for
 * maintenance, then the untidiest stores, then the largest, so the one needing attention
 * is at the top.
 */
enum DashboardSort {

	WORST(Comparator.comparing((RepoHealth repo) -> !repo.statistics().maintenanceDue())
		.thenComparing(Comparator.comparingLong(RepoHealth::untidiness).reversed())
		.thenComparing(Comparator.comparingLong((RepoHealth repo) -> repo.summary().refCount()).reversed())),

	NAME(Comparator.comparing((RepoHealth repo) -> repo.name())),

	REFS(Comparator.comparingLong((RepoHealth repo) -> repo.summary().refCount()).reversed()),

	SIZE(Comparator.comparingLong((RepoHealth repo) -> repo.statistics().bytes()).reversed());

	private final Comparator<RepoHealth> order;

	DashboardSort(Comparator<RepoHealth> order) {
		this.order = order.thenComparing(RepoHealth::name);
	}

	Comparator<RepoHealth> order() {
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
