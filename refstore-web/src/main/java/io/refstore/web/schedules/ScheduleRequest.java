package io.refstore.web.schedules;

import java.time.Instant;
import java.util.Map;

/**
 * A schedule as a client creates or replaces it; {@link ScheduleService} checks every
 * field and names the one it refuses. Either {@code cron} (with {@code timeZone}, default
 * UTC) or {@code onceAt} is given.
 *
 * @param name the schedule's name (ignored by a replace, which takes it from the path)
 * @param jobType a job type ({@code maintain}, {@code verify}, {@code migrate}...)
 * @param targetKind {@code REPOSITORY}, {@code GLOB} or {@code LOOSE_REFS_ABOVE}
 * @param target the repository, the glob, or the threshold
 * @param parameters further job parameters
 * @param cron a Quartz cron expression, seconds first ({@code 0 0 2 * * ?} is 02:00
 * daily)
 * @param timeZone a zone id such as {@code Europe/Paris}
 * @param onceAt the one time to fire
 * @param misfire {@code SKIP} (default) or {@code RUN_ONCE}
 * @param paused whether to create it paused
 */
public record ScheduleRequest(String name, String jobType, String targetKind, String target,
		Map<String, String> parameters, String cron, String timeZone, Instant onceAt, String misfire, Boolean paused) {

}
