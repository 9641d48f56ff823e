package io.refstore.web.schedules;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.system.InvalidRequestException;

/**
 * The console's schedules: the list (when each fires in words, its next fire, its last
 * run's outcome and duration, overruns, pause/resume and run now), the create/edit form
 * with a live preview of the next fires and the job's parameters as typed fields (those
 * of the job type chosen, swapped by htmx as it changes: {@link ScheduleParameters}), and
 * deletion after a confirmation page. Every refused field is shown at once, beside the
 * field and in a summary above the form, in words ({@code Refs per chunk must be a whole
 * number from 1 to 100,000}); success redirects to the list with a message. The form to
 * create one is refused to a role that may not (a viewer), and it offers only the jobs
 * the role may schedule; a schedule whose job the role may not run opens read-only.
 */
@ConsoleController
class ScheduleController {

	static final String VIEWS_SCHEDULE_LIST = "schedules/scheduleList";

	static final String VIEWS_SCHEDULE_FORM = "schedules/createOrUpdateScheduleForm";

	static final String VIEWS_DELETE_SCHEDULE = "schedules/deleteSchedule";

	/** The form's own fields, by the request's field name, with their labels. */
	private static final Map<String, String> FIELDS = Map.of("name", "Name", "jobType", "Job", "targetKind",
			"Repositories", "target", "Repository, glob or number of loose refs", "cron", "When", "onceAt",
			"Or once, at", "timeZone", "Time zone", "misfire", "Fires missed while the server was down", "paused",
			"Paused");

	static final String VIEWS_CRON_PREVIEW = "schedules/cronPreview :: preview";

	/** How many fire times the form's preview shows. */
	static final int PREVIEWED_FIRES = 5;

	/** How many of a fire's runs the message of a "Run now" lists. */
	static final int LISTED_RUNS = 10;

	private final ScheduleService schedules;

	private final CronWords words;

	private final ScheduleTargets targets;

	ScheduleController(ScheduleService schedules, CronWords words, ScheduleTargets targets) {
		this.schedules = schedules;
		this.words = words;
		this.targets = targets;
	}

	@GetMapping("/schedules")
	String showScheduleList(Model model) {
		model.addAttribute("schedules", this.schedules.list());
		model.addAttribute("lastRuns", this.schedules.lastRuns());
		return VIEWS_SCHEDULE_LIST;
	}

	@GetMapping("/schedules/new")
	String initCreationForm(@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model) {
		if (!user.operator()) {
			throw new AccessDeniedException("the role " + user.role() + " may not create schedules");
		}
		ScheduleForm form = new ScheduleForm();
		TypedParameters.show(form);
		model.addAttribute("form", form);
		return showForm(form, false, model);
	}

	@PostMapping("/schedules/new")
	String processCreationForm(@ModelAttribute("form") ScheduleForm form, BindingResult result,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model, Authentication actor,
			RedirectAttributes redirect) {
		if (!user.operator()) {
			// refused before the fields are judged: a role that may not create sees no
			// form
			throw new AccessDeniedException("the role " + user.role() + " may not create schedules");
		}
		if (refused(form, false, result)) {
			return showForm(form, false, model);
		}
		try {
			this.schedules.create(form.toRequest(), actor);
		}
		catch (InvalidRequestException | ScheduleConflictException ex) {
			reject(result, ex);
			return showForm(form, false, model);
		}
		redirect.addFlashAttribute("message", "Schedule " + form.getName() + " created.");
		return "redirect:/schedules";
	}

	@GetMapping("/schedules/{name}/edit")
	String initUpdateForm(@PathVariable String name, Model model) {
		Schedule schedule = this.schedules.find(name).orElseThrow(() -> new ScheduleNotFoundException(name));
		model.addAttribute("schedule", schedule);
		ScheduleForm form = ScheduleForm.of(schedule);
		model.addAttribute("form", form);
		model.addAttribute("runs", this.schedules.runs(name, 20));
		return showForm(form, true, model);
	}

