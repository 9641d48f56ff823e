package io.refstore.web.schedules;

import static io.refstore.web.system.Columns.DETAIL;
import static io.refstore.web.system.Columns.cut;
import static io.refstore.web.system.Columns.instant;
import static io.refstore.web.system.Columns.parameters;
import static io.refstore.web.system.Columns.utc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.RefJobType;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code refstore_schedule} and {@code refstore_schedule_run} tables. Thread-safe;
 * joins the caller's transaction.
 */
@Component
class ScheduleStore {

	private final JdbcClient jdbc;

	private final JsonMapper json;

	ScheduleStore(JdbcClient jdbc, JsonMapper json) {
		this.jdbc = jdbc;
		this.json = json;
	}

	void insert(Schedule schedule, Instant now) {
		this.jdbc
			.sql("INSERT INTO refstore_schedule (name, job_type, target_kind, target, parameters, cron, time_zone,"
					+ " once_at, misfire, paused, created_by, created_at, updated_at, overruns)"
					+ " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)")
			.params(schedule.name(), schedule.jobType().name(), schedule.targetKind().name(), schedule.target(),
					this.json.writeValueAsString(schedule.parameters()), schedule.cron(), schedule.timeZone(),
					utc(schedule.onceAt()), schedule.misfire().name(), schedule.paused(), schedule.createdBy(),
					utc(now), utc(now))
			.update();
	}

	boolean update(Schedule schedule, Instant now) {
		return this.jdbc
			.sql("UPDATE refstore_schedule SET job_type = ?, target_kind = ?, target = ?, parameters = ?,"
					+ " cron = ?, time_zone = ?, once_at = ?, misfire = ?, paused = ?, updated_at = ? WHERE name = ?")
			.params(schedule.jobType().name(), schedule.targetKind().name(), schedule.target(),
					this.json.writeValueAsString(schedule.parameters()), schedule.cron(), schedule.timeZone(),
					utc(schedule.onceAt()), schedule.misfire().name(), schedule.paused(), utc(now), schedule.name())
			.update() == 1;
	}

	boolean setPaused(String name, boolean paused, Instant now) {
		return this.jdbc.sql("UPDATE refstore_schedule SET paused = ?, updated_at = ? WHERE name = ?")
			.params(paused, utc(now), name)
			.update() == 1;
	}

	boolean delete(String name) {
		this.jdbc.sql("DELETE FROM refstore_schedule_run WHERE schedule_name = ?").param(name).update();
		return this.jdbc.sql("DELETE FROM refstore_schedule WHERE name = ?").param(name).update() == 1;
	}

	Optional<Schedule> find(String name) {
		return this.jdbc.sql("SELECT * FROM refstore_schedule WHERE name = ?")
			.param(name)
			.query(this::schedule)
			.optional();
	}

	/**
	 * The schedule {@code name}, its row locked until the caller's transaction ends: the
	 * fires of one schedule take turns, so a fire that two instances run at once (Quartz
	 * gives a fire to one instance, but a node its cluster took for dead while it still
	 * ran fires on) runs on the second only after the first committed what it did.
	 */
	Optional<Schedule> lockForFire(String name) {
		return this.jdbc.sql("SELECT * FROM refstore_schedule WHERE name = ? FOR UPDATE")
			.param(name)
			.query(this::schedule)
			.optional();
	}

	/**
	 * At most {@code limit} schedules named after {@code after} (all if null), by name.
	 */
	List<Schedule> page(String after, int limit) {
		return this.jdbc.sql("SELECT * FROM refstore_schedule WHERE name > ? ORDER BY name LIMIT ?")
			.params((after != null) ? after : "", limit)
			.query(this::schedule)
			.list();
	}

	List<Schedule> all() {
		return this.jdbc.sql("SELECT * FROM refstore_schedule ORDER BY name").query(this::schedule).list();
	}

	void fired(String name, Instant at) {
		this.jdbc.sql("UPDATE refstore_schedule SET last_fire_at = ? WHERE name = ?").params(utc(at), name).update();
	}

	void overran(String name, Instant at) {
		this.jdbc.sql("UPDATE refstore_schedule SET overruns = overruns + 1, last_overrun_at = ? WHERE name = ?")
			.params(utc(at), name)
			.update();
	}

	void recordRun(ScheduleRun run) {
		recordRun(run, null);
	}

