package io.refstore.web.schedules;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.system.InvalidRequestException;

/**
 * The console's schedules: the list (next fire, overruns, pause/resume), the create/edit
 * form and deletion after a confirmation page. A refused field is shown on the form again
 * with the reason; success redirects to the list with a message. The form to create one
 * is refused to a role that may not (a viewer); a schedule whose job the role may not run
 * opens read-only.
 */
@ConsoleController
class ScheduleController {

	static final String VIEWS_SCHEDULE_LIST = "schedules/scheduleList";

	static final String VIEWS_SCHEDULE_FORM = "schedules/createOrUpdateScheduleForm";

	static final String VIEWS_DELETE_SCHEDULE = "schedules/deleteSchedule";

	private static final Set<String> FIELDS = Set.of("name", "jobType", "targetKind", "target", "cron", "onceAt",
			"timeZone", "misfire");

	private final ScheduleService schedules;

	ScheduleController(ScheduleService schedules) {
		this.schedules = schedules;
	}

	@ModelAttribute("jobTypes")
	List<RefJobType> jobTypes() {
		return RefJobType.schedulableTypes();
	}

	@GetMapping("/schedules")
	String showScheduleList(Model model) {
		model.addAttribute("schedules", this.schedules.list());
		return VIEWS_SCHEDULE_LIST;
	}

	@GetMapping("/schedules/new")
	String initCreationForm(@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model) {
		if (!user.operator()) {
			throw new AccessDeniedException("the role " + user.role() + " may not create schedules");
		}
		model.addAttribute("form", new ScheduleForm());
		model.addAttribute("editing", false);
		return VIEWS_SCHEDULE_FORM;
	}

	@PostMapping("/schedules/new")
	String processCreationForm(@ModelAttribute("form") ScheduleForm form, BindingResult result, Model model,
			Authentication actor, RedirectAttributes redirect) {
		if (mistyped(result)) {
			model.addAttribute("editing", false);
			return VIEWS_SCHEDULE_FORM;
		}
		try {
			this.schedules.create(form.toRequest(), actor);
		}
		catch (InvalidRequestException | ScheduleConflictException ex) {
			reject(result, ex);
			model.addAttribute("editing", false);
			return VIEWS_SCHEDULE_FORM;
		}
		redirect.addFlashAttribute("message", "Schedule " + form.getName() + " created.");
		return "redirect:/schedules";
	}

	@GetMapping("/schedules/{name}/edit")
	String initUpdateForm(@PathVariable String name, Model model) {
		Schedule schedule = this.schedules.find(name).orElseThrow(() -> new ScheduleNotFoundException(name));
		model.addAttribute("schedule", schedule);
		model.addAttribute("form", ScheduleForm.of(schedule));
		model.addAttribute("editing", true);
		model.addAttribute("runs", this.schedules.runs(name, 20));
		return VIEWS_SCHEDULE_FORM;
	}

	@PostMapping("/schedules/{name}/edit")
	String processUpdateForm(@PathVariable String name, @ModelAttribute("form") ScheduleForm form, BindingResult result,
			Model model, Authentication actor, RedirectAttributes redirect) {
		form.setName(name);
		boolean mistyped = mistyped(result);
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
			model.addAttribute("editing", true);
			model.addAttribute("runs", this.schedules.runs(name, 20));
			return VIEWS_SCHEDULE_FORM;
		}
		redirect.addFlashAttribute("message", "Schedule " + name + " saved.");
		return "redirect:/schedules";
	}

	/**
	 * Whether the form has a field of the wrong kind ({@code paused=maybe}): then it is
	 * shown again saying which, never saved with the field's default.
	 */
	private static boolean mistyped(BindingResult result) {
		if (!result.hasFieldErrors()) {
			return false;
		}
		String fields = result.getFieldErrors()
			.stream()
			.map(FieldError::getField)
			.distinct()
			.collect(Collectors.joining(", "));
		result.reject("typeMismatch", "A field has a value of the wrong kind: " + fields + ".");
		return true;
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

	private static void reject(BindingResult result, RuntimeException ex) {
		if (ex instanceof InvalidRequestException invalid) {
			invalid.rejectIn(result, (field) -> FIELDS.contains(field) ? field : null);
		}
		else if (ex instanceof ScheduleConflictException taken) {
			result.rejectValue("name", "invalid", taken.getBody().getDetail());
		}
	}

}
