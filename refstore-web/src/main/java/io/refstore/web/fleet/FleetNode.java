package io.refstore.web.fleet;

import java.time.Instant;
import java.util.List;

/**
 * A node of the fleet as the database knows it.
 *
 * @param name the node's name ({@code refstore.jobs.instance-id})
 * @param url where other nodes reach it
 * @param version the refstore version it runs
 * @param startedAt when it last started
 * @param heartbeatAt its last heartbeat
 * @param inventoryAt when it last recorded its repositories, {@code null} if never
 * @param up whether its last heartbeat is recent enough
 * ({@code refstore.fleet.down-after})
 * @param heartbeatAgeMillis how long ago its last heartbeat was, by the database's clock
 * @param storages the storages it holds, by name
 * @param repositories how many repositories it recorded
 */
public record FleetNode(String name, String url, String version, Instant startedAt, Instant heartbeatAt,
		Instant inventoryAt, boolean up, long heartbeatAgeMillis, List<String> storages, long repositories) {

}
