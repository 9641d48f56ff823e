package io.refstore.batch.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.SimpleJob;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;

import io.refstore.batch.api.DeleteParameters;
import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobStateException;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobEvent;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.repo.RepositoryPaths;

/**
 * {@link RefJobs} on Spring Batch: launches with every parameter checked before anything
 * starts, stops, restarts, and reads executions back as plain records while they run.
 * Mutating jobs hold their repository's lease ({@link JobLeases}) from launch to end.
 * Every launch, stop and restart is published as a {@link RefJobEvent}, refused ones
 * included.
 *
 * <p>
 * Thread-safe.
 */
class DefaultRefJobs implements RefJobs {

	private final Map<String, Job> jobs;

	private final JobOperator jobOperator;

	private final JobRepository jobRepository;

	private final JobParameterValidator validator;

	private final ProtectedRefs protection;

	private final JobLeases leases;

	private final ApplicationEventPublisher events;

	private final JdbcTemplate jdbc;

	private final StartupRecovery recovery;

	/**
	 * @param protection what deletion plans keep unless their launch overrides it
	 */
	DefaultRefJobs(Map<String, Job> jobs, JobOperator jobOperator, JobRepository jobRepository, RepositoryPaths paths,
			ProtectedRefs protection, JobLeases leases, ApplicationEventPublisher events, JdbcTemplate jdbc,
			StartupRecovery recovery) {
		this.jobs = jobs;
		this.jobOperator = jobOperator;
		this.jobRepository = jobRepository;
		this.validator = new JobParameterValidator(paths, protection);
		this.protection = protection;
		this.leases = leases;
		this.events = events;
		this.jdbc = jdbc;
		this.recovery = recovery;
	}

	@Override
	public ProtectedRefs protection() {
		return this.protection;
	}

	@Override
	public JobSummary launch(RefJobType type, Map<String, String> parameters, String actor) {
		Map<String, String> own = new LinkedHashMap<>(parameters);
		String repository = own.remove(JobParameterNames.REPOSITORY);
		RefJobParameters typed;
		try {
			typed = RefJobParameters.parse(type, own);
		}
		catch (RuntimeException ex) {
			throw refused(type, parameters, actor, ex);
		}
		return launch(repository, typed, actor);
	}

	@Override
	public JobSummary launch(RefJobType type, String repository, Supplier<? extends RefJobParameters> parameters,
			String actor) {
		RefJobParameters typed;
		try {
			typed = parameters.get();
		}
		catch (RuntimeException ex) {
			Map<String, String> given = new LinkedHashMap<>();
			given.put(JobParameterNames.REPOSITORY, repository);
			throw refused(type, given, actor, ex);
		}
		return launch(repository, typed, actor);
	}

	@Override
	public JobSummary launch(String repository, RefJobParameters parameters, String actor) {
		RefJobType type = parameters.type();
		Map<String, String> given = new LinkedHashMap<>();
		given.put(JobParameterNames.REPOSITORY, repository);
		given.putAll(parameters.toMap());
		JobParameterValidator.Checked checked;
		try {
			checked = this.validator.validate(repository, parameters);
		}
		catch (IOException ex) {
			throw refused(type, given, actor, new UncheckedIOException(ex));
		}
		catch (RuntimeException ex) {
			throw refused(type, given, actor, ex);
		}
		Map<String, String> text = new LinkedHashMap<>();
		text.put(JobParameterNames.REPOSITORY, repository);
		text.put(JobParameterNames.REPOSITORY_PATH, checked.path().toString());
		text.putAll(checked.parameters().toMap());
		JobParametersBuilder builder = new JobParametersBuilder();
		text.forEach((key, value) -> builder.addString(key, value, key.equals(JobParameterNames.REPOSITORY)));
		builder.addString(JobParameterNames.LAUNCH_ID, UUID.randomUUID().toString(), true);
		builder.addString(JobParameterNames.ACTOR, (actor != null) ? actor : "anonymous", false);
		JobParameters jobParameters = builder.toJobParameters();
		boolean lease = type.mutating()
				&& !(checked.parameters() instanceof DeleteParameters delete && delete.planOnly());
		String path = checked.path().toString();
		try {
			if (lease) {
				acquire(path, type.jobName());
			}
			JobExecution execution = this.jobOperator.start(job(type), jobParameters);
			if (lease) {
				// the job's listener attaches it too, but on the job's thread: a launch
				// right after this one
				// must already see which execution holds the repository
				this.leases.attach(path, execution.getId());
			}
			publish(actor, RefJobEvent.Action.LAUNCH, type.jobName(), execution.getId(), text,
					RefJobEvent.Result.ACCEPTED, "ACCEPTED");
			return summary(execution);
		}
		catch (Exception ex) {
			if (lease && !(ex instanceof JobConflictException)) {
				this.leases.releaseClaim(path);
			}
			throw refused(type, given, actor, (ex instanceof RuntimeException runtime) ? runtime
					: new IllegalStateException("cannot launch " + type.jobName() + ": " + ex.getMessage(), ex));
		}
	}

