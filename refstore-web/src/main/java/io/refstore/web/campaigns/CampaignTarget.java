package io.refstore.web.campaigns;

import java.time.Instant;

/**
 * One repository of a campaign and its result.
 *
 * @param campaignId the campaign
 * @param position its place in the campaign's order (repository names sorted)
 * @param repository the repository name
 * @param state where it stands
 * @param executionId the job execution (the newest, after an automatic restart), or
 * {@code null} before launch
 * @param restarts how many times an execution interrupted by an instance's death was
 * restarted
 * @param detail why it failed, was skipped or cancelled, or the job's exit description;
 * may be {@code null}
 * @param startedAt when its job was launched, or {@code null}
 * @param endedAt when it got its result, or {@code null}
 */
public record CampaignTarget(long campaignId, int position, String repository, State state, Long executionId,
		int restarts, String detail, Instant startedAt, Instant endedAt) {

	/** Where a repository of a campaign stands. */
	public enum State {

		/** Not launched yet. */
		PENDING,

		/** Its job runs ({@code executionId}). */
		RUNNING,

		/** Its job completed. */
		DONE,

		/** Its job failed or could not be launched ({@code detail} says why). */
		FAILED,

		/**
		 * Another job held the repository when its turn came ({@code detail} names it).
		 */
		SKIPPED_BUSY,

		/** The campaign was cancelled before its turn. */
		CANCELLED;

		/** Whether the repository has its result. */
		public boolean ended() {
			return this != PENDING && this != RUNNING;
		}

	}

}
