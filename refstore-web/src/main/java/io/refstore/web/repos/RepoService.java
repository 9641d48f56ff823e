package io.refstore.web.repos;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.batch.api.RefJobs;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryPaths;

/**
 * Reads what the API and the console show about repositories. Callers need the role
 * VIEWER (or a role above it): the check is made here, whatever the URL rules say.
 * Thread-safe.
 */
@Service
public class RepoService {

	private final RepoRegistry registry;

	/** Counts by git directory, with the store fingerprint they were taken at. */
	private final Map<Path, CachedCounts> counts = new ConcurrentHashMap<>();

	/** This node's name, which every summary names. */
	private final String node;

	public RepoService(RepoRegistry registry, RefJobs jobs) {
		this.registry = registry;
		this.node = jobs.instanceId();
	}

	private record CachedCounts(String fingerprint, RefCounts counts) {
	}

	/**
	 * Every repository under the roots, in name order, with its counts. Reads every ref
	 * of every repository.
	 * @throws IOException if a root or a repository cannot be read
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<RepoSummary> list() throws IOException {
		return list(this.registry.names());
	}

	/**
	 * The repositories of {@code names} that are still there, in the given order, with
	 * their counts.
	 * @param names names found by {@link RepoRegistry#discover()}
	 * @throws IOException if a repository cannot be read
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<RepoSummary> list(List<String> names) throws IOException {
		List<RepoSummary> summaries = new ArrayList<>();
		for (String name : names) {
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
	 * @throws io.refstore.core.repo.InvalidRepositoryNameException if the name is refused
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public RepoSummary details(String name) throws IOException {
		try (OpenRepo repo = this.registry.open(name)) {
			return summary(repo);
		}
	}

	/**
	 * One repository with its counts, for this node's own record of its repositories (the
	 * fleet inventory): work of the application, not of a user, so no role is asked.
	 * @param name a name {@link RepoRegistry#discover()} found, or
	 * {@code <storage>/<name>}
	 * @throws RepoNotFoundException if it is gone
	 */
	public RepoSummary summaryOf(String name) throws IOException {
		try (OpenRepo repo = this.registry.open(name)) {
			return summary(repo);
		}
	}

	private RepoSummary summary(OpenRepo repo) throws IOException {
		Repository repository = repo.repository();
		RefCounts counts = counts(repo);
		StoreStatistics statistics = repo.store().statistics();
		String storage = this.registry.locate(repo).map(RepositoryPaths.Located::storage).orElse(null);
		return new RepoSummary(repo.name(), storage, this.node, repository.refFormat().name().toLowerCase(Locale.ROOT),
				repository.hashAlgorithm().configName(), repository.isBare(), counts.total(), counts.namespaces(),
				statistics.looseRefs(), statistics.packedRefs(), statistics.tables(), statistics.bytes(),
				statistics.maintenanceDue(), statistics.reason());
	}

	/**
	 * The ref counts, read again only if the store changed since they were taken:
	 * counting reads every ref, the store's fingerprint only file identities. The
	 * fingerprint is taken before counting, so a write during the count makes the next
	 * call count again.
	 */
	private RefCounts counts(OpenRepo repo) throws IOException {
		String fingerprint = repo.store().fingerprint();
		Path key = repo.repository().gitDir();
		CachedCounts cached = this.counts.get(key);
		if (cached != null && cached.fingerprint().equals(fingerprint)) {
			return cached.counts();
		}
		RefCounts counts = RefCounts.of(repo.store());
		this.counts.put(key, new CachedCounts(fingerprint, counts));
		return counts;
	}

}
