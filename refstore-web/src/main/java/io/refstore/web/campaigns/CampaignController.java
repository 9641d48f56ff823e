package io.refstore.web.campaigns;

import java.util.List;
import java.util.Set;

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

import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.system.InvalidRequestException;

/**
 * The console's campaigns: the list with progress counts, one campaign's per-repository
 * results, the launch form and cancel. A refused field is shown on the form again with
 * the reason; a launch redirects to the new campaign's page. The launch form is refused
 * to a role that may not launch (a viewer).
 */
@ConsoleController
class CampaignController {

	static final String VIEWS_CAMPAIGN_LIST = "campaigns/campaignList";

	static final String VIEWS_CAMPAIGN_DETAILS = "campaigns/campaignDetails";

	static final String VIEWS_CAMPAIGN_PROGRESS = "campaigns/campaignDetails :: progress";

	static final String VIEWS_CAMPAIGN_FORM = "campaigns/launchCampaignForm";

	private static final Set<String> FIELDS = Set.of("jobType", "targetKind", "target", "concurrency");

	private final CampaignService campaigns;

	CampaignController(CampaignService campaigns) {
		this.campaigns = campaigns;
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
		model.addAttribute("form", new CampaignForm());
		model.addAttribute("jobTypes", RefJobType.schedulableTypes());
		return VIEWS_CAMPAIGN_FORM;
	}

	@PostMapping("/campaigns/new")
	String processLaunchForm(@ModelAttribute("form") CampaignForm form, BindingResult result, Model model,
			Authentication actor, RedirectAttributes redirect) {
		if (result.hasErrors()) {
			// a field of the wrong kind (concurrency=abc) is the form's error, never
			// launched with the field's default
			model.addAttribute("jobTypes", RefJobType.schedulableTypes());
			return VIEWS_CAMPAIGN_FORM;
		}
		Campaign campaign;
		try {
			campaign = this.campaigns.create(form.toRequest(), actor);
		}
		catch (InvalidRequestException ex) {
			ex.rejectIn(result, (field) -> FIELDS.contains(field) ? field : null);
			model.addAttribute("jobTypes", RefJobType.schedulableTypes());
			return VIEWS_CAMPAIGN_FORM;
		}
		redirect.addFlashAttribute("message",
				"Campaign " + campaign.id() + " launched over " + campaign.total() + " repositories.");
		return "redirect:/campaigns/" + campaign.id();
	}

	@PostMapping("/campaigns/{id}/cancel")
	String processCancel(@PathVariable long id, Authentication actor, RedirectAttributes redirect) {
		Campaign campaign = this.campaigns.cancel(id, actor);
		redirect.addFlashAttribute("message", "Campaign " + id + " cancelled: "
				+ campaign.counts().get(CampaignTarget.State.CANCELLED) + " pending repositories will not run.");
		return "redirect:/campaigns/" + id;
	}

}
