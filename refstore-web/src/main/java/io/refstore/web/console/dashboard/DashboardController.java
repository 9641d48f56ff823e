package io.refstore.web.console.dashboard;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.fleet.FleetMembership;
import io.refstore.web.fleet.FleetPage;
import io.refstore.web.fleet.FleetQuery;
import io.refstore.web.fleet.FleetRepository;
import io.refstore.web.fleet.FleetService;
import io.refstore.web.inventory.InventoryService;
import io.refstore.web.jobs.JobPage;
import io.refstore.web.jobs.JobService;
import io.refstore.web.repos.RepoService;
import io.refstore.web.repos.RepoSummary;
import io.refstore.web.system.InvalidRequestException;

/**
 * The console's home: the repositories of the fleet (this node's alone when it is alone),
 * read a page at a time from the inventory the nodes keep
 * ({@code refstore_fleet_repository}), so that it answers as fast for 100,000
 * repositories as for 10. A search by name (as one types, through htmx, or the form's
 * GET), filters by format, maintenance and storage (when the fleet has several), four
 * orders (worst first by default) and a pager that says where the page is. Only the
 * page's rows are read further: this node's stores for their counts per namespace and why
 * maintenance is due, the job history for their last maintenance, the inventory history
 * for their growth per week (flagged when faster than
 * {@code refstore.inventory.growth-alert-per-week}). It says how many directories under
 * the roots the last inventory's walk skipped, and why; an OPERATOR is offered "Maintain
 * all due" ({@link MaintainDueController}).
 */
@ConsoleController
class DashboardController {

	static final String VIEWS_REPO_LIST = "repos/repoList";

	static final String VIEWS_REPO_RESULTS = "repos/repoList :: results";

	static final int PAGE_SIZE = 50;

	private final FleetService fleet;

	private final FleetJobs fleetJobs;

	private final FleetMembership membership;

	private final RepoService repos;

	private final JobService jobs;

	private final InventoryService inventory;

	DashboardController(FleetService fleet, FleetJobs fleetJobs, FleetMembership membership, RepoService repos,
			JobService jobs, InventoryService inventory) {
		this.fleet = fleet;
		this.fleetJobs = fleetJobs;
		this.membership = membership;
		this.repos = repos;
		this.jobs = jobs;
		this.inventory = inventory;
	}

	/**
	 * The page; to htmx's search (its target is {@code dashboard-results}) the results
	 * only.
	 */
	@GetMapping("/")
	String showDashboard(@RequestParam(defaultValue = "worst") String sort, @RequestParam(required = false) String q,
			@RequestParam(required = false) String storage, @RequestParam(required = false) String format,
			@RequestParam(required = false) Boolean due, @RequestParam(defaultValue = "0") long offset,
			@RequestHeader(name = "HX-Target", required = false) String hxTarget,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model,
			HttpServletResponse response) {
		DashboardSort order = DashboardSort.parse(sort);
		if (offset < 0) {
			throw new InvalidRequestException("offset", Long.toString(offset), "it must not be negative");
		}
		FleetQuery query = query(q, storage, format, due).page(order.order(), offset, PAGE_SIZE);
		FleetPage found = this.fleet.page(query);
		String only = this.fleetJobs.onlyStorage();
		List<DashboardRow> rows = new ArrayList<>();
		for (FleetRepository repository : found.repositories()) {
			rows.add(new DashboardRow(name(repository, only), repository, live(repository)));
		}
		List<String> names = rows.stream().map(DashboardRow::name).toList();
		response.addHeader(HttpHeaders.VARY, "HX-Target");
		model.addAttribute("rows", rows);
		model.addAttribute("filter", query);
		model.addAttribute("sort", order.parameter());
		model.addAttribute("links", new DashboardLinks(query, order.parameter()));
		model.addAttribute("page", new JobPage(found.total(), offset, PAGE_SIZE, rows.size()));
		// what "Maintain all due" would maintain: counted for a role offered it only
		model.addAttribute("dueMatching",
				(!user.operator() || Boolean.FALSE.equals(due)) ? 0L : this.fleet.count(query.due(true)));
		model.addAttribute("lastMaintenance", this.jobs.lastCompleted(RefJobType.MAINTAIN, names));
		model.addAttribute("growth", this.inventory.growth(names));
		model.addAttribute("growthAlert", this.inventory.alertPerWeek());
		if ("dashboard-results".equals(hxTarget)) {
			return VIEWS_REPO_RESULTS;
		}
		FleetQuery all = new FleetQuery(null, null, null, null, FleetQuery.Order.NAME, 0, 1);
		model.addAttribute("total", this.fleet.count(all));
		model.addAttribute("dueCount", this.fleet.count(all.due(true)));
		model.addAttribute("storages", this.fleet.storageNames());
		model.addAttribute("walked", this.membership.walked().orElse(null));
		return VIEWS_REPO_LIST;
	}

	/**
	 * The selection the dashboard's filters make; blank ones are left out.
	 * @throws InvalidRequestException (400) naming {@code format} if it is neither
	 * {@code files} nor {@code reftable}
	 */
	static FleetQuery query(String q, String storage, String format, Boolean due) {
		String kind = blank(format);
		if (kind != null && !List.of("files", "reftable").contains(kind)) {
			throw new InvalidRequestException("format", kind, "it must be files or reftable");
		}
		return new FleetQuery(blank(q), blank(storage), kind, due, FleetQuery.Order.NAME, 0, PAGE_SIZE);
	}

	/**
	 * The one name of a repository, as the Fleet page and the job history name it: its
	 * path while the fleet has one storage ({@code only}), else {@code storage/path}.
	 */
	static String name(FleetRepository repository, String only) {
		return repository.storage().equals(only) ? repository.path() : repository.name();
	}

	/** What a repository of this node holds now; {@code null} for another node's. */
	private RepoSummary live(FleetRepository repository) {
		if (!this.fleet.holdsHere(repository.storage())) {
			return null;
		}
		try {
			return this.repos.summaryOf(repository.name());
		}
		catch (IOException | RuntimeException ex) {
			// removed or unreadable since the inventory: shown as recorded
			return null;
		}
	}

	private static String blank(String value) {
		return (value == null || value.isBlank()) ? null : value.strip();
	}

}
