package io.refstore.web.repos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.core.repo.Repository;

/**
 * Reads what the API and the console show about repositories. Callers need the role VIEWER (or a role above
 * it): the check is made here, whatever the URL rules say. Thread-safe.
 */
@Service
public class RepoService {

	private final RepoRegistry registry;

	public RepoService(RepoRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Every repository under the roots, in name order, with its counts. Reads every ref of every repository.
	 * @throws IOException if a root or a repository cannot be read
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<RepoSummary> list() throws IOException {
		List<RepoSummary> summaries = new ArrayList<>();
		for (String name : this.registry.names()) {
			try (OpenRepo repo = this.registry.open(name)) {
				summaries.add(summary(repo));
			}
			catch (RepoNotFoundException ex) {
				// removed between listing and opening: it is simply not there any more
			}
		}
		return summaries;
	}

	/**
	 * One repository with its counts.
	 * @throws RepoNotFoundException if there is none of that name
	 * @throws io.refstore.batch.support.InvalidRepositoryNameException if the name is refused
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public RepoSummary details(String name) throws IOException {
		try (OpenRepo repo = this.registry.open(name)) {
			return summary(repo);
		}
	}

	private static RepoSummary summary(OpenRepo repo) throws IOException {
		Repository repository = repo.repository();
		RefCounts counts = RefCounts.of(repo.store());
		return new RepoSummary(repo.name(), repository.refFormat().name().toLowerCase(Locale.ROOT),
				repository.hashAlgorithm().configName(), repository.isBare(), counts.total(), counts.namespaces());
	}

}
