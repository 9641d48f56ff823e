package io.refstore.web.fleet;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.web.console.ConsoleController;

/**
 * The fleet dashboard: every node, up or down, with its storages, and the repositories of
 * all of them, filtered and paged; the same page on every node. Repositories are named as
 * everywhere else: by their paths where the fleet has one storage, else qualified by it.
 */
@ConsoleController
class FleetController {

	static final String VIEWS_FLEET = "fleet/fleet";

	static final int PAGE_SIZE = 100;

	private final FleetService fleet;

	private final FleetJobs jobs;

	FleetController(FleetService fleet, FleetJobs jobs) {
		this.fleet = fleet;
		this.jobs = jobs;
	}

	@GetMapping("/fleet")
	String showFleet(@RequestParam(required = false) String node, @RequestParam(required = false) String storage,
			@RequestParam(required = false) String format, @RequestParam(required = false) Boolean due,
			@RequestParam(required = false) String q, @RequestParam(required = false) String after, Model model) {
		FleetFilter filter = new FleetFilter(blank(node), blank(storage), blank(format), due, blank(q), blank(after),
				PAGE_SIZE);
		model.addAttribute("nodes", this.fleet.nodes());
		model.addAttribute("here", this.fleet.node());
		model.addAttribute("filter", filter);
		model.addAttribute("page", this.fleet.repositories(filter));
		// one storage in the fleet: repositories by their paths, as the dashboard names
		// them
		model.addAttribute("shortNames", this.jobs.onlyStorage() != null);
		return VIEWS_FLEET;
	}

	private static String blank(String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

}
