package io.refstore.web.repos;

import java.io.IOException;
import java.util.List;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code /api/repos}: the repositories under the configured roots. A repository name is
 * one path segment: a name with slashes ({@code team/project.git}) is sent
 * percent-encoded ({@code team%2Fproject.git}).
 */
@RestController
@RequestMapping("/api/repos")
@Tag(name = "repositories")
class RepoApiController {

	private final RepoService repos;

	private final BackupService backups;

	RepoApiController(RepoService repos, BackupService backups) {
		this.repos = repos;
		this.backups = backups;
	}

	@GetMapping
	@Operation(summary = "List repositories with their formats and ref counts (VIEWER)")
	List<RepoSummary> listRepos() throws IOException {
		return this.repos.list();
	}

	@GetMapping("/{repo}")
	@Operation(summary = "One repository with its ref counts per namespace (VIEWER)")
	RepoSummary showRepo(
			@Parameter(description = "repository name; '/' inside it encoded as %2F") @PathVariable String repo)
			throws IOException {
		return this.repos.details(repo);
	}

	@GetMapping("/{repo}/backups")
	@Operation(summary = "The backups format migrations kept, oldest first (VIEWER)",
			description = "Each by name (what a rollback job and a drop take), format, time made, size, and the"
					+ " counts and digest recorded with it (null for a backup without a record).")
	List<BackupView> listBackups(@PathVariable String repo) throws IOException {
		return this.backups.list(repo);
	}

	@DeleteMapping("/{repo}/backups/{name}")
	@Operation(summary = "Drop one backup (ADMIN)",
			description = "204 once it is gone; 404 if there is none of that name, 400 for a name that is not a"
					+ " backup's, 409 if an unfinished migration still needs it. Audited as backup.drop.")
	ResponseEntity<Void> dropBackup(@PathVariable String repo,
			@Parameter(description = "the backup's name, as GET .../backups lists it") @PathVariable String name)
			throws IOException {
		this.backups.drop(repo, name);
		return ResponseEntity.noContent().build();
	}

}
