package io.refstore.web.console.dashboard;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.inventory.InventoryService;
import io.refstore.web.jobs.JobService;
import io.refstore.web.repos.RepoHealth;
import io.refstore.web.repos.RepoOverview;

/**
 * The console's home: every repository with its format, ref counts per namespace, what
 * its store holds on disk, whether maintenance is due and when it last completed (from
 * the job history), its refs' growth per week from the inventory history (flagged when
 * faster than {@code refstore.inventory.growth-alert-per-week}), sortable, worst first by
 * default; and how many directories under the roots the walk skipped, and why.
 */
@ConsoleController
class DashboardController {

	static final String VIEWS_REPO_LIST = "repos/repoList";

	private final RepoOverview overview;

	private final JobService jobs;

	private final InventoryService inventory;

	DashboardController(RepoOverview overview, JobService jobs, InventoryService inventory) {
		this.overview = overview;
		this.jobs = jobs;
		this.inventory = inventory;
	}

	@GetMapping("/")
	String showDashboard(@RequestParam(defaultValue = "worst") String sort, Model model) throws IOException {
		DashboardSort order = DashboardSort.parse(sort);
		RepoOverview.Dashboard dashboard = this.overview.dashboard();
		List<RepoHealth> repos = new ArrayList<>(dashboard.repos());
		repos.sort(order.order());
		model.addAttribute("repos", repos);
		model.addAttribute("discovered", dashboard.discovered());
		model.addAttribute("sort", order.parameter());
		model.addAttribute("lastMaintenance",
				this.jobs.lastCompleted(RefJobType.MAINTAIN, repos.stream().map(RepoHealth::name).toList()));
		model.addAttribute("growth", this.inventory.growth(repos.stream().map(RepoHealth::name).toList()));
		model.addAttribute("growthAlert", this.inventory.alertPerWeek());
		model.addAttribute("dueCount", repos.stream().filter((repo) -> repo.statistics().maintenanceDue()).count());
		return VIEWS_REPO_LIST;
	}

}
