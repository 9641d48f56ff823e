package io.refstore.web.refs;

/**
 * The ref browser's links that keep the search and the filter: the first page, the pages
 * after and before a ref (in a date order with that ref's date, the cursor being the
 * pair), the match count, and a filtered view of a repository's branches.
 *
 * @param repo the repository's name
 * @param search the name search and page size
 * @param filter the facts filter and order
 */
public record RefBrowserLinks(String repo, RefSearch search, RefFilter filter) {

	/** The first page. */
	public String first() {
		return page().toString();
	}

	/** The page after {@code name} (dated {@code date} in a date order). */
	public String next(String name, long date) {
		return page().add("after", name).add("afterDate", this.filter.byDate() ? date : null).toString();
	}

	/** The page that ends just before {@code name} (dated {@code date}). */
	public String previous(String name, long date) {
		return page().add("before", name).add("beforeDate", this.filter.byDate() ? date : null).toString();
	}

	/** The match count, loaded by htmx. */
	public String count() {
		return filtered(new QueryLink("/repo/count").add("name", this.repo)
			.add("prefix", this.search.prefix())
			.add("glob", this.search.glob())).toString();
	}

	private QueryLink page() {
		return filtered(new QueryLink("/repo").add("name", this.repo)
			.add("prefix", this.search.prefix())
			.add("glob", this.search.glob())
			.add("limit", (this.search.limit() != 100) ? this.search.limit() : null));
	}

	private QueryLink filtered(QueryLink link) {
		return link.add("merged", this.filter.mergedParameter())
			.add("into", this.filter.needsBase() ? this.filter.into() : null)
			.add("older", (this.filter.olderThanDays() > 0) ? this.filter.olderThanDays() : null)
			.add("newer", (this.filter.newerThanDays() > 0) ? this.filter.newerThanDays() : null)
			.add("sort", this.filter.byDate() ? this.filter.sortParameter() : null);
	}

	/**
	 * The browser's view of the branches of one age range, merged into {@code HEAD}'s
	 * branch or not, newest first.
	 */
	static String branches(String repo, boolean merged, int olderThanDays, int newerThanDays) {
		RefFilter filter = new RefFilter(merged ? RefFilter.Merged.MERGED : RefFilter.Merged.NOT_MERGED, "",
				olderThanDays, newerThanDays, RefFilter.Order.NEWEST);
		return new RefBrowserLinks(repo, new RefSearch("refs/heads/", "", "", 100), filter).first();
	}

}
