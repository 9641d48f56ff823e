package io.refstore.web.campaigns;

import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.server.ResponseStatusException;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleFormat;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.schedules.Schedule;
import io.refstore.web.schedules.ScheduleTargets;
import io.refstore.web.schedules.TypedParameters;
import io.refstore.web.system.InvalidRequestException;

/**
 * The console's campaigns: the list with progress counts, one campaign's per-repository
 * results, the launch form and cancel. The launch form takes the job's parameters as
 * typed fields, those of the job chosen, swapped by htmx as it changes
 * ({@link TypedParameters}, shared with the schedule form); every refused field is shown
 * at once, beside the field and in a summary above the form, in words; a launch redirects
 * to the new campaign's page. The launch form is refused to a role that may not launch (a
 * viewer), and offers only the jobs the role may launch (an operator's deletion plans
 * only).
 */
@ConsoleController
class CampaignController {

	static final String VIEWS_CAMPAIGN_LIST = "campaigns/campaignList";

	static final String VIEWS_CAMPAIGN_DETAILS = "campaigns/campaignDetails";

	static final String VIEWS_CAMPAIGN_PROGRESS = "campaigns/campaignDetails :: progress";

	static final String VIEWS_CAMPAIGN_FORM = "campaigns/launchCampaignForm";

	/** The form's own fields, by the request's field name, with their labels. */
	private static final Map<String, String> FIELDS = Map.of("jobType", "Job", "targetKind", "Repositories", "target",
			"Repository, glob or number of loose refs", "concurrency", "Repositories at a time");

	private final CampaignService campaigns;

	private final ScheduleTargets targets;

	CampaignController(CampaignService campaigns, ScheduleTargets targets) {
		this.campaigns = campaigns;
		this.targets = targets;
	}

	@GetMapping("/campaigns")
	String showCampaignList(Model model) {
		model.addAttribute("campaigns", this.campaigns.list(200));
		return VIEWS_CAMPAIGN_LIST;
	}

	@GetMapping("/campaigns/{id:\\d+}")
	String showCampaign(@PathVariable long id, Model model) {
		addCampaign(id, model);
		return VIEWS_CAMPAIGN_DETAILS;
	}

	/** The live part of a campaign's page, which htmx polls while the campaign runs. */
	@GetMapping("/campaigns/{id:\\d+}/progress")
	String showCampaignProgress(@PathVariable long id, Model model) {
		addCampaign(id, model);
		return VIEWS_CAMPAIGN_PROGRESS;
	}

