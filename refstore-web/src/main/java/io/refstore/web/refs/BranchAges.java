package io.refstore.web.refs;

import java.util.List;

/**
 * A repository's branches ({@code refs/heads/}) by age and by whether the branch
 * {@code HEAD} names has merged them, for spotting what to clean up.
 *
 * @param base the branch merged is judged against, or {@code null} when there is none (an
 * unborn {@code HEAD}: then no branch counts as merged)
 * @param buckets the age buckets, youngest first
 * @param undated branches that point to no commit or tag (no date)
 * @param total every branch
 */
public record BranchAges(String base, List<Bucket> buckets, long undated, long total) {

	/**
	 * The branches of one age range: dated more than {@code olderThanDays} and at most
	 * {@code newerThanDays} days ago.
	 *
	 * @param label the range in words ({@code 30–90 days})
	 * @param olderThanDays the lower bound in days (0: none)
	 * @param newerThanDays the upper bound in days (0: none)
	 * @param merged how many of them are merged
	 * @param notMerged how many are not
	 */
	public record Bucket(String label, int olderThanDays, int newerThanDays, long merged, long notMerged) {
	}

}
