package io.refstore.web.fleet;

import java.util.List;

/**
 * One page of the fleet's repositories.
 *
 * @param repositories the page, in storage and path order
 * @param total how many repositories match the filter
 * @param offset the page's first match
 * @param limit the page's size
 */
public record FleetPage(List<FleetRepository> repositories, long total, int offset, int limit) {

	/** The offset of the next page, or {@code null} if this is the last. */
	public Integer next() {
		return (this.offset + this.limit < this.total) ? this.offset + this.limit : null;
	}

	/** The offset of the previous page, or {@code null} if this is the first. */
	public Integer previous() {
		return (this.offset > 0) ? Math.max(0, this.offset - this.limit) : null;
	}

}
