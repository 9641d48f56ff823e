package io.refstore.web.retention;

import static io.refstore.web.system.Columns.instant;
import static io.refstore.web.system.Columns.utc;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import io.refstore.batch.api.ExclusiveWork;
import io.refstore.batch.api.RefJobs;

/**
 * Keeps the application's records within {@code refstore.retention.*}: every
 * {@code interval} one node of the fleet (the lease {@value #LEASE}) deletes the audit
 * entries, inventories (with their namespaces), job instances that ended and schedule
 * runs older than each kind's {@code max-age} or past its {@code max-count} newest. A job
 * that has not ended is kept whatever its age. What each kind holds, and what the last
 * sweep deleted, is on the Retention page and {@code GET /api/retention} (ADMIN).
 * Thread-safe.
 */
@Component
public class DataRetention implements SchedulingConfigurer {

	private static final Logger logger = LoggerFactory.getLogger(DataRetention.class);

	/** The lease one node of the fleet sweeps under. */
	static final String LEASE = "data-retention";

	private final JdbcClient jdbc;

	private final TransactionTemplate transactions;

	private final RefJobs jobs;

	private final ExclusiveWork work;

	private final RetentionProperties settings;

	private final AtomicReference<Sweep> last = new AtomicReference<>();

	DataRetention(JdbcClient jdbc, TransactionTemplate transactions, RefJobs jobs, ExclusiveWork work,
			RetentionProperties settings) {
		this.jdbc = jdbc;
		this.transactions = transactions;
		this.jobs = jobs;
		this.work = work;
		this.settings = settings;
	}

	/**
	 * What a sweep deleted.
	 *
	 * @param at when it ended
	 * @param audit audit entries
	 * @param inventory inventories
	 * @param jobs job instances
	 * @param scheduleRuns schedule runs
	 * @param webhookDeliveries webhook deliveries
	 */
	public record Sweep(Instant at, long audit, long inventory, long jobs, long scheduleRuns, long webhookDeliveries) {

	}

	/**
	 * What one kind holds.
	 *
	 * @param kind its name: {@code audit}, {@code inventory}, {@code jobs},
	 * {@code scheduleRuns}, {@code webhookDeliveries}
	 * @param rows rows (job instances for {@code jobs})
	 * @param oldest its oldest row's time, or {@code null}
	 * @param maxAge what it keeps by age, or {@code null}
	 * @param maxCount what it keeps by count, or {@code null}
	 */
	public record Kind(String kind, long rows, Instant oldest, Duration maxAge, Long maxCount) {

	}

	/**
	 * The figures: each kind, and the last sweep this node ran.
	 *
	 * @param kinds each kind
	 * @param lastSweep this node's last sweep, or {@code null}
	 */
	public record Figures(List<Kind> kinds, Sweep lastSweep) {

	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		if (!this.settings.interval().isZero()) {
			tasks.addFixedDelayTask(new FixedDelayTask(() -> {
				try {
					this.work.runAlone(LEASE, Duration.ZERO, this::sweep);
				}
				catch (RuntimeException ex) {
					logger.warn("The retention sweep failed", ex);
				}
			}, this.settings.interval(), this.settings.interval()));
		}
	}

	/** Deletes what each kind's retention lets go, now (ADMIN). */
	@PreAuthorize("hasRole('ADMIN')")
	public Sweep sweepNow() {
		return sweep();
	}

	/** Deletes what each kind's retention lets go, now. */
	Sweep sweep() {
		Instant now = Instant.now();
		long audit = deleteOlder("refstore_audit_event", "at", "id", this.settings.audit(), now);
		long inventory = deleteInventories(now);
		RetentionProperties.Limits jobs = this.settings.jobs();
		long instances = this.jobs.deleteHistory((jobs.maxAge() == null) ? null
				: LocalDateTime.ofInstant(now.minus(jobs.maxAge()), ZoneId.systemDefault()), jobs.maxCount());
		long runs = deleteOlder("refstore_schedule_run", "fired_at", "id", this.settings.scheduleRuns(), now);
		long deliveries = deleteOlder("refstore_webhook_delivery", "created_at", "id",
				this.settings.webhookDeliveries(), now);
		Sweep sweep = new Sweep(Instant.now(), audit, inventory, instances, runs, deliveries);
		this.last.set(sweep);
		if (audit + inventory + instances + runs + deliveries > 0) {
			logger.info("Retention deleted {} audit entries, {} inventories, {} job instances, {} schedule runs, {}"
					+ " webhook deliveries", audit, inventory, instances, runs, deliveries);
		}
		return sweep;
	}

