package io.refstore.web.console.dashboard;

import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;

import io.refstore.web.fleet.FleetQuery;

/**
 * The dashboard's links, each keeping the filters it does not change: a page's, an
 * order's, and "Maintain all due" over the same selection. Parameters without a value are
 * left out ({@code /?q=team&due=true&offset=50}).
 *
 * @param query the page's selection
 * @param sort the page's order, as its parameter
 */
public record DashboardLinks(FleetQuery query, String sort) {

	/** Whether any filter is set, the order and page aside. */
	public boolean filtered() {
		return this.query.query() != null || this.query.storage() != null || this.query.format() != null
				|| this.query.maintenanceDue() != null;
	}

	/** The page at {@code offset}, in this order. */
	public String page(long offset) {
		return href("/", this.sort, offset);
	}

	/** The first page in order {@code sort}. */
	public String sorted(String sort) {
		return href("/", sort, 0);
	}

	/** The confirmation of "Maintain all due" over this selection. */
	public String maintainDue() {
		return href("/maintain-due", null, 0);
	}

	private String href(String path, String sort, long offset) {
		MultiValueMap<String, String> parameters = new LinkedMultiValueMap<>();
		put(parameters, "q", this.query.query());
		put(parameters, "storage", this.query.storage());
		put(parameters, "format", this.query.format());
		put(parameters, "due", this.query.maintenanceDue());
		if (sort != null && !"worst".equals(sort)) {
			parameters.add("sort", sort);
		}
		if (offset > 0) {
			parameters.add("offset", Long.toString(offset));
		}
		// a + in a query is read as a space
		return UriComponentsBuilder.fromPath(path)
			.queryParams(parameters)
			.build()
			.encode()
			.toUriString()
			.replace("+", "%2B");
	}

	private static void put(MultiValueMap<String, String> parameters, String name, Object value) {
		if (value != null) {
			parameters.add(name, value.toString());
		}
	}

}
