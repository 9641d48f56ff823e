package io.refstore.web.console.repos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.web.refs.RefPage;
import io.refstore.web.refs.RefService;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * A repository's page: the ref browser (prefix and glob search, keyset paging by the last
 * name shown), and its health with a chart of refs per namespace. A page of refs reads
 * only the refs it shows plus one, from the position the store seeks to, so it costs the
 * same at the first ref as at the millionth and never counts the store; the health, which
 * does count every ref, is a fragment the page loads separately (htmx), so paging never
 * waits for it.
 */
@Controller
class RepoController {

	static final String VIEWS_REPO_DETAILS = "repos/repoDetails";

	static final String VIEWS_REPO_HEALTH = "repos/repoHealth :: health";

	static final String VIEWS_REF_COUNT = "repos/repoDetails :: count";

	private final RepoOverview overview;

	private final RefService refs;

	RepoController(RepoOverview overview, RefService refs) {
		this.overview = overview;
		this.refs = refs;
	}

	@GetMapping("/repo")
	String showRepo(@RequestParam String name, @RequestParam(required = false) String prefix,
			@RequestParam(required = false) String glob, @RequestParam(required = false) String after,
			@RequestParam(required = false) String before, @RequestParam(defaultValue = "100") int limit, Model model)
			throws IOException {
		RefSearch search = new RefSearch(prefix, glob, after, checkLimit(limit));
		if (before != null && !before.isEmpty()) {
			// Previous: the page that ends just before the given name
			search = new RefSearch(prefix, glob,
					this.refs.pageBefore(name, search.storePrefix(), search.glob(), before, search.limit()),
					search.limit());
		}
		RefPage page = this.refs.page(name, search.storePrefix(), search.glob(), search.after(), search.limit());
		model.addAttribute("repoName", name);
		model.addAttribute("search", search);
		model.addAttribute("page", page);
		model.addAttribute("limits", RefSearch.LIMITS);
		model.addAttribute("rootRefs",
				(search.after().isEmpty() && search.prefix().isEmpty() && search.glob().isEmpty())
						? this.refs.rootRefs(name) : List.of());
		return VIEWS_REPO_DETAILS;
	}

	/**
	 * How many refs the search matches: loaded into the page by htmx, since it reads
	 * every name the search covers.
	 */
	@GetMapping("/repo/count")
	String showRefCount(@RequestParam String name, @RequestParam(required = false) String prefix,
			@RequestParam(required = false) String glob, Model model) throws IOException {
		RefSearch search = new RefSearch(prefix, glob, null, RefSearch.LIMITS[0]);
		model.addAttribute("count", this.refs.count(name, search.storePrefix(), search.glob()));
		model.addAttribute("filtered", !search.prefix().isEmpty() || !search.glob().isEmpty());
		return VIEWS_REF_COUNT;
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
