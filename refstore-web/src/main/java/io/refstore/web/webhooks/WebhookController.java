package io.refstore.web.webhooks;

import java.util.Map;
import java.util.Set;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.web.console.ConsoleController;
import io.refstore.web.system.InvalidRequestException;

/**
 * The console's Webhooks pages (ADMIN): the list, a new webhook, one webhook's form with
 * its delivery log, "send test" and redelivery, and the confirmation of its deletion.
 */
@ConsoleController
@PreAuthorize("hasRole('ADMIN')")
class WebhookController {

	static final String VIEWS_LIST = "webhooks/webhookList";

	static final String VIEWS_FORM = "webhooks/webhookForm";

	static final String VIEWS_DELETE = "webhooks/deleteWebhook";

	private static final Set<String> FIELDS = Set.of("name", "url", "secret", "events", "repositories");

	private final WebhookService webhooks;

	WebhookController(WebhookService webhooks) {
		this.webhooks = webhooks;
	}

	@ModelAttribute("eventTypes")
	Map<String, String> eventTypes() {
		return WebhookEvents.TYPES;
	}

	@GetMapping("/webhooks")
	String showList(Model model) {
		model.addAttribute("webhooks", this.webhooks.list());
		return VIEWS_LIST;
	}

	@GetMapping("/webhooks/new")
	String initCreationForm(Model model) {
		model.addAttribute("form", new WebhookForm());
		model.addAttribute("editing", false);
		return VIEWS_FORM;
	}

	@PostMapping("/webhooks/new")
	String processCreationForm(@ModelAttribute("form") WebhookForm form, BindingResult result, Model model,
			RedirectAttributes redirect) {
		WebhookService.Created created;
		try {
			created = this.webhooks.create(form.toRequest());
		}
		catch (InvalidRequestException ex) {
			ex.rejectIn(result, (field) -> FIELDS.contains(field) ? field : null);
			model.addAttribute("editing", false);
			return VIEWS_FORM;
		}
		redirect.addFlashAttribute("message", "Webhook " + created.webhook().name() + " created."
				+ ((created.secret() != null) ? " Its secret, shown only now: " + created.secret() : ""));
		return "redirect:/webhooks/" + created.webhook().id();
	}

	@GetMapping("/webhooks/{id}")
	String initUpdateForm(@PathVariable long id, Model model) {
		Webhook webhook = this.webhooks.find(id);
		model.addAttribute("form", WebhookForm.of(webhook));
		return form(webhook, model);
	}

	@PostMapping("/webhooks/{id}")
	String processUpdateForm(@PathVariable long id, @ModelAttribute("form") WebhookForm form, BindingResult result,
			Model model, RedirectAttributes redirect) {
		try {
			this.webhooks.update(id, form.toRequest());
		}
		catch (InvalidRequestException ex) {
			ex.rejectIn(result, (field) -> FIELDS.contains(field) ? field : null);
			return form(this.webhooks.find(id), model);
		}
		redirect.addFlashAttribute("message", "Webhook " + form.getName() + " saved.");
		return "redirect:/webhooks/" + id;
	}

	@PostMapping("/webhooks/{id}/test")
	String processTest(@PathVariable long id, RedirectAttributes redirect) {
		Delivery delivery = this.webhooks.test(id);
		redirect.addFlashAttribute("message", "Test delivery " + delivery.id() + " sent; its answer shows below.");
		return "redirect:/webhooks/" + id;
	}

	@PostMapping("/webhooks/{id}/deliveries/{delivery}/redeliver")
	String processRedeliver(@PathVariable long id, @PathVariable long delivery, RedirectAttributes redirect) {
		Delivery again = this.webhooks.redeliver(id, delivery);
		redirect.addFlashAttribute("message", "Delivery " + delivery + " sent again as delivery " + again.id() + ".");
		return "redirect:/webhooks/" + id;
	}

	@GetMapping("/webhooks/{id}/delete")
	String initDeleteForm(@PathVariable long id, Model model) {
		model.addAttribute("webhook", this.webhooks.find(id));
		return VIEWS_DELETE;
	}

	@PostMapping("/webhooks/{id}/delete")
	String processDelete(@PathVariable long id, RedirectAttributes redirect) {
		Webhook webhook = this.webhooks.find(id);
		this.webhooks.delete(id);
		redirect.addFlashAttribute("message", "Webhook " + webhook.name() + " deleted with its deliveries.");
		return "redirect:/webhooks";
	}

	private String form(Webhook webhook, Model model) {
		model.addAttribute("webhook", webhook);
		model.addAttribute("editing", true);
		model.addAttribute("deliveries", this.webhooks.deliveries(webhook.id(), null, 50));
		return VIEWS_FORM;
	}

}
