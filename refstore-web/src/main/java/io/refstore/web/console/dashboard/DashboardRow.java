package io.refstore.web.console.dashboard;

import io.refstore.web.fleet.FleetRepository;
import io.refstore.web.repos.RepoSummary;

/**
 * One repository of a dashboard page: what the fleet's inventory recorded of it (which
 * the page was selected and ordered by), and, for a repository of this node, what its
 * store holds now (counts per namespace, packed refs or tables, why maintenance is due),
 * read for the page's rows only.
 *
 * @param name the one name of the repository ({@code storage/path} while the fleet has
 * several storages, else its path)
 * @param stored what its node's inventory last recorded
 * @param live what its store holds now, or {@code null} for a repository of another node
 * or one that could not be read now
 */
public record DashboardRow(String name, FleetRepository stored, RepoSummary live) {

	/** {@code files} or {@code reftable}; {@code null} if unreadable. */
	public String format() {
		return (this.live != null) ? this.live.format() : this.stored.format();
	}

	/** Whether the store is in the files format (loose and packed refs). */
	public boolean files() {
		return "files".equals(format());
	}

	/** How many refs it holds, or {@code null} if unknown. */
	public Long refs() {
		return (this.live != null) ? Long.valueOf(this.live.refCount()) : this.stored.refs();
	}

	/** Its loose ref files, or {@code null} if unknown. */
	public Long looseRefs() {
		return (this.live != null) ? Long.valueOf(this.live.looseRefs()) : this.stored.looseRefs();
	}

	/** Bytes on disk holding refs, or {@code null} if unknown. */
	public Long bytes() {
		return (this.live != null) ? Long.valueOf(this.live.bytes()) : this.stored.bytes();
	}

	/** Whether maintenance is due, or {@code null} if unknown. */
	public Boolean due() {
		return (this.live != null) ? Boolean.valueOf(this.live.maintenanceDue()) : this.stored.maintenanceDue();
	}

}
