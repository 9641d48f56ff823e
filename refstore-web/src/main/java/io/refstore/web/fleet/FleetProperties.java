package io.refstore.web.fleet;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How this instance takes part in the fleet ({@code refstore.fleet.*}). The node's name
 * is {@code refstore.jobs.instance-id} and its storages are
 * {@code refstore.repositories.storages}; the database is the control plane.
 *
 * @param url the address other nodes reach this one at (default
 * {@code http://<host name>:<server.port>})
 * @param heartbeat how often the node tells the database it is alive (default 5 s)
 * @param downAfter how long without a heartbeat before the other nodes show this one down
 * and its repositories unavailable (default 20 s; at least twice {@code heartbeat})
 * @param inventoryRefresh how often the node records the repositories of its storages
 * (default 60 s)
 */
@ConfigurationProperties("refstore.fleet")
@Validated
public record FleetProperties(String url, @DefaultValue("5s") @DurationMin(millis = 100) Duration heartbeat,
		@DefaultValue("20s") Duration downAfter,
		@DefaultValue("60s") @DurationMin(seconds = 1) Duration inventoryRefresh) {

	public FleetProperties {
		if (downAfter.compareTo(heartbeat.multipliedBy(2)) < 0) {
			throw new IllegalArgumentException("refstore.fleet.down-after (" + downAfter
					+ ") must be at least twice refstore.fleet.heartbeat (" + heartbeat + ")");
		}
	}

}
