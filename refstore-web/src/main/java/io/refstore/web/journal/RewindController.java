package io.refstore.web.journal;

import java.io.IOException;
import java.security.Principal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.ui.Model;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Redaction;

/**
 * The console's point-in-time restore: a repository's refs under a prefix as they were at
 * a moment (UTC, to the second), previewed (what would be created, deleted, moved, and
 * what cannot be), then, for an ADMIN who types the repository's name, restored by a job
 * whose page follows it; a restore's job page offers its undo.
 */
@ConsoleController
class RewindController {

	static final String VIEWS_REWIND = "journal/rewind";

	private final RewindService rewind;

	RewindController(RewindService rewind) {
		this.rewind = rewind;
	}

	@GetMapping("/repo/rewind")
	String showRewind(@RequestParam String name, @RequestParam(defaultValue = "") String at,
			@RequestParam(defaultValue = "refs/heads/") String prefix, Model model) throws IOException {
		model.addAttribute("repoName", name);
		model.addAttribute("prefix", prefix);
		model.addAttribute("at", at);
		if (!at.isBlank()) {
			try {
				model.addAttribute("preview", this.rewind.preview(name, moment(at), prefix));
			}
			catch (InvalidRequestException ex) {
				model.addAttribute("problem", Redaction.paths(ex.getMessage()));
			}
		}
		return VIEWS_REWIND;
	}

	@PostMapping("/repo/rewind")
	String processRewind(@RequestParam String name, @RequestParam String at, @RequestParam String prefix,
			@RequestParam(defaultValue = "") String confirmRepository, Principal principal, RedirectAttributes redirect)
			throws IOException {
		redirect.addAttribute("name", name);
		redirect.addAttribute("at", at);
		redirect.addAttribute("prefix", prefix);
		if (!confirmRepository.strip().equals(name)) {
			redirect.addFlashAttribute("problem", "Type the repository's name exactly to confirm the restore: " + name);
			return "redirect:/repo/rewind";
		}
		try {
			JobSummary job = this.rewind.restore(name, moment(at), prefix, principal.getName());
			redirect.getFlashAttributes().clear();
			redirect.addFlashAttribute("message", "Putting the refs under " + prefix + " back as they were at " + at
					+ " UTC. The job's page offers its undo.");
			return "redirect:/jobs/" + job.executionId();
		}
		catch (ErrorResponseException | JobConflictException ex) {
			redirect.addFlashAttribute("problem",
					"Nothing was changed: " + ((ex instanceof ErrorResponseException error)
							? error.getBody().getDetail() : Redaction.paths(ex.getMessage())));
			return "redirect:/repo/rewind";
		}
	}

	@PostMapping("/repo/rewind/undo")
	String processUndo(@RequestParam String name, @RequestParam String plan, @RequestParam long job,
			@RequestParam(defaultValue = "") String confirmRepository,
			@ModelAttribute(name = "consoleUser", binding = false) ConsoleUser user, Principal principal,
			RedirectAttributes redirect) {
		mayRewind(user);
		if (!confirmRepository.strip().equals(name)) {
			redirect.addFlashAttribute("undoError", "Type the repository's name exactly to confirm the undo: " + name);
			return "redirect:/jobs/" + job + "#confirm-undo";
		}
		try {
			JobSummary undo = this.rewind.undo(name, plan, principal.getName());
			redirect.addFlashAttribute("message", "Undoing the point-in-time restore of job " + job + ".");
			return "redirect:/jobs/" + undo.executionId();
		}
		catch (ErrorResponseException | JobConflictException ex) {
			redirect.addFlashAttribute("undoError",
					"Nothing was changed: " + ((ex instanceof ErrorResponseException error)
							? error.getBody().getDetail() : Redaction.paths(ex.getMessage())));
			return "redirect:/jobs/" + job + "#confirm-undo";
		}
	}

	/**
	 * Refuses (403) a user who may not restore refs, before a confirmation is checked.
	 */
	private static void mayRewind(ConsoleUser user) {
		if (!user.mayRun(RefJobType.REWIND, Map.of())) {
			throw new AccessDeniedException("the role " + user.role() + " may not restore refs");
		}
	}

	/** The form's date and time, UTC ({@code datetime-local}), or an ISO-8601 instant. */
	static Instant moment(String text) {
		try {
			return LocalDateTime.parse(text.strip()).toInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
		}
		catch (DateTimeParseException ex) {
			return RewindApiController.moment(text);
		}
	}

}
