package io.refstore.web.jobs;

import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.batch.api.JobSummary;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.system.InvalidRequestException;

/**
 * Stop or restart the jobs selected in the job history: the list's form asks for the
 * confirmation, which lists each job and what the action does to it (or why it leaves it
 * alone), and offers the action only to a role that may do it to every selected job
 * (OPERATOR stops; a restart needs the role the job's type needs, as on the job's page).
 * The confirmed POST acts on each job in turn and comes back to the list (Post, Redirect,
 * Get) saying per job what happened. A POST the role may not make for every job is
 * refused as a whole (403), before anything changed; each stop and restart is audited as
 * the job page's are.
 */
@ConsoleController
class JobBulkController {

	/** The most jobs one action takes: two pages of the list. */
	static final int MOST = 2 * JobController.PAGE_SIZE;

	private final JobService jobs;

	private final JobBulk bulk;

	JobBulkController(JobService jobs, JobBulk bulk) {
		this.jobs = jobs;
		this.bulk = bulk;
	}

	@GetMapping("/jobs/bulk")
	String initBulk(@RequestParam(defaultValue = "") String action,
			@RequestParam(name = "id", required = false) List<Long> ids, @RequestParam(required = false) String back,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model,
			RedirectAttributes redirect) {
		JobBulk.Action chosen = JobBulk.Action.of(action);
		checkOperator(user, chosen);
		Map<Long, Optional<JobSummary>> selected = selected(ids);
		if (selected.isEmpty()) {
			redirect.addFlashAttribute("problem",
					"Select at least one job to " + chosen.path() + ", with the boxes in the list's first column.");
			return "redirect:" + JobListLinks.of(back);
		}
		boolean allowed = allowed(chosen, user, selected);
		List<JobBulk.Item> items = new ArrayList<>();
		selected.forEach((id, found) -> items.add(found.map((job) -> {
			Long restartedAs = (chosen == JobBulk.Action.RESTART && job.status().restartable())
					? this.jobs.restartedAs(job) : null;
			return JobBulk.preview(chosen, JobRedaction.redacted(job), restartedAs,
					chosen == JobBulk.Action.STOP || user.mayRun(job.type(), job.parameters()));
		}).orElseGet(() -> JobBulk.missing(id))));
		model.addAttribute("action", chosen);
		model.addAttribute("items", items);
		model.addAttribute("allowed", allowed);
		model.addAttribute("postTo", "/jobs/bulk/" + chosen.path());
		model.addAttribute("cancel", JobListLinks.of(back));
		model.addAttribute("back", back);
		return JobController.VIEWS_CONFIRM;
	}

	@PostMapping("/jobs/bulk/stop")
	String processStop(@RequestParam(name = "id", required = false) List<Long> ids,
			@RequestParam(required = false) String back,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Principal principal,
			RedirectAttributes redirect) {
		return act(JobBulk.Action.STOP, ids, back, user, principal, redirect);
	}

	@PostMapping("/jobs/bulk/restart")
	String processRestart(@RequestParam(name = "id", required = false) List<Long> ids,
			@RequestParam(required = false) String back,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Principal principal,
			RedirectAttributes redirect) {
		return act(JobBulk.Action.RESTART, ids, back, user, principal, redirect);
	}

	/**
	 * Acts on every selected job, once the role may act on all of them, and says per job
	 * what happened.
	 */
	private String act(JobBulk.Action action, List<Long> ids, String back, ConsoleUser user, Principal principal,
			RedirectAttributes redirect) {
		checkOperator(user, action);
		Map<Long, Optional<JobSummary>> selected = selected(ids);
		if (!allowed(action, user, selected)) {
			throw new AccessDeniedException("the role " + user.role() + " may not restart every selected job");
		}
		List<JobBulk.Item> outcomes = new ArrayList<>();
		selected.forEach((id, found) -> outcomes.add(
				found
					.map((job) -> (action == JobBulk.Action.STOP) ? this.bulk.stop(job, principal.getName())
							: this.bulk.restart(job, principal.getName()))
					.orElseGet(() -> JobBulk.missing(id))));
		long done = outcomes.stream().filter(JobBulk.Item::acts).count();
		String summary = ((action == JobBulk.Action.STOP)
				? "Asked " + done + " of " + outcomes.size() + " selected jobs to stop."
				: "Restarted " + done + " of " + outcomes.size() + " selected jobs.");
		if (outcomes.isEmpty()) {
			redirect.addFlashAttribute("problem", "No job was selected, so nothing changed.");
		}
		else if (done == outcomes.size()) {
			redirect.addFlashAttribute("message", summary);
		}
		else {
			redirect.addFlashAttribute("problem", summary + " The others were left alone, as said below.");
		}
		redirect.addFlashAttribute("outcomes", outcomes);
		return "redirect:" + JobListLinks.of(back);
	}

	/** Stopping and restarting need OPERATOR at least; a viewer is offered neither. */
	private static void checkOperator(ConsoleUser user, JobBulk.Action action) {
		if (!user.operator()) {
			throw new AccessDeniedException("the role " + user.role() + " may not " + action.path() + " jobs");
		}
	}

	/**
	 * Whether the role may do {@code action} to every selected job: any OPERATOR stops; a
	 * restart needs the role each job's type needs, as its launch did.
	 */
	private static boolean allowed(JobBulk.Action action, ConsoleUser user, Map<Long, Optional<JobSummary>> selected) {
		return action == JobBulk.Action.STOP || selected.values()
			.stream()
			.flatMap(Optional::stream)
			.allMatch((job) -> user.mayRun(job.type(), job.parameters()));
	}

	/** The selected jobs by id, in the order given, once each; empty for gone ones. */
	private Map<Long, Optional<JobSummary>> selected(List<Long> ids) {
		List<Long> given = (ids == null) ? List.of() : ids.stream().filter((id) -> id != null).distinct().toList();
		if (given.size() > MOST) {
			throw new InvalidRequestException("id", given.size() + " jobs",
					"select at most " + MOST + " jobs at a time");
		}
		Map<Long, Optional<JobSummary>> selected = new LinkedHashMap<>();
		given.forEach((id) -> selected.put(id, this.jobs.find(id)));
		return selected;
	}

}
