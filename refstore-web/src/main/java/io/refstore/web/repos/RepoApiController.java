package io.refstore.web.repos;

import java.io.IOException;
import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code /api/repos}: the repositories under the configured roots. A repository name is one path segment:
 * a name with slashes ({@code team/project.git}) is sent percent-encoded ({@code team%2Fproject.git}).
 */
@RestController
@RequestMapping("/api/repos")
@Tag(name = "repositories")
class RepoApiController {

	private final RepoService repos;

	RepoApiController(RepoService repos) {
		this.repos = repos;
	}

	@GetMapping
	@Operation(summary = "List repositories with their formats and ref counts (VIEWER)")
	List<RepoSummary> listRepos() throws IOException {
		return this.repos.list();
	}

	@GetMapping("/{repo}")
	@Operation(summary = "One repository with its ref counts per namespace (VIEWER)")
	RepoSummary showRepo(@Parameter(description = "repository name; '/' inside it encoded as %2F")
	@PathVariable String repo) throws IOException {
		return this.repos.details(repo);
	}

}
