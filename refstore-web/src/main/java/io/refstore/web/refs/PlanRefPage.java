package io.refstore.web.refs;

import java.util.List;

/**
 * One page of a deletion plan's refs in the ref browser.
 *
 * @param plan the plan's execution id
 * @param repository the repository it plans for
 * @param rows the page's refs, in the plan's order
 * @param page the page shown, from 1
 * @param pages how many pages the plan fills (at least 1)
 * @param from the position of the first row, from 1 (0 when there is none)
 * @param to the position of the last row
 * @param total how many refs the plan selected
 */
public record PlanRefPage(long plan, String repository, List<PlanRefRow> rows, int page, int pages, long from, long to,
		long total) {

	/** How many refs of the page moved since the plan. */
	public long moved() {
		return this.rows.stream().filter(PlanRefRow::moved).count();
	}

	/** How many refs of the page are gone. */
	public long gone() {
		return this.rows.stream().filter(PlanRefRow::gone).count();
	}

}
