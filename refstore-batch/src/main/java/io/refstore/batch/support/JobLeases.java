package io.refstore.batch.support;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.scheduling.TaskScheduler;

import io.refstore.batch.api.ExclusiveWork;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.RefJobType;

/**
 * One mutating job per repository, enforced through the {@code REFSTORE_JOB_LEASE} table
 * so that it holds across application instances sharing the database. A lease names its
 * owner instance and execution; the owner renews it on a heartbeat; a lease past its
 * expiry (its instance died) is taken over by the next claim. The same table holds the
 * leases of {@link ExclusiveWork} (their names start with {@value #WORK}, which no
 * repository's real path does).
 *
 * <p>
 * Why not Spring Integration's {@code JdbcLockRegistry}: a job's lease is claimed by the
 * thread that launches the job and released by the job's own thread, outlives a restart
 * of its instance until recovery, and names its holder in a refusal; a registry's lock
 * belongs to the thread that took it and records no holder.
 *
 * <p>
 * Thread-safe. {@link #start()} begins the heartbeat, {@link #close()} ends it (leases
 * stay until they expire or are released).
 */
public class JobLeases implements ExclusiveWork, AutoCloseable {

	/** What the name of an {@link ExclusiveWork} lease starts with. */
	static final String WORK = "work:";

	/** How often a wait for an {@link ExclusiveWork} lease tries again. */
	private static final Duration RETRY = Duration.ofMillis(50);

	private static final RowMapper<Lease> LEASE = (rs, row) -> new Lease(rs.getString("REPOSITORY"),
			rs.getString("JOB_NAME"), (Long) rs.getObject("EXECUTION_ID"), rs.getString("OWNER_INSTANCE"),
			rs.getTimestamp("HEARTBEAT").toInstant(), rs.getTimestamp("EXPIRES_AT").toInstant());

	private final JdbcTemplate jdbc;

	private final String instanceId;

	private final Duration ttl;

	private final TaskScheduler scheduler;

	private ScheduledFuture<?> heartbeat;

	/** When this instance's leases began: older ones are a previous life's. */
	private final Instant started = Instant.now();

	/**
	 * @param jdbc the database holding the lease table
	 * @param instanceId this instance's name
	 * @param ttl how long a lease lives without a heartbeat
	 * @param scheduler the application's task scheduler, which runs the heartbeat
	 */
	public JobLeases(JdbcTemplate jdbc, String instanceId, Duration ttl, TaskScheduler scheduler) {
		this.jdbc = jdbc;
		this.instanceId = instanceId;
		this.ttl = ttl;
		this.scheduler = scheduler;
	}

	/** This instance's name. */
	public String instanceId() {
		return this.instanceId;
	}

	/** Starts renewing this instance's leases every third of the time to live. */
	public synchronized void start() {
		if (this.heartbeat == null) {
			Duration period = Duration.ofMillis(Math.max(1, this.ttl.toMillis() / 3));
			this.heartbeat = this.scheduler.scheduleAtFixedRate(this::renew, Instant.now().plus(period), period);
		}
	}

	/**
	 * Claims the lease of {@code repository} for a job this instance is about to launch;
	 * an expired lease is taken over.
	 * @throws JobConflictException naming the holder if a live lease exists
	 */
	public void acquire(String repository, String jobName) {
		while (!claim(repository, jobName)) {
			Lease holder = find(repository).orElse(null);
			if (holder != null) {
				throw new JobConflictException("repository '" + repository + "' is busy: " + holder.describe()
						+ "; one mutating job per repository at a time", holder.executionId());
			}
			// released in between: claim again
		}
	}

	/**
	 * Claims the lease {@code name} without an execution, taking over an expired one;
	 * false if a live one exists.
	 */
	private boolean claim(String name, String jobName) {
		Instant now = Instant.now();
		this.jdbc.update("DELETE FROM REFSTORE_JOB_LEASE WHERE REPOSITORY = ? AND EXPIRES_AT < ?", name,
				Timestamp.from(now));
		try {
			this.jdbc.update(
					"INSERT INTO REFSTORE_JOB_LEASE (REPOSITORY, JOB_NAME, EXECUTION_ID, OWNER_INSTANCE,"
							+ " ACQUIRED, HEARTBEAT, EXPIRES_AT) VALUES (?, ?, NULL, ?, ?, ?, ?)",
					name, jobName, this.instanceId, Timestamp.from(now), Timestamp.from(now),
					Timestamp.from(now.plus(this.ttl)));
			return true;
		}
		catch (DuplicateKeyException ex) {
			return false;
		}
	}

