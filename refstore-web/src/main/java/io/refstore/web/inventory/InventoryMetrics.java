package io.refstore.web.inventory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.system.FleetReporter;
import io.refstore.web.system.RefWebProperties;
import io.refstore.web.system.RepositorySeries;

/**
 * Gauges of the inventory history, from the newest run of each repository (so every
 * instance sharing the database shows the same):
 * <ul>
 * <li>{@code refstore.inventory.refs}, {@code refstore.inventory.stale},
 * {@code refstore.inventory.merged} (tags {@code repository}, {@code namespace}): refs,
 * stale and merged refs per namespace; merged is absent for a run whose {@code HEAD}
 * named no commit</li>
 * <li>{@code refstore.inventory.growth.per.week} (tag {@code repository}): refs gained
 * per week by {@link Growth}'s rule, absent while unknown</li>
 * <li>{@code refstore.inventory.growing.fast} (tag {@code repository}): 1 above
 * {@code refstore.inventory.growth-alert-per-week}, else 0</li>
 * </ul>
 * Read again at every inventory job's end and every {@code refstore.metrics.refresh}. The
 * history is the fleet's: only the node {@link FleetReporter} names exports it, so that a
 * sum over the nodes counts each repository once. Only the
 * {@code refstore.metrics.top-repositories} (20) repositories with the most refs have
 * series of their own; the others' figures are added up under
 * {@value RepositorySeries#OTHER} (for {@code growing.fast}: how many grow fast).
 * Thread-safe: refreshes do not overlap.
 */
@Component
class InventoryMetrics implements SchedulingConfigurer {

	private static final Logger log = LoggerFactory.getLogger(InventoryMetrics.class);

	private final InventoryService inventory;

	private final RefWebProperties settings;

	private final FleetReporter reporter;

	private final MultiGauge refs;

	private final MultiGauge stale;

	private final MultiGauge merged;

	private final MultiGauge growth;

	private final MultiGauge fast;

	InventoryMetrics(InventoryService inventory, MeterRegistry meters, FleetReporter reporter,
			RefWebProperties settings) {
		this.inventory = inventory;
		this.reporter = reporter;
		this.settings = settings;
		this.refs = MultiGauge.builder("refstore.inventory.refs")
			.description("refs per namespace at the newest inventory")
			.register(meters);
		this.stale = MultiGauge.builder("refstore.inventory.stale")
			.description("stale refs per namespace at the newest inventory")
			.register(meters);
		this.merged = MultiGauge.builder("refstore.inventory.merged")
			.description("refs per namespace merged into HEAD's branch at the newest inventory")
			.register(meters);
		this.growth = MultiGauge.builder("refstore.inventory.growth.per.week")
			.description("refs gained per week over the last 7 days of inventories")
			.register(meters);
		this.fast = MultiGauge.builder("refstore.inventory.growing.fast")
			.description("1 if refs grow faster than refstore.inventory.growth-alert-per-week")
			.register(meters);
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		tasks.addFixedDelayTask(new FixedDelayTask(this::refresh, this.settings.metrics().refresh(),
				this.settings.metrics().initialDelay()));
	}

	/** Reads the newest runs again when an inventory job ends. */
	@EventListener
	void jobEvent(RefJobEvent event) {
		if (event.action() == RefJobEvent.Action.FINISH && RefJobType.INVENTORY.jobName().equals(event.job())) {
			refresh();
		}
	}

	/** Reads the newest run of every repository. */
	synchronized void refresh() {
		List<InventoryService.Latest> latest;
		try {
			latest = this.reporter.reporting() ? this.inventory.latestRuns() : List.of();
		}
		catch (RuntimeException ex) {
			log.warn("cannot read the inventory history: {}", ex.getMessage());
			return;
		}
		Map<String, Long> sizes = new HashMap<>();
		for (InventoryService.Latest repository : latest) {
			sizes.put(repository.repository(),
					repository.newest().namespaces().stream().mapToLong(InventoryRecord.Namespace::refs).sum());
		}
		RepositorySeries series = new RepositorySeries(sizes, this.settings.metrics().topRepositories());
		RepositorySeries.Rows refRows = series.rows();
		RepositorySeries.Rows staleRows = series.rows();
		RepositorySeries.Rows mergedRows = series.rows();
		RepositorySeries.Rows growthRows = series.rows();
		RepositorySeries.Rows fastRows = series.rows();
		for (InventoryService.Latest repository : latest) {
			String name = repository.repository();
			for (InventoryRecord.Namespace namespace : repository.newest().namespaces()) {
				Tags tags = Tags.of("namespace", namespace.namespace());
				refRows.add(name, tags, namespace.refs());
				staleRows.add(name, tags, namespace.stale());
				if (namespace.merged() != null) {
					mergedRows.add(name, tags, namespace.merged());
				}
			}
			if (repository.growth().perWeek() != null) {
				growthRows.add(name, Tags.empty(), repository.growth().perWeek());
			}
			fastRows.add(name, Tags.empty(), repository.growth().fast() ? 1 : 0);
		}
		this.refs.register(refRows.list(), true);
		this.stale.register(staleRows.list(), true);
		this.merged.register(mergedRows.list(), true);
		this.growth.register(growthRows.list(), true);
		this.fast.register(fastRows.list(), true);
	}

}
