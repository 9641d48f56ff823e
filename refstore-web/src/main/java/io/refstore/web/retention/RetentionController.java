package io.refstore.web.retention;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.web.console.ConsoleController;

/**
 * The console's Retention page (ADMIN): what the database holds of each kind of record,
 * what each keeps, what the last sweep on this node deleted, and a sweep now.
 */
@ConsoleController
class RetentionController {

	static final String VIEWS_RETENTION = "retention/retention";

	private final DataRetention retention;

	RetentionController(DataRetention retention) {
		this.retention = retention;
	}

	@GetMapping("/retention")
	String showRetention(Model model) {
		model.addAttribute("figures", this.retention.figures());
		return VIEWS_RETENTION;
	}

	@PostMapping("/retention/sweep")
	String processSweep(RedirectAttributes redirect) {
		DataRetention.Sweep sweep = this.retention.sweepNow();
		redirect.addFlashAttribute("message",
				"Deleted " + sweep.audit() + " audit entries, " + sweep.inventory() + " inventories, " + sweep.jobs()
						+ " job instances, " + sweep.scheduleRuns() + " schedule runs and " + sweep.webhookDeliveries()
						+ " webhook deliveries.");
		return "redirect:/retention";
	}

}
