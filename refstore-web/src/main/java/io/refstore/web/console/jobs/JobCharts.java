package io.refstore.web.console.jobs;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

import io.refstore.batch.support.JobSummary;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history chart's figures: for every ended execution, when it was created (x, seconds
 * since the epoch), how long it ran (seconds) and its throughput (items per second over
 * all steps), as the JSON {@code charts.js} reads, written by the application's mapper.
 */
@Component
class JobCharts {

	private final JsonMapper json;

	JobCharts(JsonMapper json) {
		this.json = json;
	}

	String durationAndThroughput(List<JobSummary> jobs) {
		List<JobSummary> ended = new ArrayList<>(
				jobs.stream().filter((job) -> job.started() != null && job.ended() != null).toList());
		ended.sort((a, b) -> a.created().compareTo(b.created()));
		List<Long> x = new ArrayList<>();
		List<BigDecimal> seconds = new ArrayList<>();
		List<BigDecimal> rate = new ArrayList<>();
		for (JobSummary job : ended) {
			double duration = Math.max(0.001, Duration.between(job.started(), job.ended()).toMillis() / 1000.0);
			long items = job.steps().stream().mapToLong(JobSummary.StepSummary::done).sum();
			x.add(job.created().atZone(ZoneId.systemDefault()).toEpochSecond());
			seconds.add(BigDecimal.valueOf(duration).setScale(3, RoundingMode.HALF_UP));
			rate.add(BigDecimal.valueOf(items / duration).setScale(1, RoundingMode.HALF_UP));
		}
		return this.json.writeValueAsString(
				new Chart(x, List.of(new Series("duration (s)", "s", seconds), new Series("items/s", "rate", rate))));
	}

	/** The chart: one x per execution, and the series drawn over them. */
	record Chart(List<Long> x, List<Series> series) {

	}

	/** One line of the chart, on its own scale. */
	record Series(String label, String scale, List<BigDecimal> values) {

	}

}
