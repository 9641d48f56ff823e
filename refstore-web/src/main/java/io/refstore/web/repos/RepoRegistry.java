package io.refstore.web.repos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.annotation.PreDestroy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import io.refstore.core.repo.DiscoveredRepositories;
import io.refstore.core.repo.NotARepositoryException;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.repo.StoreSwappedException;
import io.refstore.core.repo.RepositoryDiscovery;
import io.refstore.core.repo.RepositoryPaths;
import io.refstore.core.store.ProcessLocks;

/**
 * The repositories under the configured roots: finds them ({@link RepositoryDiscovery}:
 * plain trees and GitLab's hashed storage), and opens one by the name a client gives.
 * Names are resolved by {@link RepositoryPaths}, which refuses any name that could lead
 * outside a root ({@code ..}, absolute paths, {@code %}, symbolic links out of the root).
 * Only directory entries are looked at here, never repository contents; repositories are
 * read through core's {@link Repository} and {@link io.refstore.core.ref.RefStore}.
 * Thread-safe: the names are not cached, every call looks again.
 */
@Component
public class RepoRegistry {

	private static final Logger log = LoggerFactory.getLogger(RepoRegistry.class);

	/** The parameter name used in error messages about a repository name. */
	public static final String PARAMETER = "repo";

	private final RepositoryPaths paths;

	private final RepositoryDiscovery discovery;

	private final StoreCache stores;

	/** The record of this application's locks, one per repository it writes in. */
	private final ProcessLocks locks = new ProcessLocks("refstore-web");

	private final ObjectProvider<RemoteRepos> remote;

	/**
	 * @param paths the roots ({@code refstore.repositories.roots}, created on start by
	 * the jobs' configuration)
	 * @param properties how deep to search and how many stores to keep open
	 */
	public RepoRegistry(RepositoryPaths paths, RepoProperties properties, ObjectProvider<RemoteRepos> remote) {
		this.paths = paths;
		this.remote = remote;
		this.discovery = new RepositoryDiscovery(this.paths, properties.maxDepth());
		this.stores = new StoreCache(properties.openStores(), this.locks);
	}

	/** The storages: each name with its root's real path, in search order. */
	public Map<String, Path> storages() {
		return this.paths.storages();
	}

	/**
	 * The storage holding an open repository, with its name there; empty for one outside
	 * every root (which {@link #open} never returns).
	 */
	public Optional<RepositoryPaths.Located> locate(OpenRepo repo) {
		Repository repository = repo.repository();
		return this.paths.locate(repository.workTree().orElse(repository.gitDir()));
	}

	/**
	 * The storage holding the repository {@code name} and its path there, found without
	 * opening it: one identity whichever of its names a client gives ({@code team/a.git},
	 * {@code default/team/a.git}), and distinct for one path in two storages. What
	 * records kept per repository are kept under (the ref journal, by
	 * {@link RepositoryPaths.Located#qualified()}).
	 * @throws io.refstore.core.repo.InvalidRepositoryNameException if the name is
	 * malformed or leads outside its root
	 * @throws RepoNotFoundException if no root holds a repository of that name
	 */
	public RepositoryPaths.Located identify(String name) throws IOException {
		Optional<Path> dir = this.paths.resolve(PARAMETER, name);
		if (dir.isEmpty() || !looksLikeRepository(dir.get())) {
			this.remote.ifAvailable((fleet) -> fleet.checkElsewhere(name));
			throw new RepoNotFoundException(name);
		}
		return this.paths.locate(dir.get()).orElseThrow(() -> new RepoNotFoundException(name));
	}

	/**
	 * Every repository of every storage, storage by storage in search order, each path
	 * sorted: a path two storages hold is listed for each (unlike {@link #names()}, where
	 * the first root wins). A storage that cannot be walked is logged and left out.
	 */
	public List<RepositoryPaths.Located> repositories() {
		List<RepositoryPaths.Located> all = new ArrayList<>();
		for (Map.Entry<String, Path> storage : storages().entrySet()) {
			try {
				RepositoryDiscovery walk = new RepositoryDiscovery(new RepositoryPaths(List.of(storage.getValue())),
						this.discovery.maxDepth());
				for (String path : walk.discover().names()) {
					all.add(new RepositoryPaths.Located(storage.getKey(), path));
				}
			}
			catch (IOException | RuntimeException ex) {
				log.warn("could not list the repositories of storage '{}'", storage.getKey(), ex);
			}
		}
		return all;
	}

	/** The roots as real paths, in search order. */
	public List<Path> roots() {
		return this.paths.roots();
	}

	/**
	 * The names of every repository under the roots, sorted; a name found in two roots is
	 * listed once (the first root wins, as in {@link #open}). A repository's
	 * subdirectories are not searched.
	 */
	public List<String> names() {
		return this.discovery.discover().names();
	}

	/**
	 * The repositories under the roots with the directories the walk skipped, and why.
	 */
	public DiscoveredRepositories discover() {
		return this.discovery.discover();
	}

	/**
	 * A bare repository has {@code HEAD} and {@code objects/}; a working tree has a
	 * {@code .git} entry.
	 */
	private static boolean looksLikeRepository(Path dir) {
		return Files.exists(dir.resolve(".git"), LinkOption.NOFOLLOW_LINKS)
				|| (Files.isRegularFile(dir.resolve("HEAD"), LinkOption.NOFOLLOW_LINKS)
						&& Files.isDirectory(dir.resolve("objects"), LinkOption.NOFOLLOW_LINKS));
	}

