package io.refstore.web.jobs;

import java.security.Principal;

import jakarta.servlet.http.HttpServletResponse;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 * The job history with its filters and chart, one execution's live page (its progress
 * part is polled by htmx while it runs), and the actions on an execution: stop, restart,
 * execute a reviewed deletion plan after the typed confirmation, restore what a deletion
 * removed. Every action redirects to the execution it produced.
 */
@ConsoleController
class JobController {

	static final String VIEWS_JOB_LIST = "jobs/jobList";

	static final String VIEWS_JOB_DETAILS = "jobs/jobDetails";

	static final String VIEWS_JOB_PROGRESS = "jobs/jobDetails :: progress";

	static final int PAGE_SIZE = 50;

	/** The statuses the list filters by. */
	private static final List<JobStatus> STATUSES = List.of(JobStatus.STARTING, JobStatus.STARTED, JobStatus.STOPPING,
			JobStatus.STOPPED, JobStatus.FAILED, JobStatus.COMPLETED, JobStatus.ABANDONED);

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
			@RequestParam(defaultValue = "0") int offset, Model model) {
		RefJobType jobType = blank(type) ? null : JobService.jobType("type", type);
		if (offset < 0) {
			throw new InvalidRequestException("offset", Integer.toString(offset), "it must not be negative");
		}
		JobFilter filter = new JobFilter(JobService.jobStatus(status), jobType, blank(repo) ? null : repo,
				blank(actor) ? null : actor, from, to, offset, PAGE_SIZE);
		List<JobSummary> found = this.jobs.list(filter);
		model.addAttribute("jobs", found);
		Map<Long, String> summaries = new HashMap<>();
		for (JobSummary job : found) {
			String summary = new JobDescription(JobRedaction.redacted(job)).summary();
			if (summary != null) {
				summaries.put(job.executionId(), summary);
			}
		}
		model.addAttribute("summaries", summaries);
		model.addAttribute("serverZone", ZoneId.systemDefault().getId());
		model.addAttribute("filter", filter);
		model.addAttribute("types", RefJobType.values());
		model.addAttribute("statuses", STATUSES);
		model.addAttribute("chart", this.charts.durations(found));
		model.addAttribute("hasMore", found.size() == PAGE_SIZE);
		return VIEWS_JOB_LIST;
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
							+ ConsoleFormat.inWords(job.status().name()).toLowerCase(Locale.ROOT) + ".");
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
