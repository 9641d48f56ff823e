package io.refstore.web.refs;

/**
 * The deletion plan's launch form ({@code /jobs/new/deletion}) pre-filled with what the
 * ref browser shows, or why it cannot be: a plan selects by prefixes and globs (their
 * union), narrowed by namespaces, merged into a branch and older than an age (all of
 * which must hold), so the browser's name search, merged filter and "older than" map onto
 * it exactly, while "not merged" and "newer than" have no counterpart and are never
 * widened into a plan of more refs than the page lists.
 * <ul>
 * <li>a prefix is {@code prefixes}; a glob is {@code globs}, alone when its literal
 * beginning already starts with the prefix, else with the prefix as a namespace (it must
 * then end in a slash);</li>
 * <li>the namespace browsed ({@code refs/heads/} of {@code refs/heads/feature/}) is
 * {@code namespaces}, so the plan never reaches outside it;</li>
 * <li>merged is {@code mergedInto} the branch the page judged against;</li>
 * <li>older than N days is {@code olderThan=Nd}.</li>
 * </ul>
 * The form splits lists at commas, so a search holding one has no link. Nor has a list
 * nothing narrows (no prefix below {@code refs/}, no glob, merged or age): its plan would
 * take every branch and tag.
 *
 * @param href the link, or {@code null} when the filter has no plan
 * @param reason why there is no link, or {@code null}
 */
public record CleanupLink(String href, String reason) {

	private static final String REFS = "refs/";

	private static CleanupLink none(String reason) {
		return new CleanupLink(null, reason);
	}

	/**
	 * The plan for what the browser shows.
	 * @param base the branch merged was judged against ({@code null} for none)
	 */
	static CleanupLink of(String repo, RefSearch search, RefFilter filter, String base) {
		if (filter.newerThanDays() > 0) {
			return none("A deletion plan has no upper bound on age: clear “Newer than” to plan one.");
		}
		if (filter.merged() == RefFilter.Merged.NOT_MERGED) {
			return none("A deletion plan selects merged refs, not unmerged ones: choose “Merged” or any.");
		}
		if (filter.merged() == RefFilter.Merged.MERGED && base == null) {
			return none("No branch to judge merged against, so there is nothing to plan.");
		}
		String prefix = search.prefix();
		String glob = search.glob();
		if (prefix.contains(",") || glob.contains(",") || (base != null && base.contains(","))) {
			return none("The deletion form reads commas as separators, and this search holds one.");
		}
		if (!prefix.startsWith(REFS)) {
			if (!REFS.startsWith(prefix)) {
				return none("The prefix matches no ref under refs/.");
			}
			prefix = "";
		}
		if ((prefix.isEmpty() || prefix.equals(REFS)) && glob.isEmpty() && filter.merged() == RefFilter.Merged.ANY
				&& filter.olderThanDays() == 0) {
			return none("Narrow the list first (a prefix such as refs/heads/, a glob, “Merged” or “Older than”): "
					+ "a plan of the whole list would take every branch and tag.");
		}
		QueryLink link = new QueryLink("/jobs/new/deletion").add("repo", repo);
		String namespace = null;
		if (glob.isEmpty()) {
			link.add("prefixes", prefix.isEmpty() ? REFS : prefix);
		}
		else if (new RefSearch("", glob, "", search.limit()).storePrefix().startsWith(prefix)) {
			// the glob's literal beginning starts with the prefix: the glob alone says it
			link.add("globs", glob);
		}
		else if (prefix.endsWith("/") && prefix.length() > REFS.length()) {
			namespace = prefix;
			link.add("globs", glob);
		}
		else {
			return none("A deletion plan cannot combine this prefix with this glob: end the prefix with a slash, "
					+ "or start the glob with it.");
		}
		link.add("namespaces", (namespace != null) ? namespace : namespaceOf(search.storePrefix()));
		if (filter.merged() == RefFilter.Merged.MERGED) {
			link.add("mergedInto", base);
		}
		if (filter.olderThanDays() > 0) {
			link.add("olderThan", filter.olderThanDays() + "d");
		}
		return new CleanupLink(link.toString(), null);
	}

	/**
	 * The plan for exactly the branches of one age range of a repository page's table:
	 * its merged ones ({@code merged}) or all of them. A plan bounds age from below only,
	 * so a range with an upper bound has none: its plan would take every older range too.
	 * @param base the branch merged was judged against ({@code null} for none)
	 */
	static CleanupLink bucket(String repo, BranchAges.Bucket bucket, boolean merged, String base) {
		if (bucket.newerThanDays() > 0) {
			return none("A deletion plan takes every branch older than an age, so it cannot take only these.");
		}
		if (merged && base == null) {
			return none("No branch to judge merged against.");
		}
		RefFilter filter = new RefFilter(merged ? RefFilter.Merged.MERGED : RefFilter.Merged.ANY, "",
				bucket.olderThanDays(), 0, RefFilter.Order.NAME);
		return of(repo, new RefSearch("refs/heads/", "", "", 100), filter, base);
	}

	/**
	 * The namespace a store prefix lies in: {@code refs/heads/} of
	 * {@code refs/heads/feature/}; {@code null} above one ({@code refs/},
	 * {@code refs/he}).
	 */
	static String namespaceOf(String storePrefix) {
		if (!storePrefix.startsWith(REFS)) {
			return null;
		}
		int slash = storePrefix.indexOf('/', REFS.length());
		return (slash > REFS.length()) ? storePrefix.substring(0, slash + 1) : null;
	}

}
