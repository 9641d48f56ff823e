package io.refstore.web.inventory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How fast a repository's refs grow, from its inventory history, and whether that is
 * faster than {@code refstore.inventory.growth-alert-per-week}.
 *
 * <p>
 * The rule: take the newest run, and the oldest run recorded at most {@link #WINDOW} (7
 * days) before it. Growth per week is the difference of their ref counts divided by the
 * time between them, in weeks, where a time shorter than {@link #SHORTEST} (one day)
 * counts as one day, so that two runs minutes apart are not extrapolated to a week. It is
 * negative when refs were deleted, and unknown ({@code null}) with a single run in the
 * window. A repository grows fast when its growth per week is strictly above the alert
 * rate. Each point of the console's growth chart applies the same rule to the runs up to
 * that point.
 *
 * @param perWeek refs gained per week (rounded), or {@code null} when unknown
 * @param since when the older run of the two was recorded, or {@code null}
 * @param until when the newer run was recorded, or {@code null} without runs
 * @param fast whether {@code perWeek} is above the alert rate
 */
public record Growth(Long perWeek, Instant since, Instant until, boolean fast) {

	/** How far back from the newest run the rule looks. */
	public static final Duration WINDOW = Duration.ofDays(7);

	/** The shortest time between two runs that the rule divides by. */
	public static final Duration SHORTEST = Duration.ofDays(1);

	/** No runs, or a single one: growth unknown. */
	static Growth unknown(Instant until) {
		return new Growth(null, null, until, false);
	}

	/**
	 * The growth from an older run to a newer one.
	 * @param alertPerWeek the rate above which it is fast
	 */
	static Growth between(long olderRefs, Instant olderAt, long newerRefs, Instant newerAt, long alertPerWeek) {
		Duration span = Duration.between(olderAt, newerAt);
		if (span.compareTo(SHORTEST) < 0) {
			span = SHORTEST;
		}
		double weeks = span.toMillis() / (double) Duration.ofDays(7).toMillis();
		long perWeek = Math.round((newerRefs - olderRefs) / weeks);
		return new Growth(perWeek, olderAt, newerAt, perWeek > alertPerWeek);
	}

	/**
	 * The growth at each run of a history, by the rule applied to the runs up to it.
	 * @param runs oldest first
	 * @return one growth per run, in the same order
	 */
	static List<Growth> series(List<InventoryRecord> runs, long alertPerWeek) {
		List<Growth> out = new ArrayList<>(runs.size());
		int oldest = 0;
		for (int i = 0; i < runs.size(); i++) {
			InventoryRecord newer = runs.get(i);
			Instant from = newer.recordedAt().minus(WINDOW);
			while (runs.get(oldest).recordedAt().isBefore(from)) {
				oldest++;
			}
			InventoryRecord older = runs.get(oldest);
			out.add((oldest == i) ? unknown(newer.recordedAt())
					: between(older.refs(), older.recordedAt(), newer.refs(), newer.recordedAt(), alertPerWeek));
		}
		return out;
	}

}
