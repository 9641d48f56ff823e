package io.refstore.web.repos;

import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.StoreStatistics;

/**
 * One repository as the dashboard shows it: the API's summary (format, counts per
 * namespace) and what its ref store holds on disk, with git's verdict on whether
 * maintenance is due.
 *
 * @param summary name, format, object format and ref counts
 * @param statistics loose and packed refs or tables, bytes, maintenance due and why
 */
public record RepoHealth(RepoSummary summary, StoreStatistics statistics) {

	/** The repository name. */
	public String name() {
		return this.summary.name();
	}

	/**
	 * Whether the store is in the files format (loose and packed refs) rather than
	 * reftable (tables).
	 */
	public boolean files() {
		return this.statistics.format() == RefFormat.FILES;
	}

	/**
	 * How far the store is from tidy, for ordering worst first: loose refs for files
	 * (each one a file git must read), tables beyond the first for reftable (each one a
	 * merge on every read).
	 */
	public long untidiness() {
		return files() ? this.statistics.looseRefs() : Math.max(0, this.statistics.tables() - 1);
	}

}
