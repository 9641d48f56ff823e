package io.refstore.web.refs;

import java.util.List;

/**
 * One page of the Branches view.
 *
 * @param rows the page's branches, in the order asked
 * @param page the page shown, from 1
 * @param pages how many pages the tab and search hold (at least 1)
 * @param from the position of the first row, from 1 (0 when there is none)
 * @param to the position of the last row
 * @param total how many branches the tab and search hold
 * @param active how many active branches the search matches
 * @param stale how many stale branches the search matches
 * @param branches how many branches the repository has
 * @param base the branch merged is judged against ({@code HEAD}'s), or {@code null}
 * @param note why nothing is judged merged, or {@code null}
 * @param staleAfterDays the stale age in days
 * @param capped whether a search stopped counting after
 * {@value BranchService#SEARCH_COUNT} branches of the tab (or the page asked): then
 * {@code total}, {@code active} and {@code stale} are how many it saw, the tab holds more
 * than {@code total - 1}, and {@code pages} is the page shown and one more
 */
public record BranchList(List<BranchRow> rows, int page, int pages, long from, long to, long total, long active,
		long stale, long branches, String base, String note, int staleAfterDays, boolean capped) {

	/** How many branches the search matches in all. */
	public long all() {
		return this.active + this.stale;
	}

}
