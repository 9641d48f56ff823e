package io.refstore.web.system;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the web application ({@code refstore.*}), checked at startup: a bad value
 * stops it with a message naming the setting. The jobs' settings are
 * {@code RefBatchProperties}, the repositories' {@code RepoProperties}. Times take a unit
 * ({@code 500ms}, {@code 30s}, {@code 2m}); the {@code -millis} settings, which once took
 * a bare number of milliseconds, still read a bare number as milliseconds.
 *
 * @param home where refstore keeps its H2 database and, by default, its repositories
 * ({@code REFSTORE_HOME}, default {@code ~/.refstore})
 * @param api limits of the REST API
 * @param campaigns the campaign coordinator
 * @param jobs the sweep of executions an instance that died left behind
 * @param metrics how often the gauges are recomputed
 */
@ConfigurationProperties("refstore")
@Validated
public record RefWebProperties(@NotNull Path home, @Valid @DefaultValue Api api,
		@Valid @DefaultValue Campaigns campaigns, @Valid @DefaultValue Jobs jobs,
		@Valid @DefaultValue Metrics metrics) {

	/**
	 * @param maxBodySize the largest request body the API reads (default 1MB); a larger
	 * one is refused with 413
	 * @param maxBatchUpdates the most updates one batch of ref writes may hold (default
	 * 10,000; more: 413)
	 */
	public record Api(@DefaultValue("1MB") DataSize maxBodySize, @DefaultValue("10000") @Positive int maxBatchUpdates) {

		public Api {
			// Bean Validation has no constraint for a DataSize
			if (maxBodySize.toBytes() <= 0) {
				throw new IllegalArgumentException("refstore.api.max-body-size must be positive, not " + maxBodySize);
			}
		}

	}

	/**
	 * @param pollMillis how often the coordinator looks at running campaigns besides each
	 * job's end (default 1s)
	 */
	public record Campaigns(
			@DefaultValue("1000") @DurationUnit(ChronoUnit.MILLIS) @DurationMin(millis = 1) Duration pollMillis) {

	}

	/**
	 * @param sweepMillis how often a survivor marks the executions of instances whose
	 * leases expired as failed (default 15s)
	 */
	public record Jobs(
			@DefaultValue("15000") @DurationUnit(ChronoUnit.MILLIS) @DurationMin(millis = 1) Duration sweepMillis) {

	}

	/**
	 * @param jobsRefresh how often the job gauges are recomputed besides each job event
	 * (default 10s)
	 * @param initialDelay when the first count of every repository's refs runs after the
	 * start (default 0s)
	 * @param refresh how often every repository's refs are counted again (default 60s)
	 * @param topRepositories how many repositories, those with the most refs, have series
	 * of their own in the per-repository gauges; the others' figures are added up in one
	 * series (default 20)
	 */
	public record Metrics(@DefaultValue("10s") @DurationMin(millis = 1) Duration jobsRefresh,
			@DefaultValue("0s") @DurationMin(millis = 0) Duration initialDelay,
			@DefaultValue("60s") @DurationMin(millis = 1) Duration refresh,
			@DefaultValue("20") @PositiveOrZero int topRepositories) {

	}

}
