package io.refstore.web.jobs;

import java.security.Principal;

import jakarta.servlet.http.HttpServletResponse;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.HttpStatus;
import org.springframework.ui.Model;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleFormat;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.system.InvalidRequestException;

/**
 * The job history: counters per status (counted with the list's filters in one query),
 * the filters (a From later than To is an error on the form, not an empty list), the list
 * with the boxes for acting on several jobs ({@link JobBulkController}), the pager that
 * says where the page is ("51–100 of 11,111"), and the chart; the running view's counters
 * and list are polled by htmx. One execution's live page (its progress part is polled
 * while it runs) lists every step the job runs from the start, with the overall progress.
 * The actions on an execution: stop (after a confirmation page), restart, execute a
 * reviewed deletion plan after the typed confirmation, restore what a deletion removed.
 * Every action redirects to the execution it produced.
 */
@ConsoleController
class JobController {

	static final String VIEWS_JOB_LIST = "jobs/jobList";

	static final String VIEWS_JOB_DETAILS = "jobs/jobDetails";

	static final String VIEWS_JOB_PROGRESS = "jobs/jobDetails :: progress";

	/** The confirmation of an action on jobs: stop one, stop or restart several. */
	static final String VIEWS_CONFIRM = "jobs/confirmJobs";

	static final int PAGE_SIZE = 50;

	/** The statuses the list filters by. */
	private static final List<JobStatus> STATUSES = List.of(JobStatus.STARTED, JobStatus.STARTING, JobStatus.STOPPING,
			JobStatus.STOPPED, JobStatus.FAILED, JobStatus.COMPLETED, JobStatus.ABANDONED);

	/** The counters' statuses, in their order (unknown only when there is one). */
	private static final List<JobStatus> COUNTED = List.of(JobStatus.STARTED, JobStatus.COMPLETED, JobStatus.FAILED,
			JobStatus.STOPPED, JobStatus.STARTING, JobStatus.STOPPING, JobStatus.ABANDONED, JobStatus.UNKNOWN);

	/** The statuses of jobs under way: their list updates itself. */
	private static final Set<JobStatus> LIVE = EnumSet.of(JobStatus.STARTING, JobStatus.STARTED, JobStatus.STOPPING);

	private final JobService jobs;

	private final JobCharts charts;

	JobController(JobService jobs, JobCharts charts) {
		this.jobs = jobs;
		this.charts = charts;
	}

