package io.refstore.web.refs;

import java.io.IOException;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.web.console.ConsoleController;

/**
 * The ref browser showing exactly a deletion plan's refs ("Open in the ref browser" on
 * the plan's page): {@code GET /repo/refs?name=&plan=&page=}, pages of
 * {@value PlanRefService#PAGE_SIZE} read from the plan file, each ref with the value the
 * plan recorded and its value now, those that moved or went since the plan marked. For
 * VIEWER and above, as the plan's page.
 */
@ConsoleController
class PlanRefsController {

	static final String VIEWS_PLAN_REFS = "refs/planRefs";

	private final PlanRefService plans;

	PlanRefsController(PlanRefService plans) {
		this.plans = plans;
	}

	@GetMapping("/repo/refs")
	String showPlanRefs(@RequestParam String name, @RequestParam long plan, @RequestParam(defaultValue = "1") int page,
			Model model) throws IOException {
		model.addAttribute("repoName", name);
		model.addAttribute("list", this.plans.page(name, plan, page));
		return VIEWS_PLAN_REFS;
	}

}
