package io.refstore.web.console.dashboard;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.campaigns.Campaign;
import io.refstore.web.campaigns.CampaignService;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleFormat;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.fleet.FleetQuery;
import io.refstore.web.fleet.FleetRepository;
import io.refstore.web.fleet.FleetService;
import io.refstore.web.jobs.JobService;

/**
 * The dashboard's "Maintain all due": one action that maintains every repository the
 * inventory records as due for maintenance among those the dashboard's filters select. A
 * confirmation page says how many and names the first few; the action starts one campaign
 * of maintenance jobs over them ({@link CampaignService#createListed}), a few at a time,
 * so that 30,000 due repositories never become 30,000 jobs at once. A repository already
 * busy with a job, or whose node is down, is skipped and counted; at most {@value #MOST}
 * repositories (by name) go into one campaign, the rest are left for the next. OPERATOR
 * and ADMIN only: a viewer is neither offered it nor let through (403). Post/Redirect/Get
 * back to the dashboard with a message saying what was launched and skipped; the
 * campaign's creation and every job's launch are audited.
 */
@ConsoleController
class MaintainDueController {

	static final String VIEWS_MAINTAIN_DUE = "repos/maintainDue";

	/** The most repositories one "Maintain all due" puts in its campaign. */
	static final int MOST = 5000;

	/** How many of the campaign's maintenance jobs run at once. */
	static final int CONCURRENCY = 4;

	/** How many names the confirmation shows. */
	static final int NAMED = 10;

	private static final List<JobStatus> LIVE = List.of(JobStatus.STARTING, JobStatus.STARTED, JobStatus.STOPPING);

	private final FleetService fleet;

	private final FleetJobs fleetJobs;

	private final CampaignService campaigns;

	private final JobService jobs;

	private final ConsoleFormat fmt;

	MaintainDueController(FleetService fleet, FleetJobs fleetJobs, CampaignService campaigns, JobService jobs,
			ConsoleFormat fmt) {
		this.fleet = fleet;
		this.fleetJobs = fleetJobs;
		this.campaigns = campaigns;
		this.jobs = jobs;
		this.fmt = fmt;
	}

	@GetMapping("/maintain-due")
	String initMaintainDue(@RequestParam(required = false) String q, @RequestParam(required = false) String storage,
			@RequestParam(required = false) String format,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model) {
		operatorOnly(user);
		FleetQuery due = DashboardController.query(q, storage, format, true);
		String only = this.fleetJobs.onlyStorage();
		long count = this.fleet.count(due);
		model.addAttribute("filter", due);
		model.addAttribute("links", new DashboardLinks(due.due(null), "worst"));
		model.addAttribute("count", count);
		model.addAttribute("most", MOST);
		model.addAttribute("concurrency", CONCURRENCY);
		model.addAttribute("named",
				this.fleet.first(due, NAMED)
					.stream()
					.map((repository) -> DashboardController.name(repository, only))
					.toList());
		return VIEWS_MAINTAIN_DUE;
	}

	@PostMapping("/maintain-due")
	String processMaintainDue(@RequestParam(required = false) String q, @RequestParam(required = false) String storage,
			@RequestParam(required = false) String format,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Authentication actor,
			RedirectAttributes redirect) {
		operatorOnly(user);
		FleetQuery due = DashboardController.query(q, storage, format, true);
		String back = "redirect:" + new DashboardLinks(due.due(null), "worst").page(0);
		String only = this.fleetJobs.onlyStorage();
		Set<String> busy = busy();
		List<String> launch = new ArrayList<>();
		int skippedBusy = 0;
		int skippedDown = 0;
		for (FleetRepository repository : this.fleet.first(due, MOST)) {
			String name = DashboardController.name(repository, only);
			if (busy.contains(name) || busy.contains(repository.name())) {
				skippedBusy++;
			}
			else if (!repository.available()) {
				skippedDown++;
			}
			else {
				launch.add(name);
			}
		}
		String skipped = skipped(skippedBusy, skippedDown);
		if (launch.isEmpty()) {
			redirect.addFlashAttribute("message", "No maintenance launched: no repository matching these filters is"
					+ " due for maintenance" + (skipped.isEmpty() ? "." : " but " + skipped + "."));
			return back;
		}
		Campaign campaign = this.campaigns.createListed(RefJobType.MAINTAIN, description(due), launch, CONCURRENCY,
				actor);
		long left = this.fleet.count(due) - launch.size() - skippedBusy - skippedDown;
		redirect.addFlashAttribute("message",
				"Maintenance launched for " + this.fmt.plural(launch.size(), "repository", "repositories")
						+ " as campaign " + campaign.id() + ", " + CONCURRENCY + " at a time; "
						+ (skipped.isEmpty() ? "none skipped" : skipped + " skipped")
						+ ((left > 0) ? "; " + this.fmt.count(left) + " more due are left for the next run." : "."));
		redirect.addFlashAttribute("campaign", campaign.id());
		return back;
	}

	/** "2 already busy with a job, 1 on a node that is down", or empty. */
	private String skipped(int busy, int down) {
		List<String> parts = new ArrayList<>();
		if (busy > 0) {
			parts.add(this.fmt.count(busy) + " already busy with a job");
		}
		if (down > 0) {
			parts.add(this.fmt.count(down) + " on a node that is down");
		}
		return String.join(", ", parts);
	}

	/** The repositories a running job holds, by the name its launch recorded. */
	private Set<String> busy() {
		Set<String> busy = new HashSet<>();
		for (JobStatus status : LIVE) {
			for (JobSummary job : this.jobs.list(new JobFilter(status, null, null, null, null, null, 0, 1000))) {
				if (job.repository() != null) {
					busy.add(job.repository());
				}
			}
		}
		return busy;
	}

	/** How the campaign's repositories were chosen, for its page and the audit. */
	private static String description(FleetQuery due) {
		StringBuilder out = new StringBuilder("due for maintenance on the dashboard");
		List<String> filters = new ArrayList<>();
		if (due.query() != null) {
			filters.add("name contains \"" + due.query() + "\"");
		}
		if (due.storage() != null) {
			filters.add("storage " + due.storage());
		}
		if (due.format() != null) {
			filters.add("format " + due.format());
		}
		if (!filters.isEmpty()) {
			out.append(" (").append(String.join(", ", filters)).append(')');
		}
		return (out.length() > 1000) ? out.substring(0, 1000) : out.toString();
	}

	private static void operatorOnly(ConsoleUser user) {
		if (!user.operator()) {
			throw new AccessDeniedException("the role " + user.role() + " may not launch maintenance");
		}
	}

}