	@PostMapping("/schedules/{name}/edit")
	String processUpdateForm(@PathVariable String name, @ModelAttribute("form") ScheduleForm form, BindingResult result,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model, Authentication actor,
			RedirectAttributes redirect) {
		Schedule old = this.schedules.find(name).orElseThrow(() -> new ScheduleNotFoundException(name));
		if (!user.mayRun(old.jobType(), old.parameters())) {
			// refused before the fields are judged, as the service refuses the change
			throw new AccessDeniedException("the role " + user.role() + " may not change the schedule " + name);
		}
		form.setName(name);
		boolean mistyped = refused(form, true, result);
		try {
			if (!mistyped) {
				this.schedules.replace(name, form.toRequest(), actor);
			}
		}
		catch (InvalidRequestException ex) {
			reject(result, ex);
			mistyped = true;
		}
		if (mistyped) {
			model.addAttribute("schedule",
					this.schedules.find(name).orElseThrow(() -> new ScheduleNotFoundException(name)));
			model.addAttribute("runs", this.schedules.runs(name, 20));
			return showForm(form, true, model);
		}
		redirect.addFlashAttribute("message", "Schedule " + name + " saved.");
		return "redirect:/schedules";
	}

	/**
	 * The form with the preview of when it fires, and the summary of its refused fields
	 * (none on a form not sent yet).
	 */
	private String showForm(ScheduleForm form, boolean editing, Model model) {
		model.addAttribute("editing", editing);
		model.addAttribute("jobTypes", jobTypes((ConsoleUser) model.getAttribute("consoleUser"),
				(editing && model.getAttribute("schedule") instanceof Schedule schedule) ? schedule.jobType() : null));
		model.addAttribute("preview", preview(form.getCron(), form.getTimeZone(), form.getOnceAt()));
		model.addAttribute("errorSummary", TypedParameters.summary(model, FIELDS));
		return VIEWS_SCHEDULE_FORM;
	}

	/**
	 * The jobs the form offers: those a schedule of {@code user} may run (a deletion if
	 * it may plan one; a journal retention, a migration, a restore or a rollback for an
	 * ADMIN only), as campaigns offer them; and the job of the schedule shown, which a
	 * role that may not run it sees read-only.
	 * @param shown the job of the schedule being edited, or {@code null}
	 */
	static List<RefJobType> jobTypes(ConsoleUser user, RefJobType shown) {
		return RefJobType.schedulableTypes()
			.stream()
			.filter((type) -> type == shown
					|| (user != null && user.mayRun(type, Map.of(JobParameterNames.PLAN_ONLY, "true"))))
			.toList();
	}

	/**
	 * The typed fields of the job type chosen, asked by htmx as the job changes: the
	 * values typed so far kept, a new schedule's defaults for the rest.
	 */
	@GetMapping("/schedules/parameters")
	String showParameters(@ModelAttribute("form") ScheduleForm form, BindingResult result) {
		return TypedParameters.show(form);
	}

	/**
	 * Checks every field of the form as saving would, each refusal marked on its field in
	 * words, all at once: the name (a new one), the job, the repositories, when it fires
	 * and each of the job's parameters. A form whose job changed since its parameters
	 * were shown (without htmx) shows the new job's fields to fill instead of saving.
	 * @return whether anything was refused (a value of the wrong kind included)
	 */
	private boolean refused(ScheduleForm form, boolean editing, BindingResult result) {
		if (!editing) {
			try {
				ScheduleService.checkName(form.getName());
				if (this.schedules.find(form.getName()).isPresent()) {
					result.rejectValue("name", "taken",
							"Name: a schedule named " + form.getName() + " exists; choose another name");
				}
			}
			catch (InvalidRequestException ex) {
				reject(result, ex);
			}
		}
		RefJobType type = form.type();
		if (type == null || !type.schedulable()) {
			reject(result, new InvalidRequestException("jobType", form.getJobType(),
					"choose one of the jobs listed; a point-in-time restore is never scheduled"));
		}
		try {
			Schedule.TargetKind kind = Schedule.TargetKind
				.valueOf((form.getTargetKind() == null) ? "" : form.getTargetKind());
			this.targets.check(kind, form.getTarget());
		}
		catch (IllegalArgumentException ex) {
			if (ex instanceof InvalidRequestException invalid) {
				reject(result, invalid);
			}
			else {
				reject(result, new InvalidRequestException("targetKind", form.getTargetKind(),
						"choose one repository, a glob or a loose-ref threshold"));
			}
		}
		checkWhen(form, result);
		TypedParameters.check(form, result, "save");
		return result.hasErrors();
	}

