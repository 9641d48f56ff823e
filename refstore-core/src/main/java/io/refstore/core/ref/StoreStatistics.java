package io.refstore.core.ref;

/**
 * What a ref store holds on disk, and whether git's maintenance
 * ({@code pack-refs --all --auto}) would act on it.
 *
 * <p>
 * For the files format, {@code looseRefs} counts the loose ref files under {@code refs/}
 * (root refs such as {@code HEAD} are never packed and are not counted),
 * {@code packedRefs} the records of {@code packed-refs} (a name both loose and packed
 * counts in both), and {@code bytes} is the size of {@code packed-refs} plus that of the
 * loose ref files; {@code tables} is 0. For reftable, {@code tables} counts the tables of
 * the stack and {@code bytes} their total size; the two ref counts are 0.
 *
 * <p>
 * {@code maintenanceDue} follows git's maintenance task, {@code pack-refs --all --auto}:
 * for files, when the loose refs it would pack (not symbolic, broken or per-worktree
 * ones) reach {@code max(16, 5 * floor(log2(size of packed-refs / 100)))}, so a bigger
 * {@code packed-refs} tolerates more loose refs before a rewrite pays off; for reftable,
 * when the table sizes are not a geometric sequence of the configured factor (git's
 * auto-compaction would merge some). {@code reason} says which figure decided, in words
 * for an operator.
 *
 * @param format the storage format
 * @param looseRefs loose ref files (files format)
 * @param packedRefs records in {@code packed-refs} (files format)
 * @param tables tables in the stack (reftable)
 * @param bytes bytes on disk holding refs
 * @param maintenanceDue whether git's {@code pack-refs --all --auto} would pack or
 * compact now
 * @param reason why maintenance is or is not due
 */
public record StoreStatistics(RefFormat format, long looseRefs, long packedRefs, int tables, long bytes,
		boolean maintenanceDue, String reason) {

	/**
	 * git's threshold of loose refs above which {@code pack-refs --auto} packs a files
	 * store.
	 * @param packedRefsSize the size of {@code packed-refs} in bytes (0 if it is missing)
	 */
	public static long looseRefLimit(long packedRefsSize) {
		long scaled = packedRefsSize / 100;
		int log2 = (scaled == 0) ? 0 : 63 - Long.numberOfLeadingZeros(scaled);
		return Math.max(16, 5L * log2);
	}

}
