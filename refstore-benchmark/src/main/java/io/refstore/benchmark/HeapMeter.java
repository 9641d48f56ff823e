package io.refstore.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * Measures the Java heap an in-process run takes: the growth of the heap's peak over the
 * level left after a full collection, and the bytes the running thread allocated.
 *
 * <p>
 * The peak is the sum of each heap pool's own peak, an upper bound of the true
 * simultaneous peak, and it counts garbage not yet collected: it says how much heap the
 * operation needed with this JVM's collector and sizing, not its live set. Allocation is
 * exact for work done on the calling thread (refstore's commands run on one). Not
 * thread-safe: one measurement at a time.
 */
final class HeapMeter {

	private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans()
		.stream()
		.filter((pool) -> pool.getType() == MemoryType.HEAP && pool.isValid())
		.toList();

	private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
		.getThreadMXBean();

	private long baseline;

	private long allocatedAtStart;

	/**
	 * Collects garbage (when {@code collect}), resets the pools' peaks and starts
	 * counting.
	 * @param collect whether to run a full collection first; without it the heap peak is
	 * not meaningful, but fast operations cannot afford one per run
	 */
	void start(boolean collect) {
		if (collect) {
			System.gc();
		}
		this.heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
		this.baseline = this.heapPools.stream().mapToLong((pool) -> pool.getUsage().getUsed()).sum();
		this.allocatedAtStart = this.threads.getCurrentThreadAllocatedBytes();
	}

	/** Bytes allocated by this thread since {@link #start(boolean)}. */
	long allocated() {
		return this.threads.getCurrentThreadAllocatedBytes() - this.allocatedAtStart;
	}

	/** How far the heap's peak rose above its level at {@link #start(boolean)}. */
	long peakGrowth() {
		long peak = this.heapPools.stream().mapToLong((pool) -> pool.getPeakUsage().getUsed()).sum();
		return Math.max(0, peak - this.baseline);
	}

}