	/**
	 * When the schedule fires: the one-off time, the time zone and the cron expression,
	 * each refused on its own field.
	 */
	private void checkWhen(ScheduleForm form, BindingResult result) {
		Instant once;
		try {
			once = form.toRequest().onceAt();
		}
		catch (InvalidRequestException ex) {
			reject(result, ex);
			// the cron is still judged, as if no one-off were given
			once = null;
		}
		String zone = form.getTimeZone();
		for (int i = 0; i < 2; i++) {
			try {
				this.schedules.nextFires(form.getCron(), zone, once, 1);
				return;
			}
			catch (InvalidRequestException ex) {
				if (!(once == null && result.hasFieldErrors("onceAt") && "cron".equals(ex.parameter())
						&& (form.getCron() == null || form.getCron().isBlank()))) {
					reject(result, ex);
				}
				if (!"timeZone".equals(ex.parameter())) {
					return;
				}
				// the cron is judged in UTC, to say what is wrong with it too
				zone = "UTC";
			}
		}
	}

	/**
	 * The form's preview of when a schedule fires, asked as the operator types (htmx):
	 * the cron expression in words and the next fire times, or what is wrong with the
	 * expression, the one-off time or the time zone, as saving would say it.
	 */
	@GetMapping("/schedules/preview")
	String showPreview(@RequestParam(defaultValue = "") String cron, @RequestParam(defaultValue = "") String timeZone,
			@RequestParam(defaultValue = "") String onceAt, Model model) {
		model.addAttribute("preview", preview(cron, timeZone, onceAt));
		return VIEWS_CRON_PREVIEW;
	}

	private CronPreview preview(String cron, String timeZone, String onceAt) {
		ScheduleForm when = new ScheduleForm();
		when.setCron(cron);
		when.setTimeZone(timeZone);
		when.setOnceAt(onceAt);
		try {
			ScheduleRequest request = when.toRequest();
			List<Instant> next = this.schedules.nextFires(request.cron(), request.timeZone(), request.onceAt(),
					PREVIEWED_FIRES);
			String zone = (request.timeZone() == null || request.timeZone().isBlank()) ? "UTC"
					: request.timeZone().strip();
			String inWords = (request.cron() != null) ? this.words.words(request.cron(), zone)
					: this.words.once(request.onceAt());
			return new CronPreview(inWords, next, null);
		}
		catch (InvalidRequestException ex) {
			return new CronPreview(null, List.of(), ex.parameter() + ": " + ex.reason());
		}
	}

	/**
	 * When a schedule would fire.
	 *
	 * @param words its cron expression or one-off time in words, or {@code null} when
	 * there are none (a form the words do not read, or an error)
	 * @param nextFires its next fire times
	 * @param error what is wrong, naming the field ({@code cron: ...}), or {@code null}
	 */
	public record CronPreview(String words, List<Instant> nextFires, String error) {
	}

