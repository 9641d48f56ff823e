package io.refstore.web.schedules;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One fire of a schedule and what it did on each repository, as a "Run now" answers it:
 * the API's body, the console's message.
 *
 * @param schedule the schedule's name
 * @param scheduledAt the time that names the fire (its runs have it as
 * {@code scheduledAt})
 * @param runs its runs, one a repository (one without a repository when the selection
 * matched none or failed), in the order they were recorded
 */
public record ScheduleFire(String schedule, Instant scheduledAt, List<ScheduleRun> runs) {

	public ScheduleFire {
		runs = List.copyOf(runs);
	}

	/**
	 * How many runs ended each way, in words: {@code 2 launched, 1 queued}; {@code none}
	 * without runs.
	 */
	public String summary() {
		if (this.runs.isEmpty()) {
			return "nothing recorded";
		}
		Map<ScheduleRun.Outcome, Integer> counts = new TreeMap<>();
		for (ScheduleRun run : this.runs) {
			counts.merge(run.outcome(), 1, Integer::sum);
		}
		StringBuilder words = new StringBuilder();
		counts.forEach((outcome, count) -> words.append((words.length() > 0) ? ", " : "")
			.append(count)
			.append(' ')
			.append(outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ')));
		return words.toString();
	}

}
