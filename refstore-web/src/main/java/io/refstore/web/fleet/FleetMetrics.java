package io.refstore.web.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.refstore.web.system.FleetReporter;
import io.refstore.web.system.RefWebProperties;

/**
 * The fleet's nodes as the database sees them: {@code refstore.fleet.node.up} (tag
 * {@code node}) is 1 for a node whose heartbeat is younger than
 * {@code refstore.fleet.down-after}, 0 for one shown down (until an operator retires it).
 * Unlike Prometheus's own {@code up}, which says whether a scrape reached the node, it
 * says whether the node still takes part in the fleet: takes its hand-offs, renews its
 * leases. A fleet-wide figure, exported only by the node {@link FleetReporter} names,
 * every {@code refstore.metrics.jobs-refresh} (10s). Thread-safe: refreshes do not
 * overlap.
 */
@Component
class FleetMetrics implements SchedulingConfigurer {

	private static final Logger log = LoggerFactory.getLogger(FleetMetrics.class);

	private final FleetStore store;

	private final FleetProperties properties;

	private final FleetReporter reporter;

	private final MultiGauge up;

	private final Duration every;

	FleetMetrics(FleetStore store, FleetProperties properties, FleetReporter reporter, MeterRegistry meters,
			RefWebProperties settings) {
		this.store = store;
		this.properties = properties;
		this.reporter = reporter;
		this.every = settings.metrics().jobsRefresh();
		this.up = MultiGauge.builder("refstore.fleet.node.up")
			.description("1 for a node of the fleet whose heartbeat is recent, 0 for one shown down")
			.register(meters);
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		tasks.addFixedDelayTask(new FixedDelayTask(this::refresh, this.every, Duration.ZERO));
	}

	/** Reads the nodes again. */
	synchronized void refresh() {
		List<MultiGauge.Row<?>> rows = new ArrayList<>();
		try {
			if (this.reporter.reporting()) {
				for (FleetNode node : this.store.nodes(this.properties.downAfter())) {
					rows.add(MultiGauge.Row.of(Tags.of("node", node.name()), node.up() ? 1 : 0));
				}
			}
		}
		catch (RuntimeException ex) {
			log.warn("cannot read the fleet's nodes: {}", ex.getMessage());
			return;
		}
		this.up.register(rows, true);
	}

}