	@Override
	public void checkInputs(String repository, RefJobParameters parameters) {
		if (!parameters.namesInput()) {
			return;
		}
		try {
			this.validator.validate(repository, parameters);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Takes the lease; a lease still held by an execution that has ended (its release
	 * raced with this call, or failed) is released first.
	 */
	private void acquire(String path, String jobName) {
		try {
			this.leases.acquire(path, jobName);
		}
		catch (JobConflictException ex) {
			JobExecution holder = (ex.executionId() != null) ? this.jobRepository.getJobExecution(ex.executionId())
					: null;
			if (holder == null || holder.getStatus().isRunning() || holder.getStatus() == BatchStatus.STOPPING) {
				throw ex;
			}
			this.leases.release(path, holder.getId());
			this.leases.acquire(path, jobName);
		}
	}

	@Override
	public boolean stop(long executionId, String actor) {
		JobExecution execution = execution(executionId);
		try {
			boolean stopped = requestStop(executionId);
			publish(actor, RefJobEvent.Action.STOP, name(execution), executionId, text(execution),
					stopped ? RefJobEvent.Result.ACCEPTED : RefJobEvent.Result.NOT_RUNNING,
					stopped ? "ACCEPTED" : "NOT RUNNING");
			return stopped;
		}
		catch (Exception ex) {
			publish(actor, RefJobEvent.Action.STOP, name(execution), executionId, text(execution),
					RefJobEvent.Result.REFUSED, "REFUSED: " + ex.getMessage());
			throw new JobStateException(executionId,
					"execution " + executionId + " cannot be stopped: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Marks the execution STOPPING, which its steps read when they record their next
	 * chunk and stop there. Not {@link JobOperator#stop}: besides the status it updates
	 * the running step's execution, whose own next update then fails on its version, so a
	 * stop requested during a chunk's commit ended the job FAILED.
	 * @return whether the execution was running (or already stopping)
	 */
	private boolean requestStop(long executionId) {
		for (int attempt = 0; attempt < 10; attempt++) {
			JobExecution now = lookUp(executionId).orElse(null);
			if (now == null || now.getStatus() == BatchStatus.STOPPING) {
				return now != null;
			}
			if (now.getStatus() != BatchStatus.STARTING && now.getStatus() != BatchStatus.STARTED) {
				return false;
			}
			now.setStatus(BatchStatus.STOPPING);
			try {
				this.jobRepository.update(now);
				return true;
			}
			catch (OptimisticLockingFailureException ex) {
				// the job recorded progress meanwhile: read it again
			}
		}
		throw new IllegalStateException("execution " + executionId + " kept changing while being stopped");
	}

	@Override
	public JobSummary restart(long executionId, String actor) {
		JobExecution execution = execution(executionId);
		Map<String, String> parameters = text(execution);
		JobStatus status = JobSummaries.status(execution.getStatus());
		if (!status.restartable()) {
			publish(actor, RefJobEvent.Action.RESTART, name(execution), executionId, parameters,
					RefJobEvent.Result.REFUSED, "REFUSED: status " + status);
			throw new JobStateException(executionId,
					"execution " + executionId + " is " + status + "; only STOPPED and FAILED executions restart",
					null);
		}
		String path = parameters.get(JobParameterNames.REPOSITORY_PATH);
		boolean lease = RefJobListener.mutating(execution);
		try {
			if (!this.validator.resolve(parameters.get(JobParameterNames.REPOSITORY)).toString().equals(path)) {
				throw new InvalidJobParameterException(JobParameterNames.REPOSITORY,
						parameters.get(JobParameterNames.REPOSITORY),
						"it resolves elsewhere than at launch (" + path + ")");
			}
			if (lease) {
				acquire(path, name(execution));
			}
			JobExecution restarted = this.jobOperator.restart(execution);
			publish(actor, RefJobEvent.Action.RESTART, name(execution), restarted.getId(), parameters,
					RefJobEvent.Result.ACCEPTED, "ACCEPTED: restarts execution " + executionId);
			return summary(restarted);
		}
		catch (Exception ex) {
			if (lease && !(ex instanceof JobConflictException)) {
				this.leases.releaseClaim(path);
			}
			publish(actor, RefJobEvent.Action.RESTART, name(execution), executionId, parameters,
					RefJobEvent.Result.REFUSED, "REFUSED: " + ex.getMessage());
			if (ex instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new JobStateException(executionId,
					"execution " + executionId + " cannot be restarted: " + ex.getMessage(), ex);
		}
	}

	@Override
	public Optional<JobSummary> find(long executionId) {
		return lookUp(executionId).filter((execution) -> RefJobType.ofJobName(name(execution)) != null)
			.map(this::summary);
	}

	@Override
	public List<Long> executionIds(long instanceId) {
		return this.jdbc.queryForList(
				"SELECT JOB_EXECUTION_ID FROM BATCH_JOB_EXECUTION WHERE JOB_INSTANCE_ID = ? ORDER BY JOB_EXECUTION_ID",
				Long.class, instanceId);
	}

	@Override
	public List<JobSummary> interrupted(String instance, LocalDateTime since) {
		StringBuilder sql = new StringBuilder("SELECT E.JOB_EXECUTION_ID FROM BATCH_JOB_EXECUTION E"
				+ " JOIN BATCH_JOB_INSTANCE I ON E.JOB_INSTANCE_ID = I.JOB_INSTANCE_ID WHERE I.JOB_NAME IN (");
		List<Object> args = new ArrayList<>();
		for (RefJobType type : RefJobType.values()) {
			sql.append(args.isEmpty() ? "?" : ", ?");
			args.add(type.jobName());
		}
		sql.append(") AND E.STATUS = 'FAILED' AND E.CREATE_TIME >= ? AND E.EXIT_MESSAGE LIKE ?"
				+ " AND NOT EXISTS (SELECT 1 FROM BATCH_JOB_EXECUTION L WHERE L.JOB_INSTANCE_ID = E.JOB_INSTANCE_ID"
				+ " AND L.JOB_EXECUTION_ID > E.JOB_EXECUTION_ID) ORDER BY E.JOB_EXECUTION_ID");
		args.add(since);
		args.add("%" + StartupRecovery.INTERRUPTED + "%");
		return this.jdbc.queryForList(sql.toString(), Long.class, args.toArray())
			.stream()
			.map(this.jobRepository::getJobExecution)
			.filter((execution) -> instance
				.equals(execution.getExecutionContext().getString(RefJobListener.INSTANCE, null)))
			.map(this::summary)
			.toList();
	}

	@Override
	public String instanceId() {
		return this.leases.instanceId();
	}

	@Override
	public List<Long> recoverExpired() {
		return this.recovery.recoverExpired();
	}

	@Override
	public int deleteHistory(LocalDateTime endedBefore, Long keep) {
		if (endedBefore == null && keep == null) {
			return 0;
		}
		// newest first: each instance's last end, and how many of its executions have not
		// ended
		List<long[]> instances = new ArrayList<>();
		List<LocalDateTime> ends = new ArrayList<>();
		this.jdbc.query("SELECT i.JOB_INSTANCE_ID, MAX(e.END_TIME) AS ENDED,"
				+ " SUM(CASE WHEN e.END_TIME IS NULL THEN 1 ELSE 0 END) AS OPEN"
				+ " FROM BATCH_JOB_INSTANCE i JOIN BATCH_JOB_EXECUTION e ON e.JOB_INSTANCE_ID = i.JOB_INSTANCE_ID"
				+ " GROUP BY i.JOB_INSTANCE_ID ORDER BY i.JOB_INSTANCE_ID DESC", (rs) -> {
					instances.add(new long[] { rs.getLong(1), rs.getLong(3) });
					java.sql.Timestamp ended = rs.getTimestamp(2);
					ends.add((ended == null) ? null : ended.toLocalDateTime());
				});
		int deleted = 0;
		for (int rank = 0; rank < instances.size(); rank++) {
			long id = instances.get(rank)[0];
			LocalDateTime ended = ends.get(rank);
			boolean old = endedBefore != null && ended != null && ended.isBefore(endedBefore);
			boolean surplus = keep != null && rank >= keep;
			if (instances.get(rank)[1] == 0 && (old || surplus)) {
				var instance = this.jobRepository.getJobInstance(id);
				if (instance != null) {
					this.jobRepository.deleteJobInstance(instance);
					deleted++;
				}
			}
		}
		return deleted;
	}

	@Override
	public HistorySize historySize() {
		return this.jdbc.queryForObject(
				"SELECT (SELECT COUNT(*) FROM BATCH_JOB_INSTANCE), (SELECT MIN(CREATE_TIME) FROM BATCH_JOB_EXECUTION)",
				(rs, row) -> new HistorySize(rs.getLong(1),
						(rs.getTimestamp(2) == null) ? null : rs.getTimestamp(2).toLocalDateTime()));
	}

	/**
	 * The execution of that id; empty if there is none (the JDBC repository throws for a
	 * missing id).
	 */
	private Optional<JobExecution> lookUp(long executionId) {
		try {
			return Optional.ofNullable(this.jobRepository.getJobExecution(executionId));
		}
		catch (EmptyResultDataAccessException ex) {
			return Optional.empty();
		}
	}

	@Override
	public List<JobSummary> list(JobFilter filter) {
		List<Object> args = new ArrayList<>();
		StringBuilder sql = new StringBuilder("SELECT E.JOB_EXECUTION_ID");
		from(sql, args, filter, true);
		sql.append(" ORDER BY E.JOB_EXECUTION_ID DESC OFFSET ? ROWS FETCH NEXT ? ROWS ONLY");
		args.add(filter.offset());
		args.add(filter.limit());
		return this.jdbc.queryForList(sql.toString(), Long.class, args.toArray())
			.stream()
			.map((id) -> summary(this.jobRepository.getJobExecution(id)))
			.toList();
	}

	@Override
	public Map<JobStatus, Long> countByStatus(JobFilter filter) {
		List<Object> args = new ArrayList<>();
		StringBuilder sql = new StringBuilder("SELECT E.STATUS, COUNT(*)");
		from(sql, args, filter, false);
		sql.append(" GROUP BY E.STATUS");
		Map<JobStatus, Long> counts = new EnumMap<>(JobStatus.class);
		this.jdbc.query(sql.toString(), (row) -> {
			counts.merge(status(row.getString(1)), row.getLong(2), Long::sum);
		}, args.toArray());
		return counts;
	}

	@Override
	public List<String> steps(RefJobType type, Map<String, String> parameters) {
		Job job = job(type);
		if (job instanceof SimpleJob simple) {
			// its steps, in the order they run
			return List.copyOf(simple.getStepNames());
		}
		if (type == RefJobType.DELETE) {
			// the deletion's flow plans, then deletes unless it only plans
			return "true".equals(parameters.get(JobParameterNames.PLAN_ONLY)) ? List.of("planDeletionStep")
					: List.of("planDeletionStep", "deleteRefsStep");
		}
		return List.of();
	}

	/** A status as the job repository stores it; {@code UNKNOWN} for another. */
	private static JobStatus status(String name) {
		for (JobStatus status : JobStatus.values()) {
			if (status.name().equals(name)) {
				return status;
			}
		}
		return JobStatus.UNKNOWN;
	}

	/**
	 * The {@code FROM} and {@code WHERE} clauses of the executions of refstore jobs
	 * matching {@code filter} (its status too if {@code withStatus}), offset and limit
	 * aside.
	 */
	private static void from(StringBuilder sql, List<Object> args, JobFilter filter, boolean withStatus) {
		sql.append(" FROM BATCH_JOB_EXECUTION E"
				+ " JOIN BATCH_JOB_INSTANCE I ON E.JOB_INSTANCE_ID = I.JOB_INSTANCE_ID WHERE I.JOB_NAME IN (");
		int names = 0;
		for (RefJobType type : RefJobType.values()) {
			if (filter.type() == null || filter.type() == type) {
				sql.append((names++ == 0) ? "?" : ", ?");
				args.add(type.jobName());
			}
		}
		sql.append(")");
		if (withStatus && filter.status() != null) {
			sql.append(" AND E.STATUS = ?");
			args.add(filter.status().name());
		}
		parameterClause(sql, args, JobParameterNames.REPOSITORY, filter.repository());
		parameterClause(sql, args, JobParameterNames.ACTOR, filter.actor());
		if (filter.from() != null) {
			sql.append(" AND E.CREATE_TIME >= ?");
			args.add(filter.from());
		}
		if (filter.to() != null) {
			sql.append(" AND E.CREATE_TIME < ?");
			args.add(filter.to());
		}
	}

	/**
	 * Keeps the executions whose parameter {@code key} is {@code value}, or matches it as
	 * a pattern when it has a {@code *} (any characters) or {@code ?} (one character).
	 */
	private static void parameterClause(StringBuilder sql, List<Object> args, String key, String value) {
		if (value != null) {
			boolean pattern = value.indexOf('*') >= 0 || value.indexOf('?') >= 0;
			sql.append(" AND EXISTS (SELECT 1 FROM BATCH_JOB_EXECUTION_PARAMS P WHERE P.JOB_EXECUTION_ID ="
					+ " E.JOB_EXECUTION_ID AND P.PARAMETER_NAME = ? AND P.PARAMETER_VALUE "
					+ (pattern ? "LIKE ? ESCAPE '\\')" : "= ?)"));
			args.add(key);
			args.add(pattern ? like(value) : value);
		}
	}

	/** A {@code *}/{@code ?} pattern as SQL {@code LIKE} with {@code \} escaping. */
	static String like(String pattern) {
		StringBuilder like = new StringBuilder(pattern.length() + 8);
		for (int i = 0; i < pattern.length(); i++) {
			char c = pattern.charAt(i);
			switch (c) {
				case '*' -> like.append('%');
				case '?' -> like.append('_');
				case '%', '_', '\\' -> like.append('\\').append(c);
				default -> like.append(c);
			}
		}
		return like.toString();
	}

	private Job job(RefJobType type) {
		Job job = this.jobs.get(type.jobName());
		if (job == null) {
			throw new IllegalStateException("no job bean named " + type.jobName());
		}
		return job;
	}

	private JobExecution execution(long executionId) {
		JobExecution execution = lookUp(executionId).orElse(null);
		if (execution == null || RefJobType.ofJobName(name(execution)) == null) {
			throw new InvalidJobParameterException("executionId", Long.toString(executionId),
					"no refstore job execution has that id");
		}
		return execution;
	}

	private RuntimeException refused(RefJobType type, Map<String, String> parameters, String actor,
			RuntimeException ex) {
		publish(actor, RefJobEvent.Action.LAUNCH, type.jobName(), null, parameters, RefJobEvent.Result.REFUSED,
				"REFUSED: " + ex.getMessage());
		return ex;
	}

	private void publish(String actor, RefJobEvent.Action action, String job, Long executionId,
			Map<String, String> parameters, RefJobEvent.Result result, String outcome) {
		Map<String, String> shown = new TreeMap<>();
		parameters.forEach((key, value) -> shown.put(key, String.valueOf(value)));
		this.events.publishEvent(new RefJobEvent(Instant.now(), (actor != null) ? actor : "anonymous", action, job,
				executionId, parameters.get(JobParameterNames.REPOSITORY), shown, outcome, result, null));
	}

	private static String name(JobExecution execution) {
		return execution.getJobInstance().getJobName();
	}

	/** An execution's parameters as text. */
	static Map<String, String> text(JobExecution execution) {
		return JobSummaries.text(execution);
	}

	JobSummary summary(JobExecution execution) {
		return JobSummaries.summary(execution);
	}

}
