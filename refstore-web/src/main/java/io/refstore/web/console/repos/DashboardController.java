package io.refstore.web.console.repos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The console's home: every repository with its format, ref counts per namespace, what its store holds on
 * disk and whether maintenance is due, sortable, worst first by default.
 */
@Controller
class DashboardController {

	static final String VIEWS_REPO_LIST = "repos/repoList";

	private final RepoOverview overview;

	DashboardController(RepoOverview overview) {
		this.overview = overview;
	}

	@GetMapping("/")
	String showDashboard(@RequestParam(defaultValue = "worst") String sort, Model model) throws IOException {
		DashboardSort order = DashboardSort.parse(sort);
		List<RepoHealth> repos = new ArrayList<>(this.overview.all());
		repos.sort(order.order());
		model.addAttribute("repos", repos);
		model.addAttribute("sort", order.parameter());
		model.addAttribute("dueCount", repos.stream().filter((repo) -> repo.statistics().maintenanceDue()).count());
		return VIEWS_REPO_LIST;
	}

}
