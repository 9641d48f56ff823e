package io.refstore.web.fleet;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;

import jakarta.annotation.PreDestroy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.repo.DiscoveredRepositories;
import io.refstore.core.repo.RepositoryDiscovery;
import io.refstore.core.repo.RepositoryPaths;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoNotFoundException;
import io.refstore.web.repos.RepoProperties;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.repos.RepoService;
import io.refstore.web.repos.RepoSummary;

/**
 * This instance as a node of the fleet: once started it registers itself and claims its
 * storages in the database (refusing to start if another node holds one of them), then
 * renews its heartbeat every {@code refstore.fleet.heartbeat} and records the
 * repositories of its storages every {@code refstore.fleet.inventory-refresh}. A single
 * node on H2 does the same, in its own database. Thread-safe.
 */
@Component
public class FleetMembership {

	private static final Logger logger = LoggerFactory.getLogger(FleetMembership.class);

	/** The file in a storage's root that holds the storage's id. */
	static final String STORAGE_ID_FILE = ".refstore-storage";

	private final FleetStore store;

	private final FleetProperties properties;

	private final RepoRegistry registry;

	private final RepoService repos;

	private final int maxDepth;

	private final FleetTrust trust;

	/**
	 * The application's task scheduler: its pool has a thread for each periodic task of a
	 * node ({@code spring.task.scheduling.pool.size}), so a long inventory never holds
	 * back the heartbeat, or the node would be shown down while it works.
	 */
	private final TaskScheduler scheduler;

	private final String node;

	private volatile String url;

	/** When this node started before this start, if it had been registered. */
	private volatile Optional<Instant> previousStart = Optional.empty();

	private final List<ScheduledFuture<?>> tasks = new ArrayList<>();

	/**
	 * What the last inventory's walk of this node's storages skipped, and why; empty
	 * before the first inventory.
	 */
	private volatile DiscoveredRepositories walked;

	FleetMembership(FleetStore store, FleetProperties properties, RepoRegistry registry, RepoService repos,
			RepoProperties repoProperties, RefJobs jobs, FleetTrust trust, TaskScheduler scheduler) {
		this.scheduler = scheduler;
		this.store = store;
		this.trust = trust;
		this.properties = properties;
		this.registry = registry;
		this.repos = repos;
		this.maxDepth = repoProperties.maxDepth();
		this.node = jobs.instanceId();
		this.url = properties.url();
	}

	/** This node's name. */
	public String node() {
		return this.node;
	}

	/** Whether this node holds the storage {@code name}. */
	boolean holds(String storage) {
		return this.registry.storages().containsKey(storage);
	}

	/**
	 * Where the web server listens, for the default URL other nodes use: {@code https} if
	 * the server has SSL ({@code server.ssl.*}).
	 */
	@EventListener
	void onWebServer(WebServerInitializedEvent event) throws IOException {
		if (this.url == null && event.getWebServer().getPort() > 0) {
			Ssl ssl = Binder.get(event.getApplicationContext().getEnvironment())
				.bind("server.ssl", Ssl.class)
				.orElse(null);
			this.url = (Ssl.isEnabled(ssl) ? "https" : "http") + "://" + InetAddress.getLocalHost().getHostName() + ":"
					+ event.getWebServer().getPort();
		}
	}

	@EventListener(ApplicationStartedEvent.class)
	void start() throws IOException {
		this.previousStart = register();
		synchronized (this.tasks) {
			Duration beat = this.properties.heartbeat();
			this.tasks.add(this.scheduler.scheduleWithFixedDelay(this::heartbeat, Instant.now().plus(beat), beat));
			this.tasks.add(this.scheduler.scheduleWithFixedDelay(this::refreshInventory, Instant.now(),
					this.properties.inventoryRefresh()));
		}
	}

	/**
	 * When this node had started before this start (database time), if it had been
	 * registered: the work it ran since then was interrupted by its stop.
	 */
	public Optional<Instant> previousStart() {
		return this.previousStart;
	}

	private Optional<Instant> register() throws IOException {
		Map<String, FleetStore.StorageClaim> storages = new LinkedHashMap<>();
		for (Map.Entry<String, Path> storage : this.registry.storages().entrySet()) {
			storages.put(storage.getKey(),
					new FleetStore.StorageClaim(storage.getValue().toString(), storageId(storage.getValue())));
		}
		String version = FleetMembership.class.getPackage().getImplementationVersion();
		Optional<Instant> previous = this.store.register(this.node, this.url, version, this.trust.check(),
				this.trust.previousCheck(), storages);
		logger.info("Fleet node '{}' registered at {} with storages {}", this.node, this.url, storages.keySet());
		return previous;
	}