	@GetMapping("/jobs")
	String showJobs(@RequestParam(required = false) String status, @RequestParam(required = false) String type,
			@RequestParam(required = false) String repo, @RequestParam(required = false) String actor,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) LocalDateTime from,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) LocalDateTime to,
			@RequestParam(defaultValue = "0") int offset,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model,
			HttpServletResponse response) {
		RefJobType jobType = blank(type) ? null : JobService.jobType("type", type);
		if (offset < 0) {
			throw new InvalidRequestException("offset", Integer.toString(offset), "it must not be negative");
		}
		JobFilter filter = new JobFilter(JobService.jobStatus(status), jobType,
				blank(repo) ? null : this.jobs.recordedName(repo.strip()), blank(actor) ? null : actor, from, to,
				offset, PAGE_SIZE);
		JobListLinks links = new JobListLinks(filter);
		model.addAttribute("serverZone", ZoneId.systemDefault().getId());
		model.addAttribute("filter", filter);
		model.addAttribute("links", links);
		model.addAttribute("types", RefJobType.values());
		model.addAttribute("statuses", STATUSES);
		model.addAttribute("live", LIVE.contains(filter.status()));
		if (from != null && to != null && from.isAfter(to)) {
			// nothing could match: said on the form, naming both fields
			response.setStatus(HttpStatus.BAD_REQUEST.value());
			model.addAttribute("filterError", "From (" + from.toString().replace('T', ' ') + ") is later than To ("
					+ to.toString().replace('T', ' ') + "): choose a From before the To.");
			model.addAttribute("jobs", List.of());
			model.addAttribute("counters", List.of());
			model.addAttribute("page", new JobPage(0, offset, PAGE_SIZE, 0));
			model.addAttribute("hasMore", false);
			model.addAttribute("chart", this.charts.durations(List.of()));
			model.addAttribute("summaries", Map.of());
			model.addAttribute("progress", Map.of());
			model.addAttribute("stoppable", Set.of());
			model.addAttribute("restartable", Set.of());
			return VIEWS_JOB_LIST;
		}
		Map<JobStatus, Long> counts = this.jobs.countByStatus(filter);
		long total = (filter.status() == null) ? counts.values().stream().mapToLong(Long::longValue).sum()
				: counts.getOrDefault(filter.status(), 0L);
		List<JobSummary> found = this.jobs.list(filter);
		List<JobSummary> shown = found.stream().map(JobRedaction::redacted).toList();
		model.addAttribute("jobs", shown);
		Map<Long, String> summaries = new HashMap<>();
		Map<Long, JobView.Progress> progress = new HashMap<>();
		Set<Long> stoppable = new HashSet<>();
		Set<Long> restartable = new HashSet<>();
		for (JobSummary job : shown) {
			String summary = new JobDescription(job).summary();
			if (summary != null) {
				summaries.put(job.executionId(), summary);
			}
			if (job.running()) {
				progress.put(job.executionId(), JobView.of(job).progress());
				if (user.operator()) {
					stoppable.add(job.executionId());
				}
			}
			else if (job.status().restartable() && user.mayRun(job.type(), job.parameters())
					&& this.jobs.restartedAs(job) == null) {
				restartable.add(job.executionId());
			}
		}
		model.addAttribute("summaries", summaries);
		model.addAttribute("progress", progress);
		model.addAttribute("stoppable", stoppable);
		model.addAttribute("restartable", restartable);
		model.addAttribute("counters", counters(counts, filter, links));
		JobPage page = new JobPage(total, offset, PAGE_SIZE, found.size());
		model.addAttribute("page", page);
		model.addAttribute("chart", this.charts.durations(found));
		model.addAttribute("hasMore", page.hasNext());
		return VIEWS_JOB_LIST;
	}

	/**
	 * A counter per status (all, then running, completed, failed, stopped, then the rarer
	 * ones), each the number of jobs the other filters select in it.
	 */
	private static List<JobCounter> counters(Map<JobStatus, Long> counts, JobFilter filter, JobListLinks links) {
		List<JobCounter> counters = new ArrayList<>();
		counters.add(new JobCounter(null, "All", counts.values().stream().mapToLong(Long::longValue).sum(),
				links.status(null), filter.status() == null));
		for (JobStatus status : COUNTED) {
			long count = counts.getOrDefault(status, 0L);
			if (count > 0 || status != JobStatus.UNKNOWN) {
				counters.add(new JobCounter(status, ConsoleFormat.jobStatusInWords(status.name()), count,
						links.status(status), status == filter.status()));
			}
		}
		return counters;
	}

	/**
	 * The confirmation before a running job is stopped: what stopping does, and the
	 * button (OPERATOR). One that has ended meanwhile goes back to its page, which says
	 * so.
	 */
	@GetMapping("/jobs/{id:\\d+}/stop")
	String initStop(@PathVariable long id, @ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user,
			Model model, RedirectAttributes redirect) {
		if (!user.operator()) {
			throw new AccessDeniedException("the role " + user.role() + " may not stop jobs");
		}
		JobSummary job = find(id);
		if (!job.running()) {
			redirect.addFlashAttribute("problem", "This job is not running any more, so there is nothing to stop.");
			return "redirect:/jobs/" + id;
		}
		model.addAttribute("action", JobBulk.Action.STOP);
		model.addAttribute("items", List.of(JobBulk.preview(JobBulk.Action.STOP, job, null, true)));
		model.addAttribute("allowed", true);
		model.addAttribute("postTo", "/jobs/" + id + "/stop");
		model.addAttribute("cancel", "/jobs/" + id);
		model.addAttribute("back", null);
		return VIEWS_CONFIRM;
	}

	@GetMapping("/jobs/{id:\\d+}")
	String showJob(@PathVariable long id, Model model) {
		addJob(this.jobs.get(id), model);
		return VIEWS_JOB_DETAILS;
	}

	/**
	 * The live part of a job's page, polled by htmx while the job runs. Once it has
	 * ended, htmx is told to reload the whole page, which then shows what only an ended
	 * job has (a plan to review, a restore button).
	 */
	@GetMapping("/jobs/{id:\\d+}/progress")
	String showJobProgress(@PathVariable long id, Model model, HttpServletResponse response) {
		JobSummary job = find(id);
		model.addAttribute("job", job);
		model.addAttribute("description", new JobDescription(job));
		model.addAttribute("overview", StepOverview.of(job, this.jobs.steps(job)));
		if (!job.running()) {
			response.setHeader("HX-Refresh", "true");
		}
		return VIEWS_JOB_PROGRESS;
	}

	/**
	 * Stops a running execution. One that has ended meanwhile is said so on its page.
	 */
	@PostMapping("/jobs/{id:\\d+}/stop")
	String processStop(@PathVariable long id, Principal principal, RedirectAttributes redirect) {
		try {
			this.jobs.stop(id, principal.getName());
		}
		catch (ErrorResponseException ex) {
			if (ex.getStatusCode().value() != HttpStatus.CONFLICT.value()) {
				throw ex;
			}
			redirect.addFlashAttribute("problem", "This job is not running any more, so there is nothing to stop.");
			return "redirect:/jobs/" + id;
		}
		redirect.addFlashAttribute("message", "Stop requested: the job stops after its current chunk.");
		return "redirect:/jobs/" + id;
	}

	/**
	 * Restarts a stopped or failed execution as a new one. One that was restarted
	 * already, or that cannot restart, is said so on its page, with a link to its latest
	 * run.
	 */
	@PostMapping("/jobs/{id:\\d+}/restart")
	String processRestart(@PathVariable long id, Principal principal, RedirectAttributes redirect) {
		JobSummary job = this.jobs.get(id);
		Long later = this.jobs.relations(job).restartedAs();
		if (later != null) {
			redirect.addFlashAttribute("problem",
					"This job was restarted already, as job " + later + ": a job goes on from its latest run.");
			redirect.addFlashAttribute("problemJob", later);
			return "redirect:/jobs/" + id;
		}
		JobSummary restarted;
		try {
			restarted = this.jobs.restart(id, principal.getName());
		}
		catch (JobConflictException ex) {
			return busy(ex, job.repository(), id, redirect);
		}
		catch (ErrorResponseException ex) {
			if (ex.getStatusCode().value() != HttpStatus.CONFLICT.value()) {
				throw ex;
			}
			redirect.addFlashAttribute("problem",
					"This job cannot be restarted: only a stopped or failed job restarts, and this one is "
							+ ConsoleFormat.jobStatusInWords(job.status().name()).toLowerCase(Locale.ROOT) + ".");
			return "redirect:/jobs/" + id;
		}
		redirect.addFlashAttribute("message", "Restarted execution " + id + " as " + restarted.executionId() + ".");
		return "redirect:/jobs/" + restarted.executionId();
	}

	/**
	 * Executes a reviewed plan. A refused confirmation goes back to the plan's page
	 * (Post/Redirect/Get, so the browser never rests on this POST's URL) with the reason
	 * and what was typed.
	 */
	@PostMapping("/jobs/{id:\\d+}/execute")
	String processExecuteDeletion(@PathVariable long id, @RequestParam(defaultValue = "") String confirmRepository,
			@RequestParam(defaultValue = "") String confirmCount, Principal principal, RedirectAttributes redirect) {
		try {
			JobSummary executed = this.jobs.executeDeletion(id, confirmRepository, confirmCount, principal.getName());
			redirect.addFlashAttribute("message", "Deleting the planned refs.");
			return "redirect:/jobs/" + executed.executionId();
		}
		catch (JobConflictException ex) {
			return busy(ex, confirmRepository.strip(), id, redirect);
		}
		catch (InvalidRequestException ex) {
			redirect.addFlashAttribute("confirmError", sentence(ex.reason()));
			redirect.addFlashAttribute("confirmRepository", confirmRepository);
			redirect.addFlashAttribute("confirmCount", confirmCount);
			return "redirect:/jobs/" + id + "#confirm-deletion";
		}
	}

	/**
	 * Restores what an executed deletion removed. A refused confirmation goes back to the
	 * deletion's page, as for {@link #processExecuteDeletion}.
	 */
	@PostMapping("/jobs/{id:\\d+}/restore")
	String processRestore(@PathVariable long id, @RequestParam(defaultValue = "") String confirmRepository,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Principal principal,
			RedirectAttributes redirect) {
		if (!user.mayRun(RefJobType.RESTORE, Map.of())) {
			throw new AccessDeniedException("the role " + user.role() + " may not restore refs");
		}
		JobSummary deletion = this.jobs.get(id);
		if (!confirmRepository.strip().equals(deletion.repository())) {
			redirect.addFlashAttribute("restoreError",
					"Type the repository's name exactly to confirm the restore: " + deletion.repository());
			redirect.addFlashAttribute("restoreRepository", confirmRepository);
			return "redirect:/jobs/" + id + "#confirm-restore";
		}
		JobSummary restore;
		try {
			restore = this.jobs.restoreDeletion(id, principal.getName());
		}
		catch (JobConflictException ex) {
			return busy(ex, deletion.repository(), id, redirect);
		}
		redirect.addFlashAttribute("message", "Restoring the refs job " + id + " deleted.");
		return "redirect:/jobs/" + restore.executionId();
	}

	/**
	 * Back to job {@code id}'s page, saying which job is changing the repository, with a
	 * link to it.
	 */
	private String busy(JobConflictException ex, String repository, long id, RedirectAttributes redirect) {
		BusyRepository busy = BusyRepository.of(ex, repository, this.jobs);
		redirect.addFlashAttribute("problem", busy.sentence());
		redirect.addFlashAttribute("problemJob", busy.runningJob());
		return "redirect:/jobs/" + id;
	}

	/** A refusal's reason as a sentence: {@code Type the number…: 18,373.} */
	private static String sentence(String reason) {
		String capitalized = Character.toUpperCase(reason.charAt(0)) + reason.substring(1);
		return capitalized.endsWith(".") ? capitalized : capitalized + ".";
	}

	/**
	 * The page's model for {@code job} as the batch module keeps it: the job as anyone
	 * may see it, in words, and its relations to the repository's other jobs (found by
	 * the paths the redacted job no longer shows).
	 */
	private void addJob(JobSummary job, Model model) {
		JobSummary shown = JobRedaction.redacted(job);
		model.addAttribute("job", shown);
		model.addAttribute("description", new JobDescription(shown));
		model.addAttribute("overview", StepOverview.of(shown, this.jobs.steps(job)));
		model.addAttribute("relations", this.jobs.relations(job));
		model.addAttribute("backup", JobRelations.backup(job));
	}

	private JobSummary find(long id) {
		return JobRedaction.redacted(this.jobs.get(id));
	}

	private static boolean blank(String value) {
		return value == null || value.isBlank();
	}

}
