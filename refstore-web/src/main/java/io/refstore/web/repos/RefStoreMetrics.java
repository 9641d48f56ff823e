package io.refstore.web.repos;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
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
 * A repository that disappears loses its rows at the next refresh. Thread-safe: refreshes
 * do not overlap.
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

	/**
	 * @param demo made first, so that the first count sees the demo repositories
	 */
	RefStoreMetrics(RepoRegistry registry, MeterRegistry meters, DemoSetup demo, RefWebProperties settings) {
		this.registry = registry;
		this.first = settings.metrics().initialDelay();
		this.every = settings.metrics().refresh();
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
		List<MultiGauge.Row<?>> refRows = new ArrayList<>();
		List<List<MultiGauge.Row<?>>> storeRows = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
				new ArrayList<>(), new ArrayList<>());
		for (String name : this.registry.names()) {
			try (OpenRepo repo = this.registry.open(name)) {
				for (Map.Entry<String, Long> namespace : RefCounts.of(repo.store()).namespaces().entrySet()) {
					refRows.add(MultiGauge.Row.of(Tags.of("repository", name, "namespace", namespace.getKey()),
							namespace.getValue()));
				}
				StoreStatistics statistics = repo.store().statistics();
				Tags tags = Tags.of("repository", name);
				storeRows.get(0).add(MultiGauge.Row.of(tags, statistics.bytes()));
				storeRows.get(1).add(MultiGauge.Row.of(tags, statistics.looseRefs()));
				storeRows.get(2).add(MultiGauge.Row.of(tags, statistics.packedRefs()));
				storeRows.get(3).add(MultiGauge.Row.of(tags, statistics.tables()));
				storeRows.get(4).add(MultiGauge.Row.of(tags, statistics.maintenanceDue() ? 1 : 0));
			}
			catch (IOException | RuntimeException ex) {
				log.warn("cannot count the refs of repository '{}': {}", name, ex.getMessage());
			}
		}
		this.refs.register(refRows, true);
		this.bytes.register(storeRows.get(0), true);
		this.loose.register(storeRows.get(1), true);
		this.packed.register(storeRows.get(2), true);
		this.tables.register(storeRows.get(3), true);
		this.due.register(storeRows.get(4), true);
	}

}
