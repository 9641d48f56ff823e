package io.refstore.web.campaigns;

import java.time.Instant;
import java.util.Map;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.schedules.Schedule;

/**
 * A stored campaign: one job type run over the repositories a selection chose when it was
 * created, at most {@code concurrency} at a time. Its jobs run with actor
 * {@code campaign:<id>}.
 *
 * @param id its id
 * @param jobType the job every repository gets
 * @param targetKind how {@code target} selected the repositories (as schedules select
 * them)
 * @param target a repository name, a glob over names, or a loose-ref threshold
 * @param parameters further job parameters, as text
 * @param concurrency how many of its jobs may run at once
 * @param state {@code RUNNING} until no repository is pending or running, then
 * {@code FINISHED}, or {@code CANCELLED} if it was cancelled
 * @param cancelRequested whether a cancel was asked for (pending repositories are then
 * not launched)
 * @param createdBy who created it
 * @param createdAt when
 * @param endedAt when it ended, or {@code null}
 * @param counts how many repositories are in each {@link CampaignTarget.State}, every
 * state present
 */
public record Campaign(long id, RefJobType jobType, Schedule.TargetKind targetKind, String target,
		Map<String, String> parameters, int concurrency, State state, boolean cancelRequested, String createdBy,
		Instant createdAt, Instant endedAt, Map<CampaignTarget.State, Integer> counts) {

	/** Where a campaign stands. */
	public enum State {

		/** Repositories are pending or running. */
		RUNNING,

		/** Every repository has a result. */
		FINISHED,

		/** Cancelled: the repositories still pending then were not launched. */
		CANCELLED

	}

	/** The actor of the jobs campaign {@code id} launches. */
	public static String actor(long id) {
		return "campaign:" + id;
	}

	/** How many repositories the campaign covers. */
	public int total() {
		return this.counts.values().stream().mapToInt(Integer::intValue).sum();
	}

	/** How many repositories have their result ({@link CampaignTarget.State#ended()}). */
	public int ended() {
		return this.counts.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().ended())
			.mapToInt(Map.Entry::getValue)
			.sum();
	}

}