	/**
	 * The id of the storage whose root is {@code root}, from the file
	 * {@value #STORAGE_ID_FILE} in it, written with a new random id on first use: nodes
	 * that mount one directory read one id, so the fleet knows they share it.
	 */
	static String storageId(Path root) throws IOException {
		Path file = root.resolve(STORAGE_ID_FILE);
		if (!Files.exists(file)) {
			Path temporary = Files.createTempFile(root, STORAGE_ID_FILE, ".tmp");
			try {
				Files.writeString(temporary, UUID.randomUUID() + "\n", StandardCharsets.US_ASCII);
				// a node starting at the same moment on the same directory may win: its
				// id is the one both keep
				Files.createLink(file, temporary);
			}
			catch (FileAlreadyExistsException ex) {
				// the other node's
			}
			finally {
				Files.deleteIfExists(temporary);
			}
		}
		String id = Files.readString(file, StandardCharsets.US_ASCII).strip();
		if (id.isEmpty() || id.length() > 64) {
			throw new IllegalStateException("the storage id in " + file + " is malformed");
		}
		return id;
	}

	/** Renews the heartbeat; registers again if an operator retired this node. */
	void heartbeat() {
		try {
			if (!this.store.heartbeat(this.node)) {
				logger.warn("Fleet node '{}' was retired while it ran: registering again", this.node);
				register();
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Fleet heartbeat of node '{}' failed: {}", this.node, ex.toString());
		}
	}

	/**
	 * Records the repositories of every storage of this node: each with its format, ref
	 * count, bytes and whether maintenance is due (counts come from the registry's cache,
	 * read again only for a store that changed).
	 */
	public void refreshInventory() {
		Map<DiscoveredRepositories.SkipReason, Long> skipped = new EnumMap<>(DiscoveredRepositories.SkipReason.class);
		Map<DiscoveredRepositories.SkipReason, String> firstSkipped = new EnumMap<>(
				DiscoveredRepositories.SkipReason.class);
		boolean several = this.registry.storages().size() > 1;
		for (Map.Entry<String, Path> storage : this.registry.storages().entrySet()) {
			try {
				DiscoveredRepositories found = new RepositoryDiscovery(new RepositoryPaths(List.of(storage.getValue())),
						this.maxDepth)
					.discover();
				found.skipped().forEach((reason, count) -> skipped.merge(reason, count, Long::sum));
				found.firstSkipped()
					.forEach((reason, first) -> firstSkipped.putIfAbsent(reason,
							several ? storage.getKey() + "/" + first : first));
				this.store.replaceInventory(this.node, storage.getKey(), inventory(storage.getKey(), found.names()));
			}
			catch (IOException | RuntimeException ex) {
				logger.warn("Fleet inventory of storage '{}' failed: {}", storage.getKey(), ex.toString());
			}
		}
		this.walked = new DiscoveredRepositories(List.of(), skipped, firstSkipped, this.maxDepth);
	}

	/**
	 * What the last inventory's walk of this node's storages skipped (deeper than
	 * {@code refstore.repositories.max-depth}, unreadable...), its names left out; empty
	 * if no inventory ran yet.
	 */
	public Optional<DiscoveredRepositories> walked() {
		return Optional.ofNullable(this.walked);
	}

	/**
	 * Records a repository of this node again when a job on it ends (a maintenance packed
	 * its loose refs, a migration changed its format), so that the dashboard does not
	 * show it as it was until the next inventory.
	 */
	@EventListener
	void onJobEvent(RefJobEvent event) {
		if (event.action() != RefJobEvent.Action.FINISH || event.repository() == null) {
			return;
		}
		try {
			Optional<RepositoryPaths.Located> located;
			try (OpenRepo repo = this.registry.open(event.repository())) {
				located = this.registry.locate(repo);
			}
			located.ifPresent((where) -> inventory(where.storage(), List.of(where.name()))
				.forEach((row) -> this.store.replaceOne(this.node, where.storage(), row)));
		}
		catch (IOException | RuntimeException ex) {
			// not here, or gone: the next inventory records what there is
			logger.debug("Fleet record of '{}' after its job failed: {}", event.repository(), ex.toString());
		}
	}

	private List<FleetRepositoryRow> inventory(String storage, List<String> names) {
		List<FleetRepositoryRow> rows = new ArrayList<>(names.size());
		for (String name : names) {
			try {
				RepoSummary summary = this.repos.summaryOf(storage + "/" + name);
				rows.add(new FleetRepositoryRow(name, summary.format(), summary.refCount(), summary.looseRefs(),
						summary.bytes(), summary.maintenanceDue(), null));
			}
			catch (RepoNotFoundException ex) {
				// removed since the walk
			}
			catch (IOException | RuntimeException ex) {
				rows.add(new FleetRepositoryRow(name, null, null, null, null, null, ex.getClass().getSimpleName()));
			}
		}
		return rows;
	}

	@PreDestroy
	void stop() {
		synchronized (this.tasks) {
			this.tasks.forEach((task) -> task.cancel(false));
			this.tasks.clear();
		}
	}

}
