package io.refstore.web.console.jobs;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.refstore.batch.support.JobSummary;

/**
 * The history chart's figures: for every ended execution, when it was created (x, seconds since the epoch),
 * how long it ran (seconds) and its throughput (items per second over all steps), as the JSON
 * {@code charts.js} reads. Only numbers and fixed labels go into it, so nothing needs escaping.
 */
final class JobCharts {

	private JobCharts() {
	}

	static String durationAndThroughput(List<JobSummary> jobs) {
		List<JobSummary> ended = new ArrayList<>(jobs.stream()
			.filter((job) -> job.started() != null && job.ended() != null)
			.toList());
		ended.sort((a, b) -> a.created().compareTo(b.created()));
		StringBuilder x = new StringBuilder();
		StringBuilder seconds = new StringBuilder();
		StringBuilder rate = new StringBuilder();
		for (JobSummary job : ended) {
			double duration = Math.max(0.001, Duration.between(job.started(), job.ended()).toMillis() / 1000.0);
			long items = job.steps().stream().mapToLong(JobSummary.StepSummary::done).sum();
			separate(x, seconds, rate);
			x.append(job.created().atZone(ZoneId.systemDefault()).toEpochSecond());
			seconds.append(String.format(Locale.ROOT, "%.3f", duration));
			rate.append(String.format(Locale.ROOT, "%.1f", items / duration));
		}
		return "{\"x\":[" + x + "],\"series\":[{\"label\":\"duration (s)\",\"scale\":\"s\",\"values\":[" + seconds
				+ "]},{\"label\":\"items/s\",\"scale\":\"rate\",\"values\":[" + rate + "]}]}";
	}

	private static void separate(StringBuilder... builders) {
		for (StringBuilder builder : builders) {
			if (builder.length() > 0) {
				builder.append(',');
			}
		}
	}

}
