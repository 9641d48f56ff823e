package io.refstore.web.fleet;

/**
 * What a node records of one repository of its storages.
 *
 * @param path the repository's name in its storage
 * @param format {@code files} or {@code reftable}; {@code null} if it could not be read
 * @param refs refs under {@code refs/} (loose and packed refs for files, whose packed
 * refs shadowed by loose ones count twice; records of the newest table's merged view for
 * reftable), {@code null} if unread
 * @param looseRefs loose ref files (files format; 0 for reftable)
 * @param bytes bytes on disk holding refs
 * @param maintenanceDue whether git's {@code pack-refs --auto} would pack or compact
 * @param error why the repository could not be read, or {@code null}
 */
record FleetRepositoryRow(String path, String format, Long refs, Long looseRefs, Long bytes, Boolean maintenanceDue,
		String error) {

}
