package io.refstore.batch.api;

import java.time.Instant;
import java.util.List;

/**
 * One inventory of a repository's refs, as {@code inventoryRefsJob} takes it: per
 * namespace how many refs there are, how many are stale and how many are merged, and what
 * the store holds on disk. The inventory history is a series of these, one per run.
 *
 * <p>
 * A namespace is the first level under {@code refs/}, named without its trailing slash as
 * the dashboard and the {@code refstore_refs} gauge name it: {@code refs/heads},
 * {@code refs/tags}, {@code refs/pull}; a ref with no level below it ({@code refs/stash})
 * is a namespace of its own. Root refs such as {@code HEAD} are in none. A ref is stale
 * when its creator date (git's {@code %(creatordate)}: the tagger's date of an annotated
 * tag, the committer's date of a commit) is older than {@code recordedAt} minus the
 * {@code refstore.inventory.stale-after} setting; a value without a date (a tree, a blob,
 * a missing object) is never stale. A ref is merged when the commit it peels to is
 * reachable from {@code base}, as {@code for-each-ref --merged} judges it. The disk
 * figures are the store's ({@code RefStore.statistics()}), per repository: a files store
 * has loose and packed counts and no tables, a reftable store tables and no loose or
 * packed counts.
 *
 * @param repository the repository's name as given at launch
 * @param recordedAt when the refs were read; staleness is judged against it
 * @param format the store's format, {@code files} or {@code reftable}
 * @param loose loose ref files (files format), {@code null} for reftable
 * @param packed records in {@code packed-refs} (files format), {@code null} for reftable
 * @param tables tables in the stack (reftable), {@code null} for files
 * @param bytes bytes on disk holding refs
 * @param base the ref merged counts are judged against: the branch {@code HEAD} names
 * ({@code refs/heads/main}), or {@code HEAD} itself when it is detached; {@code null}
 * when {@code HEAD} is unborn, missing or names no commit, and then every merged count is
 * {@code null} too
 * @param namespaces the namespaces in name order, those without refs left out
 */
public record RefInventory(String repository, Instant recordedAt, String format, Long loose, Long packed,
		Integer tables, long bytes, String base, List<Namespace> namespaces) {

	public RefInventory {
		namespaces = List.copyOf(namespaces);
	}

	/**
	 * One namespace's counts.
	 *
	 * @param name the namespace, {@code refs/heads}
	 * @param refs its refs, symbolic ones included
	 * @param stale its refs whose creator date is older than the stale limit
	 * @param merged its refs merged into the base, or {@code null} without a base
	 */
	public record Namespace(String name, long refs, long stale, Long merged) {

	}

	/** The refs under {@code refs/}: every namespace's. */
	public long refs() {
		return this.namespaces.stream().mapToLong(Namespace::refs).sum();
	}

	/** The stale refs of every namespace. */
	public long stale() {
		return this.namespaces.stream().mapToLong(Namespace::stale).sum();
	}

	/** The merged refs of every namespace, or {@code null} without a base. */
	public Long merged() {
		return (this.base == null) ? null : this.namespaces.stream().mapToLong((namespace) -> namespace.merged()).sum();
	}

}
