package io.refstore.web.repos;

import java.io.IOException;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.core.ref.StoreStatistics;

/**
 * A repository's page's view of it: the API's summary joined with its store's statistics
 * (the dashboard reads the fleet's inventory instead). Callers need the role VIEWER
 * (checked here and by the summaries underneath). Thread-safe; every call reads afresh.
 */
@Service
public class RepoOverview {

	private final RepoRegistry registry;

	private final RepoService repos;

	RepoOverview(RepoRegistry registry, RepoService repos) {
		this.registry = registry;
		this.repos = repos;
	}

	/**
	 * One repository with its health.
	 * @throws RepoNotFoundException if there is none of that name
	 * @throws io.refstore.core.repo.InvalidRepositoryNameException if the name is refused
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public RepoHealth one(String name) throws IOException {
		RepoSummary summary = this.repos.details(name);
		return new RepoHealth(summary, statistics(name));
	}

	private StoreStatistics statistics(String name) throws IOException {
		try (OpenRepo repo = this.registry.open(name)) {
			return repo.store().statistics();
		}
	}

}
