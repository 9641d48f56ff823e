package io.refstore.web.refs;

import java.util.List;

/**
 * A page of refs filtered or sorted by their facts ({@link RefFilter}), with each row's
 * commit columns.
 *
 * @param page the refs and the {@code next} cursor's name
 * @param commits each ref's commit columns, by index in {@code page.refs()}
 * @param first whether the page is the first of the listing
 * @param matched how many refs the search and filter match in all
 * @param nextDate the creator date (seconds) of the cursor's ref, for a date order's
 * {@code next} cursor
 * @param base the branch merged was judged against, or {@code null} for none
 * @param note why nothing could match (the branch has no commit), or {@code null}
 */
public record RefFactsPage(RefPage page, List<RefCommit> commits, boolean first, long matched, long nextDate,
		String base, String note) {
}
