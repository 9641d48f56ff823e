package io.refstore.web.fleet;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A repository as the fleet knows it.
 *
 * @param storage the storage holding it
 * @param path its name in the storage
 * @param node the node whose storage it is
 * @param format {@code files} or {@code reftable}, {@code null} if its node could not
 * read it
 * @param refs how many refs it holds, as its node last counted
 * @param looseRefs its loose ref files (files format), as its node last counted
 * @param bytes bytes on disk holding refs
 * @param maintenanceDue whether maintenance is due
 * @param error why its node could not read it, or {@code null}
 * @param seenAt when its node last recorded it
 * @param available whether its node is up (a repository of a node that is down is
 * unavailable: what is shown of it is what was last seen)
 */
public record FleetRepository(String storage, String path, String node, String format, Long refs, Long looseRefs,
		Long bytes, Boolean maintenanceDue, String error, Instant seenAt, boolean available) {

	/** {@code <storage>/<path>}: the name that finds it on every node. */
	@JsonProperty("name")
	public String name() {
		return this.storage + "/" + this.path;
	}

}
