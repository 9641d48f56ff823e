package io.refstore.benchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one operation measured on each side.
 *
 * @param operation the operation
 * @param git git as a whole process
 * @param process the refstore command as a whole process
 * @param command the refstore command's code run in the benchmark JVM, warm
 * ({@code Refstore.run})
 * @param api the core API in the benchmark JVM, warm
 */
record OperationResult(Operation operation, Side git, Side process, Side command, Side api) {

	/**
	 * The runs of one side.
	 *
	 * @param wallNanos the timed runs' wall times, in run order
	 * @param peakRssKib the largest peak RSS of a run in KiB, or -1 if not measured
	 * @param heapPeakBytes the median growth of the heap's peak, or -1 if not measured
	 * @param allocatedBytes the median bytes allocated per run, or -1 if not measured
	 * @param problem why the numbers are missing or must not be trusted, or {@code null}
	 * @param failed whether the problem is a failure (a run failed or timed out, or its
	 * result differs from git's), not merely something this side cannot run
	 */
	record Side(List<Long> wallNanos, long peakRssKib, long heapPeakBytes, long allocatedBytes, String problem,
			boolean failed) {

		Side {
			wallNanos = List.copyOf(wallNanos);
		}

		/**
		 * A side that did not run, and why ({@code null}: it has nothing to run); not a
		 * failure.
		 */
		static Side missing(String why) {
			return new Side(List.of(), -1, -1, -1, why, false);
		}

		/** Whether there is a median to show. */
		boolean measured() {
			return !this.wallNanos.isEmpty();
		}

		/**
		 * The median wall time in nanoseconds (the mean of the middle two for an even
		 * count).
		 */
		long medianNanos() {
			return median(this.wallNanos);
		}

	}

	/**
	 * The median of {@code values}.
	 * @throws IllegalArgumentException if there are none
	 */
	static long median(List<Long> values) {
		if (values.isEmpty()) {
			throw new IllegalArgumentException("no values to take the median of");
		}
		List<Long> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