	/**
	 * Records a run; {@code node} is the node holding its repository, which a queued run
	 * needs (null if not known).
	 */
	void recordRun(ScheduleRun run, String node) {
		this.jdbc
			.sql("INSERT INTO refstore_schedule_run (schedule_name, scheduled_at, fired_at, instance_id,"
					+ " repository, execution_id, outcome, detail, node) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
			.params(run.schedule(), utc(run.scheduledAt()), utc(run.firedAt()), run.instanceId(), run.repository(),
					run.executionId(), run.outcome().name(), cut(run.detail(), DETAIL), node)
			.update();
	}

	/** The newest runs of {@code name}, newest first. */
	List<ScheduleRun> runs(String name, int limit) {
		return this.jdbc.sql("SELECT * FROM refstore_schedule_run WHERE schedule_name = ? ORDER BY id DESC LIMIT ?")
			.params(name, limit)
			.query(ScheduleStore::run)
			.list();
	}

	/**
	 * The runs of the fire of {@code name} at {@code scheduledAt}, in the order recorded.
	 */
	List<ScheduleRun> runsOf(String name, Instant scheduledAt) {
		return this.jdbc
			.sql("SELECT * FROM refstore_schedule_run WHERE schedule_name = ? AND scheduled_at = ? ORDER BY id")
			.params(name, utc(scheduledAt))
			.query(ScheduleStore::run)
			.list();
	}

	/**
	 * The newest run of every schedule that has one, by schedule name, with its job's
	 * status and times (the job repository is the fleet's) and how many runs its fire
	 * had.
	 */
	Map<String, ScheduleLastRun> lastRuns() {
		Map<String, ScheduleLastRun> last = new HashMap<>();
		this.jdbc.sql("SELECT r.*, e.STATUS AS job_status, e.START_TIME AS job_started, e.END_TIME AS job_ended,"
				+ " (SELECT COUNT(*) FROM refstore_schedule_run f WHERE f.schedule_name = r.schedule_name"
				+ " AND f.scheduled_at = r.scheduled_at) AS fire_runs FROM refstore_schedule_run r"
				+ " LEFT JOIN BATCH_JOB_EXECUTION e ON e.JOB_EXECUTION_ID = r.execution_id AND r.outcome = 'LAUNCHED'"
				+ " WHERE r.id IN (SELECT MAX(id) FROM refstore_schedule_run GROUP BY schedule_name)")
			.query((rs, row) -> new ScheduleLastRun(run(rs, row), status(rs.getString("job_status")),
					rs.getObject("job_started", LocalDateTime.class), rs.getObject("job_ended", LocalDateTime.class),
					rs.getInt("fire_runs")))
			.list()
			.forEach((run) -> last.put(run.run().schedule(), run));
		return last;
	}

	private static JobStatus status(String text) {
		if (text == null) {
			return null;
		}
		try {
			return JobStatus.valueOf(text);
		}
		catch (IllegalArgumentException ex) {
			return JobStatus.UNKNOWN;
		}
	}

	/**
	 * The execution the newest launch of {@code name} on {@code repository} started, if
	 * any.
	 */
	Optional<Long> lastExecution(String name, String repository) {
		return this.jdbc
			.sql("SELECT execution_id FROM refstore_schedule_run WHERE schedule_name = ? AND repository = ?"
					+ " AND execution_id IS NOT NULL ORDER BY id DESC LIMIT 1")
			.params(name, repository)
			.query(Long.class)
			.optional();
	}

	/**
	 * Whether the fire of {@code name} at {@code scheduledAt} has recorded what it did.
	 */
	boolean recorded(String name, Instant scheduledAt) {
		return this.jdbc.sql("SELECT COUNT(*) FROM refstore_schedule_run WHERE schedule_name = ? AND scheduled_at = ?")
			.params(name, utc(scheduledAt))
			.query(Long.class)
			.single() > 0;
	}

	/**
	 * Whether a run of {@code name} on {@code repository} waits in the queue (from an
	 * earlier fire).
	 */
	boolean queued(String name, String repository) {
		return this.jdbc
			.sql("SELECT COUNT(*) FROM refstore_schedule_run WHERE outcome = 'QUEUED' AND schedule_name = ?"
					+ " AND repository = ?")
			.params(name, repository)
			.query(Long.class)
			.single() > 0;
	}

	/**
	 * The fires and nodes that have queued runs, each once, the one queued first first:
	 * at most {@code limit}.
	 */
	List<QueuedGroup> queuedGroups(int limit) {
		return this.jdbc
			.sql("SELECT schedule_name, scheduled_at, node, MIN(id) AS first_id FROM refstore_schedule_run"
					+ " WHERE outcome = 'QUEUED' GROUP BY schedule_name, scheduled_at, node ORDER BY first_id LIMIT ?")
			.param(limit)
			.query((rs, row) -> new QueuedGroup(rs.getString("schedule_name"), instant(rs, "scheduled_at"),
					rs.getString("node")))
			.list();
	}

	/** The oldest {@code limit} queued runs of one fire on one node, oldest first. */
	List<QueuedRun> queued(QueuedGroup group, int limit) {
		return this.jdbc
			.sql("SELECT id, repository FROM refstore_schedule_run WHERE outcome = 'QUEUED' AND schedule_name = ?"
					+ " AND scheduled_at = ? AND " + ((group.node() == null) ? "node IS NULL" : "node = ?")
					+ " ORDER BY id LIMIT ?")
			.params(queryParams(group, limit))
			.query((rs, row) -> new QueuedRun(rs.getLong("id"), rs.getString("repository")))
			.list();
	}

	/**
	 * How many jobs one fire launched on one node still run (their executions neither
	 * ended nor failed: the job repository is the fleet's).
	 */
	int running(QueuedGroup group) {
		return this.jdbc
			.sql("SELECT COUNT(*) FROM refstore_schedule_run r JOIN BATCH_JOB_EXECUTION e"
					+ " ON e.JOB_EXECUTION_ID = r.execution_id WHERE r.outcome = 'LAUNCHED' AND r.schedule_name = ?"
					+ " AND r.scheduled_at = ? AND " + ((group.node() == null) ? "r.node IS NULL" : "r.node = ?")
					+ " AND e.END_TIME IS NULL AND e.STATUS NOT IN ('FAILED', 'ABANDONED')")
			.params(queryParams(group, null))
			.query(Long.class)
			.single()
			.intValue();
	}

	private static List<Object> queryParams(QueuedGroup group, Integer limit) {
		List<Object> params = new ArrayList<>(List.of(group.schedule(), utc(group.scheduledAt())));
		if (group.node() != null) {
			params.add(group.node());
		}
		if (limit != null) {
			params.add(limit);
		}
		return params;
	}

	/**
	 * Takes a queued run for launching (marks it LAUNCHED, without its execution yet);
	 * false if another node took it.
	 */
	boolean take(long id) {
		return this.jdbc
			.sql("UPDATE refstore_schedule_run SET outcome = 'LAUNCHED' WHERE id = ? AND outcome = 'QUEUED'")
			.param(id)
			.update() == 1;
	}

	/** What the launch of a run taken from the queue did. */
	void settle(long id, Long executionId, ScheduleRun.Outcome outcome, String detail) {
		this.jdbc.sql("UPDATE refstore_schedule_run SET execution_id = ?, outcome = ?, detail = ? WHERE id = ?")
			.params(executionId, outcome.name(), cut(detail, DETAIL), id)
			.update();
	}

	/**
	 * The queued runs of one fire on one node.
	 *
	 * @param schedule the schedule's name
	 * @param scheduledAt its fire's time, which names the fire
	 * @param node the node holding their repositories, or {@code null} if none was known
	 * when it fired
	 */
	record QueuedGroup(String schedule, Instant scheduledAt, String node) {
	}

	/**
	 * A run waiting in the queue.
	 *
	 * @param id its row
	 * @param repository the repository to launch on
	 */
	record QueuedRun(long id, String repository) {
	}

	private Schedule schedule(ResultSet rs, int row) throws SQLException {
		Map<String, String> parameters = parameters(rs, this.json);
		return new Schedule(rs.getString("name"), RefJobType.valueOf(rs.getString("job_type")),
				Schedule.TargetKind.valueOf(rs.getString("target_kind")), rs.getString("target"), parameters,
				rs.getString("cron"), rs.getString("time_zone"), instant(rs, "once_at"),
				Schedule.Misfire.valueOf(rs.getString("misfire")), rs.getBoolean("paused"), rs.getString("created_by"),
				instant(rs, "last_fire_at"), rs.getInt("overruns"), instant(rs, "last_overrun_at"), List.of());
	}

	private static ScheduleRun run(ResultSet rs, int row) throws SQLException {
		return new ScheduleRun(rs.getString("schedule_name"), instant(rs, "scheduled_at"), instant(rs, "fired_at"),
				rs.getString("instance_id"), rs.getString("repository"),
				(Long) rs.getObject("execution_id", Long.class), ScheduleRun.Outcome.valueOf(rs.getString("outcome")),
				rs.getString("detail"));
	}

}
