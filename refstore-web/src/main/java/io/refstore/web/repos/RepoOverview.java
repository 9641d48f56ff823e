package io.refstore.web.repos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.repo.DiscoveredRepositories;

/**
 * The dashboard's view of the repositories: the API's summaries joined with each store's
 * statistics. Callers need the role VIEWER (checked here and by the summaries
 * underneath). Thread-safe; every call reads afresh.
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
	 * What the dashboard shows.
	 *
	 * @param repos every repository with its health, in name order
	 * @param discovered what the walk of the roots found and skipped
	 */
	public record Dashboard(List<RepoHealth> repos, DiscoveredRepositories discovered) {

	}

	/**
	 * Every repository with its health, and the directories the walk of the roots
	 * skipped. Counts every ref of every repository.
	 * @throws IOException if a repository cannot be read
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public Dashboard dashboard() throws IOException {
		DiscoveredRepositories discovered = this.registry.discover();
		List<RepoHealth> all = new ArrayList<>();
		for (RepoSummary summary : this.repos.list(discovered.names())) {
			try {
				all.add(new RepoHealth(summary, statistics(summary.name())));
			}
			catch (RepoNotFoundException ex) {
				// removed since it was listed
			}
		}
		return new Dashboard(all, discovered);
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