	/** Deletes a table's rows older than the limit's age or past its count (by key). */
	private long deleteOlder(String table, String time, String key, RetentionProperties.Limits limits, Instant now) {
		long deleted = 0;
		if (limits.maxAge() != null) {
			deleted += this.jdbc.sql("DELETE FROM " + table + " WHERE " + time + " < ?")
				.params(utc(now.minus(limits.maxAge())))
				.update();
		}
		Long horizon = horizon(table, key, limits);
		if (horizon != null) {
			deleted += this.jdbc.sql("DELETE FROM " + table + " WHERE " + key + " < ?").params(horizon).update();
		}
		return deleted;
	}

	/**
	 * The key of the {@code maxCount}-th newest row, or {@code null} for no count limit
	 * or fewer rows.
	 */
	private Long horizon(String table, String key, RetentionProperties.Limits limits) {
		if (limits.maxCount() == null) {
			return null;
		}
		return this.jdbc
			.sql("SELECT " + key + " FROM " + table + " ORDER BY " + key
					+ " DESC OFFSET ? ROWS FETCH FIRST 1 ROWS ONLY")
			.params(limits.maxCount() - 1)
			.query(Long.class)
			.optional()
			.orElse(null);
	}

	/** Deletes inventories (their namespaces first) past the inventory's retention. */
	private long deleteInventories(Instant now) {
		RetentionProperties.Limits limits = this.settings.inventory();
		List<String> conditions = new ArrayList<>();
		List<Object> params = new ArrayList<>();
		if (limits.maxAge() != null) {
			conditions.add("recorded_at < ?");
			params.add(utc(now.minus(limits.maxAge())));
		}
		Long horizon = horizon("refstore_inventory", "job_execution_id", limits);
		if (horizon != null) {
			conditions.add("job_execution_id < ?");
			params.add(horizon);
		}
		if (conditions.isEmpty()) {
			return 0;
		}
		String which = "SELECT job_execution_id FROM refstore_inventory WHERE " + String.join(" OR ", conditions);
		Integer deleted = this.transactions.execute((status) -> {
			this.jdbc.sql("DELETE FROM refstore_inventory_namespace WHERE job_execution_id IN (" + which + ")")
				.params(params)
				.update();
			return this.jdbc.sql("DELETE FROM refstore_inventory WHERE " + String.join(" OR ", conditions))
				.params(params)
				.update();
		});
		return (deleted == null) ? 0 : deleted;
	}

	/** What each kind holds now, and this node's last sweep. */
	@PreAuthorize("hasRole('ADMIN')")
	public Figures figures() {
		RefJobs.HistorySize history = this.jobs.historySize();
		List<Kind> kinds = List.of(kind("audit", "refstore_audit_event", "at", this.settings.audit()),
				kind("inventory", "refstore_inventory", "recorded_at", this.settings.inventory()),
				new Kind("jobs", history.instances(),
						(history.oldest() == null) ? null : history.oldest().atZone(ZoneId.systemDefault()).toInstant(),
						this.settings.jobs().maxAge(), this.settings.jobs().maxCount()),
				kind("scheduleRuns", "refstore_schedule_run", "fired_at", this.settings.scheduleRuns()),
				kind("webhookDeliveries", "refstore_webhook_delivery", "created_at",
						this.settings.webhookDeliveries()));
		return new Figures(kinds, this.last.get());
	}

	private Kind kind(String kind, String table, String time, RetentionProperties.Limits limits) {
		return this.jdbc.sql("SELECT COUNT(*) AS n, MIN(" + time + ") AS oldest FROM " + table)
			.query((rs, row) -> new Kind(kind, rs.getLong("n"), instant(rs, "oldest"), limits.maxAge(),
					limits.maxCount()))
			.single();
	}

}
