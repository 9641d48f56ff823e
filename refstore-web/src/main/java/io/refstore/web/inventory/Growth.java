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
 * days) before it. Their change is the difference of their ref counts (negative when refs
 * were deleted). Growth per week is the change divided by the time between them, in
 * weeks, once that time is at least {@link #SHORTEST} (one day): two runs minutes apart
 * tell the change, not a weekly rate (one ref added in 11 minutes is not 7 a week). Both
 * are unknown ({@code null}) with a single run in the window. A repository grows fast
 * when its growth per week is strictly above the alert rate, or, between runs less than a
 * day apart, when the change alone is: more than a week's worth already. Each point of
 * the console's growth chart applies the same rule to the runs up to that point.
 *
 * @param perWeek refs gained per week (rounded), or {@code null} when unknown
 * @param change refs gained from {@code since} to {@code until}, or {@code null}
 * @param since when the older run of the two was recorded, or {@code null}
 * @param until when the newer run was recorded, or {@code null} without runs
 * @param fast whether the growth is above the alert rate
 */
public record Growth(Long perWeek, Long change, Instant since, Instant until, boolean fast) {

	/** How far back from the newest run the rule looks. */
	public static final Duration WINDOW = Duration.ofDays(7);

	/** The shortest time between two runs that tells a rate per week. */
	public static final Duration SHORTEST = Duration.ofDays(1);

	/** No runs, or a single one: growth unknown. */
	static Growth unknown(Instant until) {
		return new Growth(null, null, null, until, false);
	}

	/**
	 * The growth from an older run to a newer one.
	 * @param alertPerWeek the rate above which it is fast
	 */
	static Growth between(long olderRefs, Instant olderAt, long newerRefs, Instant newerAt, long alertPerWeek) {
		long change = newerRefs - olderRefs;
		Duration span = Duration.between(olderAt, newerAt);
		if (span.compareTo(SHORTEST) < 0) {
			return new Growth(null, change, olderAt, newerAt, change > alertPerWeek);
		}
		double weeks = span.toMillis() / (double) Duration.ofDays(7).toMillis();
		long perWeek = Math.round(change / weeks);
		return new Growth(perWeek, change, olderAt, newerAt, perWeek > alertPerWeek);
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
