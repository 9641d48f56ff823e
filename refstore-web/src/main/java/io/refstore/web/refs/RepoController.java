package io.refstore.web.refs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.repos.RepoHealth;
import io.refstore.web.repos.RepoOverview;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * A repository's page: the ref browser (prefix and glob search, keyset paging by the last
 * name shown, each ref's date, author and subject), and its health with a chart of refs
 * per namespace. A page of refs reads only the refs it shows plus one, from the position
 * the store seeks to, so it costs the same at the first ref as at the millionth and never
 * counts the store; the health, which does count every ref, is a fragment the page loads
 * separately (htmx), so paging never waits for it. Filtering by merged or age and sorting
 * by date need the facts of every ref the search covers: {@link RefFactsService} reads
 * them once per store fingerprint and pages from memory. So does the stale and merged
 * branches fragment, loaded separately like the health.
 */
@ConsoleController
class RepoController {

	static final String VIEWS_REPO_DETAILS = "repos/repoDetails";

	static final String VIEWS_REPO_HEALTH = "repos/repoHealth :: health";

	static final String VIEWS_REF_COUNT = "repos/repoDetails :: count";

	static final String VIEWS_HYGIENE = "repos/hygiene :: hygiene";

	/** The ages the browser's age filters offer, in days. */
	static final int[] AGES = { 30, 90, 180, 365 };

	private final RepoOverview overview;

	private final RefService refs;

	private final RefFactsService facts;

	private final HygieneProperties hygiene;

	RepoController(RepoOverview overview, RefService refs, RefFactsService facts, HygieneProperties hygiene) {
		this.overview = overview;
		this.refs = refs;
		this.facts = facts;
		this.hygiene = hygiene;
	}

	@GetMapping("/repo")
	String showRepo(@RequestParam String name, @RequestParam(required = false) String prefix,
			@RequestParam(required = false) String glob, @RequestParam(required = false) String after,
			@RequestParam(required = false) String before, @RequestParam(defaultValue = "100") int limit,
			@RequestParam(required = false) String merged, @RequestParam(required = false) String into,
			@RequestParam(required = false) Integer older, @RequestParam(required = false) Integer newer,
			@RequestParam(required = false) String sort, @RequestParam(defaultValue = "0") long afterDate,
			@RequestParam(defaultValue = "0") long beforeDate, @ModelAttribute("consoleUser") ConsoleUser user,
			Model model) throws IOException {
		RefSearch search = new RefSearch(prefix, glob, after, checkLimit(limit));
		RefFilter filter = RefFilter.of(merged, into, older, newer, sort);
		RefPage page;
		List<RefCommit> commits;
		boolean first;
		String base = null;
		if (filter.needsFacts()) {
			RefFactsPage filtered = this.facts.page(name, search.storePrefix(), search.glob(), filter, search.after(),
					afterDate, (before != null) ? before : "", beforeDate, search.limit());
			page = filtered.page();
			commits = filtered.commits();
			base = filtered.base();
			model.addAttribute("note", filtered.note());
			model.addAttribute("nextDate", filtered.nextDate());
			first = filtered.first();
		}
		else {
			if (before != null && !before.isEmpty()) {
				// Previous: the page that ends just before the given name
				search = new RefSearch(prefix, glob,
						this.refs.pageBefore(name, search.storePrefix(), search.glob(), before, search.limit()),
						search.limit());
			}
			page = this.refs.page(name, search.storePrefix(), search.glob(), search.after(), search.limit());
			commits = this.facts.commits(name, page.refs());
			first = search.after().isEmpty();
		}
		List<RefView> rootRefs = (first && search.prefix().isEmpty() && search.glob().isEmpty() && !filter.needsFacts())
				? this.refs.rootRefs(name) : List.of();
		model.addAttribute("repoName", name);
		model.addAttribute("search", search);
		model.addAttribute("filter", filter);
		model.addAttribute("page", page);
		model.addAttribute("commits", commits);
		model.addAttribute("limits", RefSearch.LIMITS);
		model.addAttribute("ages", AGES);
		model.addAttribute("firstPage", first);
		model.addAttribute("links", new RefBrowserLinks(name, search, filter));
		model.addAttribute("rootRefs", rootRefs);
		model.addAttribute("rootCommits", this.facts.commits(name, rootRefs));
		if (mayPlanDeletions(user)) {
			model.addAttribute("cleanup", CleanupLink.of(name, search, filter, base));
		}
		return VIEWS_REPO_DETAILS;
	}

