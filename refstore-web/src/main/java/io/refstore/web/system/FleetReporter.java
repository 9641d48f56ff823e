package io.refstore.web.system;

import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.refstore.batch.api.ExclusiveWork;

/**
 * Decides which node exports the figures every node of a fleet would read alike from the
 * shared database (executions per type and status, running jobs, the inventory history),
 * so that a sum over the nodes' scrapes counts each once: the node holding the lease
 * {@value #ROLE} of {@link ExclusiveWork}, renewed by its heartbeat; when it stops or
 * dies, the next node to ask takes it over once the lease expired. The others export no
 * series of those gauges. {@code refstore_fleet_reporter} is 1 on the node that does, 0
 * elsewhere. A node on its own always does. Thread-safe.
 */
@Component
public class FleetReporter {

	/** The lease's name. */
	static final String ROLE = "fleet-metrics";

	private final ExclusiveWork work;

	private final AtomicBoolean reporting = new AtomicBoolean();

	FleetReporter(ExclusiveWork work, MeterRegistry meters) {
		this.work = work;
		Gauge.builder("refstore.fleet.reporter", this.reporting, (held) -> held.get() ? 1 : 0)
			.description("1 on the node that exports the fleet-wide figures of the shared database, else 0")
			.register(meters);
	}

	/**
	 * Whether this node exports the fleet-wide figures now; asked before each refresh of
	 * them (it claims or renews the role).
	 */
	public boolean reporting() {
		boolean held;
		try {
			held = this.work.holdAlone(ROLE);
		}
		catch (RuntimeException ex) {
			// the database is away: neither this node nor any other can read the figures
			held = false;
		}
		this.reporting.set(held);
		return held;
	}

}
