package io.refstore.web.repos;

import java.util.Map;

/**
 * What the API tells about one repository.
 *
 * @param name the name to use in URLs (relative to its root, {@code /}-separated)
 * @param storage the storage holding it ({@code refstore.repositories.storages}): it is
 * also found as {@code <storage>/<name>}, on every node of the fleet
 * @param node the node whose storage it is ({@code refstore.jobs.instance-id})
 * @param format the ref storage format: {@code files} or {@code reftable}
 * @param objectFormat the object hash: {@code sha1} or {@code sha256}
 * @param bare whether the repository has no working tree
 * @param refCount how many refs exist under {@code refs/}
 * @param namespaces refs per top-level namespace ({@code refs/heads}, {@code refs/tags},
 * {@code refs/pull}, ...), in name order
 * @param looseRefs loose ref files (files format; 0 for reftable)
 * @param packedRefs records in {@code packed-refs} (files format; 0 for reftable)
 * @param tables tables in the reftable stack (0 for files)
 * @param bytes bytes on disk holding refs
 * @param maintenanceDue whether git's {@code pack-refs --auto} would pack or compact now
 * @param maintenanceReason why maintenance is or is not due
 */
public record RepoSummary(String name, String storage, String node, String format, String objectFormat, boolean bare,
		long refCount, Map<String, Long> namespaces, long looseRefs, long packedRefs, int tables, long bytes,
		boolean maintenanceDue, String maintenanceReason) {
}
