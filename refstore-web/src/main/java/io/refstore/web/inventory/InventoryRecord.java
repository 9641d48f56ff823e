package io.refstore.web.inventory;

import java.time.Instant;
import java.util.List;

/**
 * One run of the inventory history as the API and the console show it: a repository's
 * refs per namespace, stale and merged ones, and what its store held on disk, when
 * {@code inventoryRefsJob} execution {@code jobExecutionId} counted them. Namespaces,
 * stale and merged are defined by the job ({@code RefInventory}).
 *
 * @param jobExecutionId the execution that counted
 * @param repository the repository's name
 * @param recordedAt when the refs were read
 * @param format {@code files} or {@code reftable}
 * @param refs every namespace's refs
 * @param stale every namespace's stale refs
 * @param merged every namespace's merged refs, {@code null} when {@code HEAD} named no
 * commit
 * @param base what merged is judged against ({@code refs/heads/main}), or {@code null}
 * @param looseRefs loose ref files (files), {@code null} for reftable
 * @param packedRefs records in {@code packed-refs} (files), {@code null} for reftable
 * @param tables tables in the stack (reftable), {@code null} for files
 * @param bytes bytes on disk holding refs
 * @param namespaces per namespace, in name order
 */
public record InventoryRecord(long jobExecutionId, String repository, Instant recordedAt, String format, long refs,
		long stale, Long merged, String base, Long looseRefs, Long packedRefs, Integer tables, long bytes,
		List<Namespace> namespaces) {

	/**
	 * One namespace of a run.
	 *
	 * @param namespace {@code refs/heads}
	 * @param refs its refs
	 * @param stale its stale refs
	 * @param merged its merged refs, or {@code null} without a base
	 */
	public record Namespace(String namespace, long refs, long stale, Long merged) {

	}

}
