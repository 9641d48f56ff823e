package io.refstore.web.schedules;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.refstore.batch.api.RefJobType;

/**
 * A stored schedule with its state.
 *
 * @param name its unique name ({@code [A-Za-z0-9._-]}, 1 to 100 characters); jobs it
 * launches have actor {@code schedule:<name>}
 * @param jobType the job it launches
 * @param targetKind how {@code target} selects repositories
 * @param target a repository name, a glob over names, or the loose-ref threshold
 * @param parameters further job parameters (for example {@code targetFormat}), as text
 * @param cron a Quartz cron expression (seconds first), or {@code null} for a one-time
 * schedule
 * @param timeZone the zone the cron expression is read in
 * @param onceAt when a one-time schedule fires, or {@code null}
 * @param misfire what happens to fires missed while no instance ran
 * @param paused whether it is paused
 * @param createdBy who created it
 * @param lastFireAt when it last fired, or {@code null}
 * @param overruns how many times a fire found the previous run still going
 * @param lastOverrunAt when that last happened, or {@code null}
 * @param nextFireTimes the next five fire times (fewer for a one-time schedule), empty
 * while paused
 */
public record Schedule(String name, RefJobType jobType, TargetKind targetKind, String target,
		Map<String, String> parameters, String cron, String timeZone, Instant onceAt, Misfire misfire, boolean paused,
		String createdBy, Instant lastFireAt, int overruns, Instant lastOverrunAt, List<Instant> nextFireTimes) {

	/** How a schedule selects repositories. */
	public enum TargetKind {

		/** One repository by name. */
		REPOSITORY,

		/**
		 * Every repository whose name matches a glob ({@code *} within a path segment,
		 * {@code **} across).
		 */
		GLOB,

		/**
		 * Every repository with more loose refs than the threshold
		 * ({@code RefStore.statistics()}).
		 */
		LOOSE_REFS_ABOVE,

		/**
		 * The repositories listed when a campaign was made, its target saying how they
		 * were chosen (the dashboard's "Maintain all due"): a campaign's only, never
		 * asked for by a client ({@link ScheduleTargets#check} refuses it).
		 */
		LISTED

	}

	/** What a fire missed while no instance ran becomes. */
	public enum Misfire {

		/** Dropped; the schedule waits for its next fire time. */
		SKIP,

		/** Run once as soon as an instance is back, however many fires were missed. */
		RUN_ONCE

	}

}
