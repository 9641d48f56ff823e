package io.refstore.web.refs;

import java.io.IOException;
import java.util.List;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.web.console.ConsoleController;

/**
 * One ref: its value (the object and its type), peeled value or symbolic target, its
 * commit's date, author and subject and how it relates to the branch {@code HEAD} names
 * (merged, commits ahead and behind), and its reflog, newest entry first. A ref without a
 * log shows that it has none; a ref that does not exist is a 404 page naming it.
 */
@ConsoleController
class RefController {

	static final String VIEWS_REF_DETAILS = "refs/refDetails";

	/** The most reflog entries one page shows. */
	static final int REFLOG_LIMIT = 200;

	private final RefService refs;

	private final RefFactsService facts;

	RefController(RefService refs, RefFactsService facts) {
		this.refs = refs;
		this.facts = facts;
	}

	@GetMapping("/repo/ref")
	String showRef(@RequestParam String name, @RequestParam String ref, Model model) throws IOException {
		RefView view = this.refs.ref(name, ref);
		model.addAttribute("repoName", name);
		model.addAttribute("ref", view);
		model.addAttribute("tip", this.facts.details(name, view));
		model.addAttribute("reflog", reflog(name, ref));
		model.addAttribute("reflogLimit", REFLOG_LIMIT);
		return VIEWS_REF_DETAILS;
	}

	private List<ReflogView> reflog(String name, String ref) throws IOException {
		try {
			return this.refs.reflog(name, ref, REFLOG_LIMIT);
		}
		catch (RefNotFoundException ex) {
			// the ref exists (it was just read) but keeps no log
			return List.of();
		}
	}

}