	private void addCampaign(long id, Model model) {
		Campaign campaign = this.campaigns.find(id)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "There is no campaign " + id + "."));
		model.addAttribute("campaign", campaign);
		model.addAttribute("targets", this.campaigns.targets(id));
	}

	@GetMapping("/campaigns/new")
	String initLaunchForm(@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model) {
		if (!user.operator()) {
			throw new AccessDeniedException("the role " + user.role() + " may not launch campaigns");
		}
		CampaignForm form = new CampaignForm();
		TypedParameters.show(form);
		model.addAttribute("form", form);
		return showForm(user, model);
	}

	/**
	 * The typed fields of the job chosen, asked by htmx as the job changes: the values
	 * typed so far kept, a new campaign's defaults for the rest.
	 */
	@GetMapping("/campaigns/parameters")
	String showParameters(@ModelAttribute("form") CampaignForm form, BindingResult result) {
		return TypedParameters.show(form);
	}

	@PostMapping("/campaigns/new")
	String processLaunchForm(@ModelAttribute("form") CampaignForm form, BindingResult result,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Model model, Authentication actor,
			RedirectAttributes redirect) {
		if (!user.operator()) {
			// refused before the fields are judged: a role that may not launch sees no
			// form
			throw new AccessDeniedException("the role " + user.role() + " may not launch campaigns");
		}
		// a field of the wrong kind (concurrency=abc) is the form's error, never launched
		// with the field's default; every field is judged, to show all refusals at once
		if (refused(form, user, result)) {
			return showForm(user, model);
		}
		Campaign campaign;
		try {
			campaign = this.campaigns.create(form.toRequest(), actor);
		}
		catch (InvalidRequestException ex) {
			TypedParameters.reject(result, ex, FIELDS);
			return showForm(user, model);
		}
		redirect.addFlashAttribute("message",
				"Campaign " + campaign.id() + " launched over " + campaign.total() + " repositories.");
		return "redirect:/campaigns/" + campaign.id();
	}

	private String showForm(ConsoleUser user, Model model) {
		model.addAttribute("jobTypes", jobTypes(user));
		model.addAttribute("errorSummary", TypedParameters.summary(model, FIELDS));
		return VIEWS_CAMPAIGN_FORM;
	}

	/** The jobs a campaign of {@code user} may run: a deletion if it may plan one. */
	private static List<RefJobType> jobTypes(ConsoleUser user) {
		return RefJobType.schedulableTypes()
			.stream()
			.filter((type) -> user.mayRun(type, Map.of(JobParameterNames.PLAN_ONLY, "true")))
			.toList();
	}

	/**
	 * Checks every field of the form as launching would, each refusal marked on its field
	 * in words, all at once: the job (one the role may launch), the repositories (a
	 * target that selects some), how many at a time and each of the job's parameters.
	 * @return whether anything was refused (a value of the wrong kind included)
	 */
	private boolean refused(CampaignForm form, ConsoleUser user, BindingResult result) {
		RefJobType type = form.type();
		if (type == null || !type.schedulable()) {
			TypedParameters.reject(result,
					new InvalidRequestException("jobType", form.getJobType(),
							"choose one of the jobs listed; a point-in-time restore is never run by a campaign"),
					FIELDS);
		}
		checkTarget(form, result);
		Integer concurrency = form.getConcurrency();
		if (concurrency != null && (concurrency < 1 || concurrency > CampaignService.MAX_CONCURRENCY)) {
			TypedParameters.reject(result, new InvalidRequestException("concurrency", concurrency.toString(),
					"must be a whole number from 1 to " + CampaignService.MAX_CONCURRENCY), FIELDS);
		}
		TypedParameters.check(form, result, "launch");
		if (type != null && !result.hasErrors() && !user.mayRun(type, form.toRequest().parameters())) {
			if (jobTypes(user).contains(type)) {
				result.rejectValue("values[" + JobParameterNames.PLAN_ONLY + "]", "role",
						"Plan only: deleting refs needs the ADMIN role; leave it on to plan what would go");
			}
			else {
				result.rejectValue("jobType", "role",
						"Job: a campaign of " + ConsoleFormat.jobTypeInWords(type) + " needs the ADMIN role");
			}
		}
		return result.hasErrors();
	}

	/** The repositories: a kind of target, and a target that selects some now. */
	private void checkTarget(CampaignForm form, BindingResult result) {
		Schedule.TargetKind kind;
		try {
			kind = Schedule.TargetKind.valueOf((form.getTargetKind() == null) ? "" : form.getTargetKind());
		}
		catch (IllegalArgumentException ex) {
			TypedParameters.reject(result, new InvalidRequestException("targetKind", form.getTargetKind(),
					"choose one repository, a glob or a loose-ref threshold"), FIELDS);
			return;
		}
		try {
			String target = this.targets.check(kind, form.getTarget());
			if (this.targets.select(kind, target).isEmpty()) {
				throw new InvalidRequestException("target", target, "selects no repository");
			}
		}
		catch (InvalidRequestException ex) {
			TypedParameters.reject(result, ex, FIELDS);
		}
	}

	@PostMapping("/campaigns/{id}/cancel")
	String processCancel(@PathVariable long id, Authentication actor, RedirectAttributes redirect) {
		Campaign campaign = this.campaigns.cancel(id, actor);
		redirect.addFlashAttribute("message", "Campaign " + id + " cancelled: "
				+ campaign.counts().get(CampaignTarget.State.CANCELLED) + " pending repositories will not run.");
		return "redirect:/campaigns/" + id;
	}

}
