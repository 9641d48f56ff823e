package io.refstore.web.fleet;

import java.time.Duration;

import jakarta.validation.constraints.Min;

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
 * {@code http://<host name>:<server.port>}, {@code https://} if the server has SSL)
 * @param heartbeat how often the node tells the database it is alive (default 5 s)
 * @param downAfter how long without a heartbeat before the other nodes show this one down
 * and its repositories unavailable (default 20 s; at least twice {@code heartbeat})
 * @param inventoryRefresh how often the node records the repositories of its storages
 * (default 60 s)
 * @param secret the fleet's shared secret, the same on every node (at least 32 bytes:
 * {@code openssl rand -hex 32}): nodes sign the requests they forward to each other with
 * it; unset, a node neither forwards nor accepts forwarded requests. A node proves it at
 * start against the fleet's check in the database ({@link FleetTrust})
 * @param previousSecret during a rotation, another secret whose signatures this node
 * accepts too, and which proves the fleet's check as well; it never signs with it. To
 * rotate without downtime: give every node the new secret as {@code previous-secret}
 * (restarting them one at a time), then swap the two on every node, then drop
 * {@code previous-secret}
 * @param jobsPerNode how many of one campaign's or one schedule fire's jobs run at once
 * on one node (default 2)
 * @param sslBundle the SSL bundle ({@code spring.ssl.bundle.*}) whose certificates this
 * node trusts when it reaches other nodes at {@code https} addresses (and whose key it
 * presents if asked); unset, the JVM's default trust store. The node's own server may
 * serve the same bundle ({@code server.ssl.bundle})
 */
@ConfigurationProperties("refstore.fleet")
@Validated
public record FleetProperties(String url, @DefaultValue("5s") @DurationMin(millis = 100) Duration heartbeat,
		@DefaultValue("20s") Duration downAfter,
		@DefaultValue("60s") @DurationMin(seconds = 1) Duration inventoryRefresh, String secret, String previousSecret,
		@DefaultValue("2") @Min(1) int jobsPerNode, String sslBundle) {

	public FleetProperties {
		if (downAfter.compareTo(heartbeat.multipliedBy(2)) < 0) {
			throw new IllegalArgumentException("refstore.fleet.down-after (" + downAfter
					+ ") must be at least twice refstore.fleet.heartbeat (" + heartbeat + ")");
		}
	}

}
