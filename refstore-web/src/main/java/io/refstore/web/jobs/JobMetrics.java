package io.refstore.web.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.DependsOn;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.web.system.FleetReporter;
import io.refstore.web.system.RefWebProperties;

/**
 * Job metrics for actuator and Prometheus:
 * <ul>
 * <li>{@code refstore.jobs.executions} (tags {@code type}, {@code status}): executions in
 * the job repository</li>
 * <li>{@code refstore.jobs.running.progress} (tags {@code type}, {@code repository},
 * {@code step}): percent done of each running execution's current step, -1 when its total
 * is unknown; {@code refstore.jobs.running.rate} (items per second, in Prometheus
 * {@code refstore_jobs_running_rate_items_per_second}) and
 * {@code refstore.jobs.running.eta} (seconds, -1 if unknown) with the same tags</li>
 * <li>{@code refstore.jobs.events} (counter; tags {@code action}, {@code outcome}):
 * launches, stops, restarts and ends on this node since it started, refused ones
 * included</li>
 * </ul>
 * The executions and the running jobs are the fleet's, read from the shared job
 * repository: only the node {@link FleetReporter} names exports them, so that a sum over
 * the nodes counts each execution once. The gauges are refreshed every
 * {@code refstore.metrics.jobs-refresh} (10s) and after every job event. Thread-safe:
 * refreshes do not overlap.
 */
@Component
// the registry creates missing repository roots, which the batch module requires to exist
@DependsOn("repoRegistry")
class JobMetrics implements SchedulingConfigurer {

	private static final Logger log = LoggerFactory.getLogger(JobMetrics.class);

	private final RefJobs jobs;

	private final JdbcClient jdbc;

	private final MeterRegistry meters;

	private final FleetReporter reporter;

	private final MultiGauge executions;

	private final MultiGauge progress;

	private final MultiGauge rate;

	private final MultiGauge eta;

	private final Duration every;

	JobMetrics(RefJobs jobs, JdbcClient jdbc, MeterRegistry meters, FleetReporter reporter, RefWebProperties settings) {
		this.every = settings.metrics().jobsRefresh();
		this.reporter = reporter;
		this.jobs = jobs;
		this.jdbc = jdbc;
		this.meters = meters;
		this.executions = MultiGauge.builder("refstore.jobs.executions")
			.description("job executions in the fleet's job repository by type and status")
			.register(meters);
		this.progress = MultiGauge.builder("refstore.jobs.running.progress")
			.description("percent done of a running job's current step")
			.baseUnit("percent")
			.register(meters);
		this.rate = MultiGauge.builder("refstore.jobs.running.rate")
			.description("items per second of a running job's current step")
			.baseUnit("items.per.second")
			.register(meters);
		this.eta = MultiGauge.builder("refstore.jobs.running.eta")
			.description("seconds left of a running job's current step")
			.baseUnit("seconds")
			.register(meters);
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		tasks.addFixedDelayTask(new FixedDelayTask(this::refresh, this.every, Duration.ZERO));
	}

	synchronized void refresh() {
		try {
			if (!this.reporter.reporting()) {
				List.of(this.executions, this.progress, this.rate, this.eta)
					.forEach((gauge) -> gauge.register(List.of(), true));
				return;
			}
			List<MultiGauge.Row<?>> counts = new ArrayList<>();
			for (Map<String, Object> row : this.jdbc.sql("SELECT I.JOB_NAME, E.STATUS, COUNT(*) AS N"
					+ " FROM BATCH_JOB_EXECUTION E JOIN BATCH_JOB_INSTANCE I ON E.JOB_INSTANCE_ID = I.JOB_INSTANCE_ID"
					+ " GROUP BY I.JOB_NAME, E.STATUS")
				.query()
				.listOfRows()) {
				RefJobType type = RefJobType.ofJobName(String.valueOf(row.get("JOB_NAME")));
				if (type != null) {
					counts
						.add(MultiGauge.Row.of(Tags.of("type", name(type), "status", String.valueOf(row.get("STATUS"))),
								((Number) row.get("N")).doubleValue()));
				}
			}
			this.executions.register(counts, true);
			running();
		}
		catch (RuntimeException ex) {
			log.warn("cannot refresh the job metrics: {}", ex.getMessage());
		}
	}

	private void running() {
		List<MultiGauge.Row<?>> done = new ArrayList<>();
		List<MultiGauge.Row<?>> perSecond = new ArrayList<>();
		List<MultiGauge.Row<?>> left = new ArrayList<>();
		for (JobSummary job : this.jobs.list(new JobFilter(JobStatus.STARTED, null, null, null, null, null, 0, 1000))) {
			JobView.Progress at = JobView.of(job).progress();
			Tags tags = Tags.of("type", name(job.type()), "repository", String.valueOf(job.repository()), "step",
					String.valueOf(at.step()));
			done.add(MultiGauge.Row.of(tags, (at.percent() == null) ? -1 : at.percent()));
			perSecond.add(MultiGauge.Row.of(tags, at.ratePerSecond()));
			left.add(MultiGauge.Row.of(tags, at.etaSeconds()));
		}
		this.progress.register(done, true);
		this.rate.register(perSecond, true);
		this.eta.register(left, true);
	}

	@EventListener
	void count(RefJobEvent event) {
		String outcome = switch (event.result()) {
			case ACCEPTED -> "accepted";
			// the first word of its outcome, as the tag always was
			case NOT_RUNNING -> "not";
			case REFUSED -> "refused";
			case ENDED -> event.status().name().toLowerCase(Locale.ROOT);
		};
		Counter.builder("refstore.jobs.events")
			.description("job launches, stops, restarts and ends on this node")
			.tags("action", event.action().name().toLowerCase(Locale.ROOT), "outcome", outcome)
			.register(this.meters)
			.increment();
		refresh();
	}

	private static String name(RefJobType type) {
		return type.name().toLowerCase(Locale.ROOT);
	}

}
