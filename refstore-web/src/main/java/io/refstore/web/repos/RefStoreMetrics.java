package io.refstore.web.repos;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.web.system.RefWebProperties;
import io.refstore.web.system.RepositorySeries;

/**
 * Ref-store gauges for every repository under the roots, refreshed in the background
 * (counting refs reads every ref, too slow to do on each scrape of a million-ref
 * repository):
 * <ul>
 * <li>{@code refstore.refs} (tags {@code repository}, {@code namespace}): refs per
 * top-level namespace</li>
 * <li>{@code refstore.store.bytes}, {@code refstore.store.loose.refs},
 * {@code refstore.store.packed.refs}, {@code refstore.store.tables} (tag
 * {@code repository})</li>
 * <li>{@code refstore.store.maintenance.due} (tag {@code repository}): 1 if git's
 * {@code pack-refs --auto} would act</li>
 * </ul>
 * The {@code refstore.metrics.top-repositories} (20) repositories with the most refs have
 * series of their own, the others' figures are added up under
 * {@value RepositorySeries#OTHER} ({@link RepositorySeries}); for it,
 * {@code refstore.store.maintenance.due} is how many are due. A repository that
 * disappears loses its rows at the next refresh. Thread-safe: refreshes do not overlap.
 */
@Component
class RefStoreMetrics implements SchedulingConfigurer {

	private static final Logger log = LoggerFactory.getLogger(RefStoreMetrics.class);

	private final RepoRegistry registry;

	private final MultiGauge refs;

	private final MultiGauge bytes;

	private final MultiGauge loose;

	private final MultiGauge packed;

	private final MultiGauge tables;

	private final MultiGauge due;

	private final Duration first;

	private final Duration every;

	private final int top;

	/**
	 * @param demo made first, so that the first count sees the demo repositories
	 */
	RefStoreMetrics(RepoRegistry registry, MeterRegistry meters, DemoSetup demo, RefWebProperties settings) {
		this.registry = registry;
		this.first = settings.metrics().initialDelay();
		this.every = settings.metrics().refresh();
		this.top = settings.metrics().topRepositories();
		this.refs = MultiGauge.builder("refstore.refs").description("refs per top-level namespace").register(meters);
		this.bytes = MultiGauge.builder("refstore.store.bytes")
			.description("bytes of a repository's ref store on disk")
			.baseUnit("bytes")
			.register(meters);
		this.loose = MultiGauge.builder("refstore.store.loose.refs")
			.description("loose refs of a files store (one file each)")
			.register(meters);
		this.packed = MultiGauge.builder("refstore.store.packed.refs")
			.description("refs in a files store's packed-refs")
			.register(meters);
		this.tables = MultiGauge.builder("refstore.store.tables")
			.description("tables in a reftable store's stack")
			.register(meters);
		this.due = MultiGauge.builder("refstore.store.maintenance.due")
			.description("1 if git's pack-refs --auto would pack or compact the store, else 0")
			.register(meters);
	}

	/**
	 * Recounts every repository {@code refstore.metrics.initial-delay} (0s) after the
	 * start, then every {@code refstore.metrics.refresh} (60s).
	 */
	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		tasks.addFixedDelayTask(new FixedDelayTask(this::refresh, this.every, this.first));
	}

	/** Recounts every repository. */
	synchronized void refresh() {
		Map<String, Counted> counted = new HashMap<>();
		for (String name : this.registry.names()) {
			try (OpenRepo repo = this.registry.open(name)) {
				counted.put(name, new Counted(RefCounts.of(repo.store()).namespaces(), repo.store().statistics()));
			}
			catch (IOException | RuntimeException ex) {
				log.warn("cannot count the refs of repository '{}': {}", name, ex.getMessage());
			}
		}
		Map<String, Long> sizes = new HashMap<>();
		counted.forEach((name, repo) -> sizes.put(name, repo.refs()));
		RepositorySeries series = new RepositorySeries(sizes, this.top);
		RepositorySeries.Rows refRows = series.rows();
		List<RepositorySeries.Rows> storeRows = List.of(series.rows(), series.rows(), series.rows(), series.rows(),
				series.rows());
		counted.forEach((name, repo) -> {
			repo.namespaces().forEach((namespace, refs) -> refRows.add(name, Tags.of("namespace", namespace), refs));
			StoreStatistics statistics = repo.statistics();
			storeRows.get(0).add(name, Tags.empty(), statistics.bytes());
			storeRows.get(1).add(name, Tags.empty(), statistics.looseRefs());
			storeRows.get(2).add(name, Tags.empty(), statistics.packedRefs());
			storeRows.get(3).add(name, Tags.empty(), statistics.tables());
			storeRows.get(4).add(name, Tags.empty(), statistics.maintenanceDue() ? 1 : 0);
		});
		this.refs.register(refRows.list(), true);
		this.bytes.register(storeRows.get(0).list(), true);
		this.loose.register(storeRows.get(1).list(), true);
		this.packed.register(storeRows.get(2).list(), true);
		this.tables.register(storeRows.get(3).list(), true);
		this.due.register(storeRows.get(4).list(), true);
	}

	/** One repository's counts. */
	private record Counted(Map<String, Long> namespaces, StoreStatistics statistics) {

		long refs() {
			return this.namespaces.values().stream().mapToLong(Long::longValue).sum();
		}

	}

}