	/**
	 * Fires the schedule once, now, as its cron would (the roles that may change it may),
	 * and says on the list what the fire did on each repository, linking the jobs it
	 * launched.
	 */
	@PostMapping("/schedules/{name}/run")
	String processRunNow(@PathVariable String name, Authentication actor, RedirectAttributes redirect) {
		ScheduleFire fire = this.schedules.runNow(name, actor);
		redirect.addFlashAttribute("ranNow",
				new RanNow(name, fire.summary(),
						fire.runs().stream().limit(LISTED_RUNS).map(ScheduleController::ranNow).toList(),
						Math.max(0, fire.runs().size() - LISTED_RUNS)));
		return "redirect:/schedules";
	}

	private static RunLine ranNow(ScheduleRun run) {
		String detail = (run.detail() != null) ? ": " + run.detail() : "";
		String words = switch (run.outcome()) {
			case LAUNCHED -> (run.executionId() != null) ? "launched" : "being launched";
			case QUEUED -> "queued: it waits for its turn on its server";
			case OVERRUN -> "not launched, the run of an earlier fire still goes" + detail;
			case BUSY -> "not launched, the repository is busy" + detail;
			case FAILED -> "failed" + detail;
			case NO_MATCH -> "no repository matches its selection: nothing launched";
		};
		return new RunLine(run.repository(), run.executionId(), words);
	}

	/**
	 * What a "Run now" did, for the message on the list.
	 *
	 * @param schedule the schedule's name
	 * @param summary how many runs ended each way ({@code 1 launched})
	 * @param runs the first {@value #LISTED_RUNS} runs
	 * @param more how many runs more the fire had (its schedule's page lists them)
	 */
	public record RanNow(String schedule, String summary, List<RunLine> runs, int more) {
	}

	/**
	 * One run of a "Run now".
	 *
	 * @param repository the repository, or {@code null}
	 * @param executionId the job launched (or the earlier one still going), or
	 * {@code null}
	 * @param words what happened
	 */
	public record RunLine(String repository, Long executionId, String words) {
	}

	@PostMapping("/schedules/{name}/pause")
	String processPause(@PathVariable String name, Authentication actor, RedirectAttributes redirect) {
		this.schedules.setPaused(name, true, actor);
		redirect.addFlashAttribute("message", "Schedule " + name + " paused.");
		return "redirect:/schedules";
	}

	@PostMapping("/schedules/{name}/resume")
	String processResume(@PathVariable String name, Authentication actor, RedirectAttributes redirect) {
		this.schedules.setPaused(name, false, actor);
		redirect.addFlashAttribute("message", "Schedule " + name + " resumed.");
		return "redirect:/schedules";
	}

	/**
	 * The confirmation before a schedule is deleted: what it runs, and that its trigger
	 * and run history go. A role that may not delete it (an OPERATOR, for a schedule of
	 * an administrator's job) sees why instead of the button.
	 */
	@GetMapping("/schedules/{name}/delete")
	String initDeleteForm(@PathVariable String name,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model) {
		if (!user.operator()) {
			throw new AccessDeniedException("the role " + user.role() + " may not delete schedules");
		}
		model.addAttribute("schedule",
				this.schedules.find(name).orElseThrow(() -> new ScheduleNotFoundException(name)));
		return VIEWS_DELETE_SCHEDULE;
	}

	/**
	 * Deletes the schedule, as the API's delete does and with the same roles (the service
	 * checks them).
	 */
	@PostMapping("/schedules/{name}/delete")
	String processDelete(@PathVariable String name, Authentication actor, RedirectAttributes redirect) {
		this.schedules.delete(name, actor);
		redirect.addFlashAttribute("message", "Schedule " + name + " deleted.");
		return "redirect:/schedules";
	}

	/**
	 * Marks a refusal of the service on its field, in words ({@code Time zone: not a time
	 * zone id}); a job parameter's on its typed field; one no field shows above the form.
	 */
	private static void reject(BindingResult result, RuntimeException ex) {
		if (ex instanceof InvalidRequestException invalid) {
			TypedParameters.reject(result, invalid, FIELDS);
		}
		else if (ex instanceof ScheduleConflictException taken) {
			result.rejectValue("name", "invalid", "Name: " + taken.getBody().getDetail());
		}
	}

}
