package io.refstore.web.jobs;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleFormat;
import tools.jackson.databind.json.JsonMapper;

/**
 * The history chart's figures: for every ended execution, when it was created (x, seconds
 * since the epoch) and how long it ran (seconds), in one series per job type (values of
 * the other types are {@code null}: no point), as the JSON {@code charts.js} reads,
 * written by the application's mapper. The chart draws points, not lines: executions of
 * one type are separate runs, and lines between kinds would join unrelated jobs.
 */
@Component
class JobCharts {

	private final JsonMapper json;

	private final ConsoleFormat format;

	JobCharts(JsonMapper json, ConsoleFormat format) {
		this.json = json;
		this.format = format;
	}

	String durations(List<JobSummary> jobs) {
		List<JobSummary> ended = new ArrayList<>(
				jobs.stream().filter((job) -> job.started() != null && job.ended() != null).toList());
		ended.sort((a, b) -> a.created().compareTo(b.created()));
		List<Long> x = new ArrayList<>();
		Map<RefJobType, List<BigDecimal>> byType = new EnumMap<>(RefJobType.class);
		for (JobSummary job : ended) {
			if (job.type() != null) {
				byType.computeIfAbsent(job.type(), (type) -> new ArrayList<>());
			}
		}
		for (JobSummary job : ended) {
			double duration = Math.max(0.001, Duration.between(job.started(), job.ended()).toMillis() / 1000.0);
			x.add(job.created().atZone(ZoneId.systemDefault()).toEpochSecond());
			byType.forEach((type, values) -> values
				.add((type == job.type()) ? BigDecimal.valueOf(duration).setScale(3, RoundingMode.HALF_UP) : null));
		}
		List<Series> series = new ArrayList<>();
		byType.forEach((type, values) -> series.add(new Series(this.format.jobType(type), "s", values)));
		return this.json.writeValueAsString(new Chart(x, series));
	}

	/** The chart: one x per execution, and the series drawn over them. */
	record Chart(List<Long> x, List<Series> series) {

	}

	/** The points of one job type, on the scale of seconds. */
	record Series(String label, String scale, List<BigDecimal> values) {

	}

}
