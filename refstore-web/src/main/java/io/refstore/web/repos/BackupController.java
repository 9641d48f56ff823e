package io.refstore.web.repos;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.web.console.ConsoleController;
import io.refstore.web.system.Problems;

/**
 * The backups section of a repository's page, and dropping a backup. The list is a
 * fragment the page loads separately (htmx), since sizing a backup walks its files. A
 * drop is confirmed as a deletion plan is: on a page of its own, by typing the backup's
 * name; the service refuses it to anyone but an ADMIN whatever the page showed.
 */
@ConsoleController
class BackupController {

	static final String VIEWS_BACKUPS = "repos/repoBackups :: backups";

	static final String VIEWS_DROP_BACKUP = "repos/dropBackup";

	private final BackupService backups;

	BackupController(BackupService backups) {
		this.backups = backups;
	}

	@GetMapping("/repo/backups")
	String showBackups(@RequestParam String name, Model model) throws IOException {
		model.addAttribute("repoName", name);
		model.addAttribute("backups", this.backups.list(name));
		return VIEWS_BACKUPS;
	}

	@GetMapping("/repo/backups/drop")
	String initDropBackup(@RequestParam String name, @RequestParam String backup, Model model) throws IOException {
		model.addAttribute("repoName", name);
		model.addAttribute("backup", find(name, backup));
		return VIEWS_DROP_BACKUP;
	}

	@PostMapping("/repo/backups/drop")
	String processDropBackup(@RequestParam String name, @RequestParam String backup,
			@RequestParam(defaultValue = "") String confirmBackup, Model model, RedirectAttributes redirect)
			throws IOException {
		if (!confirmBackup.equals(backup)) {
			model.addAttribute("repoName", name);
			model.addAttribute("backup", find(name, backup));
			model.addAttribute("confirmError", "Type the backup's name exactly to drop it.");
			model.addAttribute("confirmBackup", confirmBackup);
			return VIEWS_DROP_BACKUP;
		}
		BackupView dropped = this.backups.drop(name, backup);
		redirect.addFlashAttribute("message", "Dropped backup " + dropped.name() + " (" + dropped.format() + ").");
		redirect.addAttribute("name", name);
		return "redirect:/repo";
	}

	private BackupView find(String repo, String backup) throws IOException {
		List<BackupView> all = this.backups.list(repo);
		return all.stream()
			.filter((view) -> view.name().equals(backup))
			.findFirst()
			.orElseThrow(() -> Problems.notFound("backup-not-found", "repository '" + Problems.printable(repo)
					+ "' has no backup named '" + Problems.printable(backup) + "'", Map.of()));
	}

}