	@Override
	public boolean runAlone(String name, Duration wait, Runnable work) {
		String lease = WORK + name;
		long deadline = System.nanoTime() + wait.toNanos();
		while (!claim(lease, "exclusive work")) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				return false;
			}
			try {
				Thread.sleep(Math.min(RETRY.toMillis(), Math.max(1, left / 1_000_000)));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		try {
			work.run();
			return true;
		}
		finally {
			releaseClaim(lease);
		}
	}

	@Override
	public boolean holdAlone(String name) {
		String lease = WORK + name;
		return claim(lease, "held work")
				|| find(lease).filter((held) -> held.ownerInstance().equals(this.instanceId) && !held.expired())
					.isPresent();
	}

	/** Records the execution that took a lease this instance claimed. */
	public void attach(String repository, long executionId) {
		this.jdbc.update(
				"UPDATE REFSTORE_JOB_LEASE SET EXECUTION_ID = ? WHERE REPOSITORY = ? AND OWNER_INSTANCE = ?"
						+ " AND (EXECUTION_ID IS NULL OR EXECUTION_ID = ?)",
				executionId, repository, this.instanceId, executionId);
	}

	/** Releases the lease {@code executionId} holds, if it does. */
	public void release(String repository, long executionId) {
		this.jdbc.update("DELETE FROM REFSTORE_JOB_LEASE WHERE REPOSITORY = ? AND EXECUTION_ID = ?", repository,
				executionId);
	}

	/** Releases a claim of this instance whose launch failed before the job started. */
	public void releaseClaim(String repository) {
		this.jdbc.update("DELETE FROM REFSTORE_JOB_LEASE WHERE REPOSITORY = ? AND OWNER_INSTANCE = ?"
				+ " AND EXECUTION_ID IS NULL", repository, this.instanceId);
	}

	/** The lease of {@code repository}, live or expired, if there is one. */
	public Optional<Lease> find(String repository) {
		return this.jdbc.query("SELECT * FROM REFSTORE_JOB_LEASE WHERE REPOSITORY = ?", LEASE, repository)
			.stream()
			.findFirst();
	}

	/** The lease {@code executionId} holds, if any. */
	public Optional<Lease> findByExecution(long executionId) {
		return this.jdbc.query("SELECT * FROM REFSTORE_JOB_LEASE WHERE EXECUTION_ID = ?", LEASE, executionId)
			.stream()
			.findFirst();
	}

	/** Every lease, for inspection. */
	public List<Lease> all() {
		return this.jdbc.query("SELECT * FROM REFSTORE_JOB_LEASE ORDER BY REPOSITORY", LEASE);
	}

	/**
	 * Drops the leases this instance took before it started this time (it runs nothing of
	 * a previous life: a launch's claim or a job's lease that a kill left would otherwise
	 * be renewed by this heartbeat for ever); called once at startup, after the
	 * executions they belonged to were marked, before the heartbeat starts.
	 * @return how many
	 */
	public int releasePreviousLife() {
		return this.jdbc.update("DELETE FROM REFSTORE_JOB_LEASE WHERE OWNER_INSTANCE = ? AND ACQUIRED < ?",
				this.instanceId, Timestamp.from(this.started));
	}

	/** Renews every lease this instance owns; returns how many. */
	public int renew() {
		Instant now = Instant.now();
		return this.jdbc.update("UPDATE REFSTORE_JOB_LEASE SET HEARTBEAT = ?, EXPIRES_AT = ? WHERE OWNER_INSTANCE = ?",
				Timestamp.from(now), Timestamp.from(now.plus(this.ttl)), this.instanceId);
	}

	@Override
	public synchronized void close() {
		if (this.heartbeat != null) {
			this.heartbeat.cancel(false);
			this.heartbeat = null;
		}
	}

	/**
	 * A lease row.
	 *
	 * @param repository the repository's real path
	 * @param jobName the job holding it
	 * @param executionId its execution, {@code null} while being launched
	 * @param ownerInstance the instance running it
	 * @param heartbeat the last renewal
	 * @param expiresAt when it lapses without a renewal
	 */
	public record Lease(String repository, String jobName, Long executionId, String ownerInstance, Instant heartbeat,
			Instant expiresAt) {

		/** Whether it has lapsed. */
		public boolean expired() {
			return this.expiresAt.isBefore(Instant.now());
		}

		/** Names the holder, for a refusal. */
		public String describe() {
			// the job's type in words, not its bean name
			RefJobType type = RefJobType.ofJobName(this.jobName);
			String job = (type != null) ? "a " + type.name().toLowerCase(Locale.ROOT) + " job" : "a job";
			return job + ((this.executionId != null) ? " (execution " + this.executionId + ")" : " (being launched)")
					+ " on instance '" + this.ownerInstance + "' holds its lease until " + this.expiresAt;
		}

	}

}
