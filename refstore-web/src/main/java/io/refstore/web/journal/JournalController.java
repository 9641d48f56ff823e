package io.refstore.web.journal;

import java.io.IOException;
import java.util.List;

import org.springframework.ui.Model;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.web.console.ConsoleController;
import io.refstore.web.refs.BatchResult;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Redaction;

/**
 * The journal's console pages: a repository's timeline (filtered by ref, prefix and
 * writer, paged newest first), its deleted refs with a restore of one or of those
 * selected, and a ref's recent history, a fragment its page loads (htmx). An undo
 * (restore to before a force-push, restore of a deletion) is a form posted by an ADMIN; a
 * refusal (the ref moved since, an object is gone) comes back as the page's problem, in
 * words.
 */
@ConsoleController
class JournalController {

	static final String VIEWS_TIMELINE = "journal/timeline";

	static final String VIEWS_DELETED = "journal/deleted";

	static final String VIEWS_REF_HISTORY = "journal/refHistory :: history";

	static final String VIEWS_SUMMARY = "journal/summary :: summary";

	/** How many entries the ref page's fragment shows. */
	static final int REF_HISTORY = 20;

	/** How many rows a page shows. */
	static final int PAGE = 100;

	private final JournalService journal;

	private final JournalRetention retention;

	JournalController(JournalService journal, JournalRetention retention) {
		this.journal = journal;
		this.retention = retention;
	}

	@GetMapping("/repo/journal")
	String showTimeline(@RequestParam String name, @RequestParam(required = false) String ref,
			@RequestParam(defaultValue = "") String prefix, @RequestParam(required = false) String writer,
			@RequestParam(defaultValue = "0") long before, Model model) throws IOException {
		ref = (ref == null || ref.isEmpty()) ? null : ref;
		writer = (writer == null || writer.isEmpty()) ? null : writer;
		model.addAttribute("repoName", name);
		model.addAttribute("ref", ref);
		model.addAttribute("prefix", prefix);
		model.addAttribute("writer", writer);
		model.addAttribute("firstPage", before == 0);
		model.addAttribute("page", this.journal.timeline(name, ref, prefix, writer, before, PAGE));
		model.addAttribute("status", this.journal.status(name));
		model.addAttribute("journalSettings", this.retention.settings(name));
		return VIEWS_TIMELINE;
	}

	@GetMapping("/repo/ref/journal")
	String showRefHistory(@RequestParam String name, @RequestParam String ref, Model model) throws IOException {
		model.addAttribute("repoName", name);
		model.addAttribute("ref", ref);
		model.addAttribute("page", this.journal.timeline(name, ref, "", null, 0, REF_HISTORY));
		return VIEWS_REF_HISTORY;
	}

	/** The dashboard's line about the journal, loaded with the page (htmx). */
	@GetMapping("/journal/summary")
	String showSummary(Model model) {
		model.addAttribute("totals", this.journal.totals());
		return VIEWS_SUMMARY;
	}

	@GetMapping("/repo/deleted")
	String showDeleted(@RequestParam String name, @RequestParam(defaultValue = "") String prefix,
			@RequestParam(defaultValue = "0") long before, Model model) throws IOException {
		model.addAttribute("repoName", name);
		model.addAttribute("prefix", prefix);
		model.addAttribute("firstPage", before == 0);
		model.addAttribute("page", this.journal.deleted(name, prefix, before, PAGE));
		return VIEWS_DELETED;
	}

	@PostMapping("/repo/deleted/restore")
	String processRestore(@RequestParam String name, @RequestParam(name = "ref", required = false) List<String> refs,
			RedirectAttributes redirect) throws IOException {
		redirect.addAttribute("name", name);
		if (refs == null || refs.isEmpty()) {
			redirect.addFlashAttribute("problem", "Select at least one deleted ref to restore.");
			return "redirect:/repo/deleted";
		}
		try {
			BatchResult result = this.journal.restore(name, refs);
			redirect.addFlashAttribute("message", (result.results().size() == 1)
					? "Restored " + result.results().get(0).ref() + "." : "Restored " + refs.size() + " refs.");
		}
		catch (ErrorResponseException ex) {
			redirect.addFlashAttribute("problem", "Nothing was restored: " + ex.getBody().getDetail());
		}
		return "redirect:/repo/deleted";
	}

	@PostMapping("/repo/journal/settings")
	String processSettings(@RequestParam String name, @RequestParam(defaultValue = "false") boolean enabled,
			@RequestParam(defaultValue = "0") int maxAgeDays, @RequestParam(defaultValue = "0") long maxEntries,
			RedirectAttributes redirect) throws IOException {
		redirect.addAttribute("name", name);
		try {
			this.retention.change(name, new JournalRetention.Change(enabled, maxAgeDays, maxEntries));
			redirect.addFlashAttribute("message", enabled ? "Journaling is on; the retention is saved."
					: "Journaling is off: the hook is removed, the entries stay.");
		}
		catch (InvalidRequestException ex) {
			redirect.addFlashAttribute("problem", "Nothing was changed: " + Redaction.paths(ex.getMessage()));
		}
		return "redirect:/repo/journal";
	}

	@PostMapping("/repo/journal/undo")
	String processUndo(@RequestParam String name, @RequestParam long entry, @RequestParam String ref,
			RedirectAttributes redirect) throws IOException {
		redirect.addAttribute("name", name);
		redirect.addAttribute("ref", ref);
		try {
			this.journal.undo(name, entry);
			redirect.addFlashAttribute("message", "Undone: " + ref + " is back at its value before that change.");
		}
		catch (ErrorResponseException ex) {
			redirect.addFlashAttribute("problem", "Nothing was changed: " + ex.getBody().getDetail());
		}
		return "redirect:/repo/journal";
	}

}