	/**
	 * Opens the repository {@code name} with its ref store. The store is kept open for
	 * later requests (its caches are what makes a page of a million-ref
	 * {@code packed-refs} fast) and replaced when the repository's configuration changes,
	 * for example by a format migration.
	 * @return the open repository, which the caller closes (releases)
	 * @throws io.refstore.core.repo.InvalidRepositoryNameException if the name is
	 * malformed or leads outside its root
	 * @throws RepoNotFoundException if no root holds a repository of that name
	 * @throws IOException if the repository cannot be read
	 */
	public OpenRepo open(String name) throws IOException {
		Optional<Path> dir = this.paths.resolve(PARAMETER, name);
		if (dir.isEmpty() || !looksLikeRepository(dir.get())) {
			this.remote.ifAvailable((fleet) -> fleet.checkElsewhere(name));
			throw new RepoNotFoundException(name);
		}
		try {
			return open(name, dir.get());
		}
		catch (StoreSwappedException ex) {
			// a swap by another process ended between reading the configuration and
			// passing the gate: the configuration read again names the new store
			return open(name, dir.get());
		}
	}

	/**
	 * Opens the repository at {@code dir} and passes its {@link StoreGate} for the span
	 * of the request, as its writers do: while any process swaps the store, a request
	 * waits for the swap to end (then 503), so that it reads the old store or the new
	 * one, whole, never one being moved.
	 */
	private OpenRepo open(String name, Path dir) throws IOException {
		Repository repository;
		try {
			repository = Repository.open(dir, Map.of());
		}
		catch (NotARepositoryException ex) {
			throw new RepoNotFoundException(name);
		}
		// the locator walks upwards: a directory inside some other repository must not
		// open that one
		if (!repository.gitDir().equals(dir) && !repository.workTree().equals(Optional.of(dir))) {
			repository.close();
			throw new RepoNotFoundException(name);
		}
		StoreGate.Pass pass;
		try {
			pass = StoreGate.of(repository.commonDir()).enter(repository.storeGeneration(), StoreGate.WRITER_WAIT);
		}
		catch (IOException | RuntimeException ex) {
			repository.close();
			throw ex;
		}
		StoreCache.Entry entry;
		try {
			entry = this.stores.acquire(repository);
		}
		catch (IOException | RuntimeException ex) {
			pass.close();
			throw ex;
		}
		return new OpenRepo(name, entry.repository, entry.store, () -> {
			this.stores.release(entry);
			pass.close();
		});
	}

	/**
	 * The common git directory of the repository {@code name} (where its configuration,
	 * locks and journal are), found without opening its ref store: no swap of the store
	 * is waited for.
	 * @throws RepoNotFoundException if no root holds a repository of that name
	 */
	public Path commonDir(String name) throws IOException {
		Optional<Path> dir = this.paths.resolve(PARAMETER, name);
		if (dir.isEmpty() || !looksLikeRepository(dir.get())) {
			throw new RepoNotFoundException(name);
		}
		try (Repository repository = Repository.open(dir.get(), Map.of())) {
			if (!repository.gitDir().equals(dir.get()) && !repository.workTree().equals(dir)) {
				throw new RepoNotFoundException(name);
			}
			return repository.commonDir().toAbsolutePath();
		}
		catch (NotARepositoryException ex) {
			throw new RepoNotFoundException(name);
		}
	}

	/**
	 * Whether a repository of that name is here, under this node's roots.
	 * @throws io.refstore.core.repo.InvalidRepositoryNameException if the name is
	 * malformed or leads outside its root
	 */
	public boolean holds(String name) throws IOException {
		Optional<Path> dir = this.paths.resolve(PARAMETER, name);
		return dir.isPresent() && looksLikeRepository(dir.get());
	}

	/**
	 * The storage of this node that holds the repository {@code name}; empty if none
	 * does.
	 * @throws io.refstore.core.repo.InvalidRepositoryNameException if the name is
	 * malformed or leads outside its root
	 */
	public Optional<String> storageOf(String name) throws IOException {
		Optional<Path> dir = this.paths.resolve(PARAMETER, name);
		if (dir.isEmpty() || !looksLikeRepository(dir.get())) {
			return Optional.empty();
		}
		return this.paths.locate(dir.get()).map(RepositoryPaths.Located::storage);
	}

	/**
	 * Removes, in every repository under the roots, the locks that refstore processes
	 * known to be gone left (this application killed while it wrote, a {@code refstore}
	 * command killed, a power cut): links to their owner records. git's locks and those
	 * of processes that may still run stay. What the application does at its start.
	 * @return how many locks were removed
	 */
	public int releaseAbandonedLocks() {
		int removed = 0;
		for (String name : names()) {
			try {
				Optional<Path> dir = this.paths.resolve(PARAMETER, name);
				if (dir.isPresent()) {
					try (Repository repository = Repository.open(dir.get(), Map.of())) {
						int released = ProcessLocks.releaseAbandoned(repository);
						if (released > 0) {
							log.info("removed {} lock(s) that dead refstore processes left in {}", released, name);
						}
						removed += released;
					}
				}
			}
			catch (IOException | RuntimeException ex) {
				log.warn("could not clear the locks dead refstore processes left in {}", name, ex);
			}
		}
		return removed;
	}

	/**
	 * Closes every cached store once no request uses it, then removes this application's
	 * lock records.
	 */
	@PreDestroy
	void close() {
		this.stores.close();
		try {
			this.locks.close();
		}
		catch (IOException ex) {
			// a record left behind is cleared at the next start, its owner gone
			log.warn("could not remove this application's lock records", ex);
		}
	}

}