	/**
	 * How many refs the search matches: loaded into the page by htmx, since it reads
	 * every name the search covers (with a facts filter, from the facts the page read).
	 */
	@GetMapping("/repo/count")
	String showRefCount(@RequestParam String name, @RequestParam(required = false) String prefix,
			@RequestParam(required = false) String glob, @RequestParam(required = false) String merged,
			@RequestParam(required = false) String into, @RequestParam(required = false) Integer older,
			@RequestParam(required = false) Integer newer, @RequestParam(required = false) String sort, Model model)
			throws IOException {
		RefSearch search = new RefSearch(prefix, glob, null, RefSearch.LIMITS[0]);
		RefFilter filter = RefFilter.of(merged, into, older, newer, sort);
		boolean byFacts = filter.merged() != RefFilter.Merged.ANY || filter.olderThanDays() > 0
				|| filter.newerThanDays() > 0;
		model.addAttribute("count", byFacts ? this.facts.count(name, search.storePrefix(), search.glob(), filter)
				: this.refs.count(name, search.storePrefix(), search.glob()));
		model.addAttribute("filtered", !search.prefix().isEmpty() || !search.glob().isEmpty() || byFacts);
		return VIEWS_REF_COUNT;
	}

	/**
	 * The stale and merged branches: how many branches of each age the branch
	 * {@code HEAD} names has merged and not, each count a link to the browser's view of
	 * them, with Clean up links for a role that may plan deletions where a plan takes
	 * exactly a row's branches. Loaded into the page by htmx, like the health.
	 */
	@GetMapping("/repo/hygiene")
	String showHygiene(@RequestParam String name, @ModelAttribute("consoleUser") ConsoleUser user, Model model)
			throws IOException {
		BranchAges ages = this.facts.branchAges(name);
		boolean mayPlan = mayPlanDeletions(user);
		List<HygieneRow> rows = new ArrayList<>();
		for (BranchAges.Bucket bucket : ages.buckets()) {
			rows.add(new HygieneRow(bucket,
					RefBrowserLinks.branches(name, true, bucket.olderThanDays(), bucket.newerThanDays()),
					RefBrowserLinks.branches(name, false, bucket.olderThanDays(), bucket.newerThanDays()),
					mayPlan ? CleanupLink.bucket(name, bucket, true, ages.base()) : null,
					mayPlan ? CleanupLink.bucket(name, bucket, false, ages.base()) : null,
					bucket.olderThanDays() >= this.hygiene.staleAfterDays()));
		}
		model.addAttribute("repoName", name);
		model.addAttribute("ages", ages);
		model.addAttribute("rows", rows);
		model.addAttribute("staleAfterDays", this.hygiene.staleAfterDays());
		model.addAttribute("mayPlan", mayPlan);
		return VIEWS_HYGIENE;
	}

	/**
	 * One age bucket's row: its counts, the browser's views of them, its Clean up links
	 * for exactly its merged branches and for all of them ({@code null} for a role that
	 * may not plan deletions) and whether it is stale.
	 */
	public record HygieneRow(BranchAges.Bucket bucket, String mergedLink, String notMergedLink,
			CleanupLink cleanupMerged, CleanupLink cleanupAll, boolean stale) {
	}

	/**
	 * Whether the user may launch a deletion plan: the Clean up links are for them only.
	 */
	private static boolean mayPlanDeletions(ConsoleUser user) {
		return user.mayRun(RefJobType.DELETE, Map.of(JobParameterNames.PLAN_ONLY, "true"));
	}

	@GetMapping("/repo/health")
	String showRepoHealth(@RequestParam String name, Model model) throws IOException {
		RepoHealth repo = this.overview.one(name);
		model.addAttribute("repo", repo);
		addChart(repo.summary().namespaces(), model);
		return VIEWS_REPO_HEALTH;
	}

	/**
	 * Page sizes are the browser's choices only, so a URL cannot ask for a page that
	 * reads half the store.
	 */
	private static int checkLimit(int limit) {
		for (int allowed : RefSearch.LIMITS) {
			if (allowed == limit) {
				return limit;
			}
		}
		throw new InvalidRequestException("limit", Integer.toString(limit), "it must be 50, 100 or 500");
	}

	private static void addChart(Map<String, Long> namespaces, Model model) {
		List<String> labels = new ArrayList<>(namespaces.keySet());
		List<Long> values = new ArrayList<>(namespaces.values());
		model.addAttribute("chartLabels", labels);
		model.addAttribute("chartValues", values);
	}

}
