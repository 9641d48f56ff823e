package io.refstore.web.jobs;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.DependsOn;
import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;

import io.refstore.batch.api.DeleteCriteria;
import io.refstore.batch.api.DeleteParameters;
import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.InventoryParameters;
import io.refstore.batch.api.JournalRetentionParameters;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobStateException;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.MaintainParameters;
import io.refstore.batch.api.MigrateParameters;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.batch.api.RestoreParameters;
import io.refstore.batch.api.RewindParameters;
import io.refstore.batch.api.RollbackParameters;
import io.refstore.batch.api.VerifyParameters;
import io.refstore.web.audit.AuditEntry;
import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.security.JobPolicy;
import io.refstore.web.security.Roles;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Problems;

/**
 * The one way the API and the console drive refstore jobs, with the roles checked here
 * whatever the caller showed or sent: VIEWER reads executions, OPERATOR stops them, and a
 * launch needs the role {@link JobPolicy} gives its job (OPERATOR for verifications,
 * inventories, maintenance and deletion plans; ADMIN for migrations, deletions, restores,
 * rollbacks, journal retentions and plans that override the protection). A restart needs
 * the role its job needed to launch. A deletion executes only a plan that completed, and
 * only when the caller confirms the repository's name and the plan's count. Every launch,
 * stop and restart (refused ones included) is audited through the batch module's events
 * ({@link JobAuditListener}). Only ADMIN may plan a deletion that overrides the protected
 * refs, and only with a reason.
 *
 * <p>
 * Unknown executions are 404 problems ({@code job-not-found}); a stop of an execution
 * that is not running and a restart of one that is not STOPPED or FAILED are 409 problems
 * ({@code job-state}). Thread-safe.
 */
@Service
// the registry creates missing repository roots, which the batch module requires to exist
@DependsOn("repoRegistry")
public class JobService {

	/**
	 * How many of a repository's newest executions of a type {@link #relations} looks at.
	 */
	static final int RELATED_LIMIT = 100;

	private final RefJobs jobs;

	private final ApplicationEventPublisher events;

	private final JobPolicy policy;

	private final FleetJobs fleet;

	JobService(RefJobs jobs, ApplicationEventPublisher events, JobPolicy policy, FleetJobs fleet) {
		this.jobs = jobs;
		this.events = events;
		this.policy = policy;
		this.fleet = fleet;
	}

	/**
	 * Launches {@code migrateRefsJob}; {@code null} options take the job's defaults
	 * (reflogs on, 100000 refs per chunk, no throttle).
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'MIGRATE')")
	public JobSummary migrate(String repo, String targetFormat, Boolean reflogs, Integer chunkSize,
			Integer throttleMillis, String actor) {
		return launch(RefJobType.MIGRATE, repo,
				() -> MigrateParameters.of(targetFormat, reflogs, chunkSize, throttleMillis), actor);
	}

	/**
	 * Launches {@code verifyRefsJob}: the dry run before a migration, which changes
	 * nothing.
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'VERIFY')")
	public JobSummary verify(String repo, String actor) {
		return launch(RefJobType.VERIFY, repo, VerifyParameters::new, actor);
	}

	/**
	 * Launches {@code inventoryRefsJob}, which counts the refs for the inventory history
	 * and changes nothing.
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'INVENTORY')")
	public JobSummary inventory(String repo, String actor) {
		return launch(RefJobType.INVENTORY, repo, InventoryParameters::new, actor);
	}

	/**
	 * Launches {@code journalRetentionJob}, which applies the repository's journal
	 * retention once, now: the entries it deletes are gone for good, so it needs ADMIN.
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'JOURNAL_RETENTION')")
	public JobSummary journalRetention(String repo, String actor) {
		return launch(RefJobType.JOURNAL_RETENTION, repo, JournalRetentionParameters::new, actor);
	}

	/** Launches {@code maintainRefsJob}. */
	@PreAuthorize("@jobPolicy.allows(authentication, 'MAINTAIN')")
	public JobSummary maintain(String repo, boolean force, String actor) {
		return launch(RefJobType.MAINTAIN, repo, () -> new MaintainParameters(force), actor);
	}

	/**
	 * Launches {@code deleteRefsJob} in plan-only mode: count, sample and manifest,
	 * nothing deleted; the plan keeps the protected refs
	 * ({@code refstore.deletion.protected-refs}) and says which it kept. Blank selections
	 * are left out; the batch module refuses a selection that selects nothing.
	 * @param criteria what narrows the selection (namespaces, merged into a branch, older
	 * than, not updated since); blank ones are left out
	 * @param overrideProtection {@code true} to plan without protection: ADMIN only, with
	 * a non-blank {@code overrideReason} (the batch module refuses it blank, naming
	 * {@code overrideReason}), which stays in the launch's audit entry
	 */
	@PreAuthorize("@jobPolicy.allowsPlan(authentication, #overrideProtection)")
	public JobSummary planDeletion(String repo, List<String> prefixes, List<String> globs, List<String> names,
			List<String> excludes, DeleteCriteria criteria, boolean overrideProtection, String overrideReason,
			String actor) {
		return launch(RefJobType.DELETE, repo,
				() -> DeleteParameters.plan(given(prefixes), given(globs), given(names), given(excludes),
						new DeleteCriteria(given(criteria.namespaces()), criteria.mergedInto(), criteria.olderThan(),
								criteria.notUpdatedSince()),
						overrideProtection, blank(overrideReason) ? null : overrideReason),
				actor);
	}

	/**
	 * Executes the plan a completed plan-only execution wrote, after the confirmation.
	 * @throws InvalidRequestException naming {@code confirmRepository} or
	 * {@code confirmCount} when the confirmed values differ from the plan's, or
	 * {@code plan} when the execution is no completed plan
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'DELETE')")
	public JobSummary executeDeletion(Long planExecutionId, String confirmRepository, String confirmCount,
			String actor) {
		try {
			if (planExecutionId == null) {
				throw new InvalidRequestException("plan", null, "it is required: the id of a completed plan");
			}
			JobSummary plan = completedPlan(planExecutionId);
			if (!plan.repository().equals(confirmRepository)) {
				throw new InvalidRequestException("confirmRepository", confirmRepository,
						"type the repository's name exactly: " + plan.repository());
			}
			long count = Long.parseLong(plan.results().get(JobResults.PLAN_COUNT));
			if (!TypedCount.confirms(confirmCount, count)) {
				throw new InvalidRequestException("confirmCount", confirmCount,
						"type the number of refs the plan deletes: " + TypedCount.shown(count));
			}
			return launch(RefJobType.DELETE, plan.repository(), () -> DeleteParameters.execute(relativePlan(plan)),
					actor);
		}
		catch (InvalidRequestException ex) {
			Map<String, String> given = new LinkedHashMap<>();
			given.put("plan", String.valueOf(planExecutionId));
			given.put("confirmRepository", String.valueOf(confirmRepository));
			given.put("confirmCount", String.valueOf(confirmCount));
			refused(actor, confirmRepository, given, ex);
			throw ex;
		}
	}

	/**
	 * Audits a deletion or restore refused before it reached the batch module (which
	 * audits its own refusals): an execute without the right confirmation, a restore of
	 * something that is no executed deletion.
	 */
	private void refused(String actor, String repository, Map<String, String> parameters, RuntimeException ex) {
		this.events.publishEvent(AuditEntry.of((actor != null) ? actor : "anonymous", "job.launch", repository,
				RefJobType.DELETE.jobName(), parameters, AuditEntry.Outcome.REJECTED, "REFUSED: " + ex.getMessage()));
	}

	/**
	 * The execution {@code id} if it is a plan-only deletion that completed.
	 * @throws InvalidRequestException naming {@code plan} otherwise
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public JobSummary completedPlan(long id) {
		JobSummary plan = lookUp(id)
			.orElseThrow(() -> new InvalidRequestException("plan", Long.toString(id), "no such execution"));
		if (plan.type() != RefJobType.DELETE || !DeleteParameters.from(plan.parameters()).planOnly()
				|| plan.status() != JobStatus.COMPLETED || plan.results().get(JobResults.PLAN_PATH) == null) {
			throw new InvalidRequestException("plan", Long.toString(id), "it is not a completed deletion plan");
		}
		return plan;
	}

	/**
	 * Restores what the deletion execution {@code id} deleted, from the manifest beside
	 * its plan.
	 * @throws InvalidRequestException naming {@code deletion} if it is no executed
	 * deletion
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'RESTORE')")
	public JobSummary restoreDeletion(long id, String actor) {
		JobSummary deletion = lookUp(id).orElse(null);
		String plan = (deletion == null) ? null : deletion.parameters().get(JobParameterNames.PLAN);
		if (deletion == null || deletion.type() != RefJobType.DELETE || plan == null) {
			InvalidRequestException ex = new InvalidRequestException("deletion", Long.toString(id),
					(deletion == null) ? "no such execution" : "it is not an executed deletion");
			refused(actor, (deletion == null) ? null : deletion.repository(), Map.of("deletion", Long.toString(id)),
					ex);
			throw ex;
		}
		return restore(deletion.repository(), Path.of(plan).getParent().toString(), actor);
	}

	/**
	 * Launches {@code restoreRefsJob} over a manifest (a directory under
	 * {@code refstore-plans}).
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'RESTORE')")
	public JobSummary restore(String repo, String manifest, String actor) {
		return restore(repo, manifest, List.of(), actor);
	}

	/**
	 * Launches {@code restoreRefsJob} over a manifest for some of its refs only (one
	 * branch put back where the deletion left it); the others stay deleted.
	 * @param names full ref names; empty for every ref of the manifest
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'RESTORE')")
	public JobSummary restore(String repo, String manifest, List<String> names, String actor) {
		return launch(RefJobType.RESTORE, repo,
				() -> new RestoreParameters(path(JobParameterNames.MANIFEST, manifest), names), actor);
	}

	/**
	 * Launches {@code rewindRefsJob} over a point-in-time restore's plan (a file under
	 * {@code refstore-plans}).
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'REWIND')")
	public JobSummary rewind(String repo, String plan, String actor) {
		return launch(RefJobType.REWIND, repo, () -> new RewindParameters(path(JobParameterNames.PLAN, plan)), actor);
	}

	/**
	 * Launches {@code rollbackMigrationJob} over a backup a migration kept. A backup that
	 * is gone because a rollback used it (a rollback moves it back into place) is refused
	 * naming that rollback.
	 */
	@PreAuthorize("@jobPolicy.allows(authentication, 'ROLLBACK')")
	public JobSummary rollback(String repo, String backup, String actor) {
		try {
			return launch(RefJobType.ROLLBACK, repo,
					() -> new RollbackParameters(path(JobParameterNames.BACKUP, backup)), actor);
		}
		catch (InvalidRequestException ex) {
			String name = JobRelations.lastName(backup);
			if (!JobParameterNames.BACKUP.equals(ex.parameter()) || repo == null || name == null) {
				throw ex;
			}
			JobSummary used = this.jobs
				.list(new JobFilter(null, RefJobType.ROLLBACK, repo, null, null, null, 0, RELATED_LIMIT))
				.stream()
				.filter((job) -> !job.status().unsuccessful())
				.filter((job) -> {
					return name.equals(JobRelations.lastName(job.parameters().get(JobParameterNames.BACKUP)));
				})
				.findFirst()
				.orElse(null);
			if (used == null) {
				throw ex;
			}
			throw new InvalidRequestException(JobParameterNames.BACKUP, backup, "it was used by rollback job "
					+ used.executionId() + " (" + used.status().name().toLowerCase(Locale.ROOT)
					+ "): a rollback moves the backup back into place, so each backup can be rolled back to once");
		}
	}

	/**
	 * Asks a running execution to stop between chunks.
	 * @throws org.springframework.web.ErrorResponseException 404 for an unknown
	 * execution, 409 if it is not running
	 */
	@PreAuthorize("hasRole('OPERATOR')")
	public JobSummary stop(long id, String actor) {
		JobSummary job = get(id);
		try {
			if (!this.jobs.stop(id, actor)) {
				throw notRunning(job);
			}
		}
		catch (JobStateException ex) {
			throw notRunning(job);
		}
		return get(id);
	}

	/**
	 * Restarts a stopped or failed execution from its last committed chunk, as a new
	 * execution. Restarting a rollback, a restore or a deletion's execution needs ADMIN,
	 * as launching them does.
	 * @throws org.springframework.web.ErrorResponseException 404 for an unknown
	 * execution, 409 if it is not STOPPED or FAILED
	 * @throws JobConflictException if another job holds the repository
	 */
	@PreAuthorize("hasRole('ADMIN') or (hasRole('OPERATOR') and !@jobService.needsAdmin(#id))")
	public JobSummary restart(long id, String actor) {
		JobSummary job = get(id);
		try {
			return this.fleet.restart(id, job.repository(), actor);
		}
		catch (InvalidJobParameterException ex) {
			throw InvalidRequestException.of(ex);
		}
		catch (JobStateException ex) {
			throw Problems.exception(HttpStatus.CONFLICT, "job-state",
					"execution " + id + " of " + job.job() + " is " + job.status()
							+ "; only STOPPED and FAILED executions restart",
					Map.of("execution", id, "status", job.status()));
		}
	}

	/**
	 * Whether restarting execution {@code id} needs ADMIN: it rolls back, restores,
	 * executes a deletion, or plans one that overrides the protected refs. {@code false}
	 * for an unknown execution (which the restart then reports as not found). Not
	 * secured: it only reads the job's type.
	 */
	public boolean needsAdmin(long id) {
		return lookUp(id).map((job) -> Roles.ADMIN.equals(JobPolicy.role(job.type(), job.parameters()))).orElse(false);
	}

	/** One execution, or empty. */
	@PreAuthorize("hasRole('VIEWER')")
	public Optional<JobSummary> find(long id) {
		return lookUp(id);
	}

	/**
	 * One execution.
	 * @throws org.springframework.web.ErrorResponseException 404 if there is none of that
	 * id
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public JobSummary get(long id) {
		return lookUp(id)
			.orElseThrow(() -> Problems.notFound("job-not-found", "no job execution " + id, Map.of("execution", id)));
	}

	/**
	 * How {@code job} connects to the other executions of its repository (restarts, plan,
	 * deletions, restores, rollbacks): its instance's runs, and the newest
	 * {@link #RELATED_LIMIT} executions of each related type
	 * ({@link JobRelations#relatedTypes}), so that a maintenance job's page loads no
	 * other job.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public JobRelations relations(JobSummary job) {
		List<JobSummary> others = new ArrayList<>();
		if (job.repository() != null) {
			for (RefJobType type : JobRelations.relatedTypes(job.type())) {
				others.addAll(this.jobs
					.list(new JobFilter(null, type, job.repository(), null, null, null, 0, RELATED_LIMIT)));
			}
			others.sort(Comparator.comparingLong(JobSummary::executionId).reversed());
		}
		return JobRelations.of(job, others, this.jobs.executionIds(job.instanceId()));
	}

	/**
	 * The deletions of {@code repo} that ran (not plans), newest first, the last
	 * {@value #RELATED_LIMIT}: what a restore can be made from, each with its manifest.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<ExecutedDeletion> executedDeletions(String repo) {
		List<ExecutedDeletion> out = new ArrayList<>();
		for (JobSummary job : this.jobs
			.list(new JobFilter(JobStatus.COMPLETED, RefJobType.DELETE, repo, null, null, null, 0, RELATED_LIMIT))) {
			String plan = job.parameters().get(JobParameterNames.PLAN);
			if (plan != null && !DeleteParameters.from(job.parameters()).planOnly()) {
				out.add(new ExecutedDeletion(job.executionId(), Path.of(plan).getParent().toString(), job.ended(),
						job.actor()));
			}
		}
		return out;
	}

	/**
	 * A deletion that ran.
	 *
	 * @param executionId its execution
	 * @param manifest its manifest's directory under {@code refstore-plans}
	 * @param ended when it ended, in the server's zone
	 * @param actor who launched it
	 */
	public record ExecutedDeletion(long executionId, String manifest, LocalDateTime ended, String actor) {

	}

	/**
	 * The name jobs record for {@code repository} ({@link FleetJobs#canonical}): the
	 * history's filter looks a repository up by it, so that either of its names finds its
	 * jobs. A pattern ({@code team/*}) is kept as given.
	 */
	public String recordedName(String repository) {
		if (repository == null || repository.indexOf('*') >= 0 || repository.indexOf('?') >= 0) {
			return repository;
		}
		return this.fleet.canonical(repository);
	}

	/** Executions matching {@code filter}, newest first. */
	@PreAuthorize("hasRole('VIEWER')")
	public List<JobSummary> list(JobFilter filter) {
		return this.jobs.list(filter);
	}

	/**
	 * How many executions match {@code filter} in each status, its own status, offset and
	 * limit aside (one query): the history's counters, and its total.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public Map<JobStatus, Long> countByStatus(JobFilter filter) {
		return this.jobs.countByStatus(filter);
	}

	/**
	 * The steps {@code job} runs, in order, by name, including those it has not reached
	 * yet; empty for a job refstore does not know.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public List<String> steps(JobSummary job) {
		return (job.type() == null) ? List.of() : this.jobs.steps(job.type(), job.parameters());
	}

	/**
	 * The execution that restarted {@code job} (the next run of its instance), or
	 * {@code null}: a job goes on from its latest run only. One indexed query.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public Long restartedAs(JobSummary job) {
		List<Long> runs = this.jobs.executionIds(job.instanceId());
		int at = runs.indexOf(job.executionId());
		return (at >= 0 && at + 1 < runs.size()) ? runs.get(at + 1) : null;
	}

	/**
	 * When each repository last completed a job of {@code type}: the end of its newest
	 * COMPLETED execution, in the server's zone. Repositories without one are absent. One
	 * indexed query per repository, by the name given at launch.
	 */
	@PreAuthorize("hasRole('VIEWER')")
	public Map<String, Instant> lastCompleted(RefJobType type, Collection<String> repositories) {
		Map<String, Instant> out = new LinkedHashMap<>();
		for (String repository : repositories) {
			this.jobs.list(new JobFilter(JobStatus.COMPLETED, type, repository, null, null, null, 0, 1))
				.stream()
				.filter((job) -> job.ended() != null)
				.findFirst()
				.ifPresent((job) -> out.put(repository, job.ended().atZone(ZoneId.systemDefault()).toInstant()));
		}
		return out;
	}

	private Optional<JobSummary> lookUp(long id) {
		try {
			return this.jobs.find(id);
		}
		catch (EmptyResultDataAccessException ex) {
			// RefJobs.find reads the instance of an execution that does not exist before
			// checking for it
			return Optional.empty();
		}
	}

	private static RuntimeException notRunning(JobSummary job) {
		return Problems.exception(HttpStatus.CONFLICT, "job-state",
				"execution " + job.executionId() + " of " + job.job() + " is " + job.status()
						+ ", not running; there is nothing to stop",
				Map.of("execution", job.executionId(), "status", job.status()));
	}

	/**
	 * The plan's path relative to {@code refstore-plans}, as {@code deleteRefsJob}'s
	 * {@code plan} parameter.
	 */
	private static Path relativePlan(JobSummary plan) {
		Path path = Path.of(plan.results().get(JobResults.PLAN_PATH));
		for (Path dir = path.getParent(); dir != null; dir = dir.getParent()) {
			if (dir.getFileName() != null && dir.getFileName().toString().equals(JobResults.PLANS_DIR)) {
				return dir.relativize(path);
			}
		}
		throw new InvalidRequestException("plan", path.toString(), "it lies outside " + JobResults.PLANS_DIR);
	}

	/**
	 * The job type {@code text} names, by constant or job name, ignoring case.
	 * @throws InvalidRequestException naming {@code field} if it names none
	 */
	public static RefJobType jobType(String field, String text) {
		return RefJobType.find(text)
			.orElseThrow(() -> new InvalidRequestException(field, text, "not one of " + RefJobType.names()));
	}

	/**
	 * The status {@code text} names, ignoring case and surrounding blanks; {@code null}
	 * for none.
	 * @throws InvalidRequestException naming {@code status} if it names none
	 */
	public static JobStatus jobStatus(String text) {
		if (text == null || text.isBlank()) {
			return null;
		}
		String name = text.strip().toUpperCase(Locale.ROOT);
		return Arrays.stream(JobStatus.values())
			.filter((status) -> status.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new InvalidRequestException("status", text,
					"not one of " + Arrays.toString(JobStatus.values())));
	}

	/**
	 * Launches through the batch module, whose refusal of a parameter becomes this
	 * request's (it audits the refusal itself), as is {@link JobPolicy}'s refusal of
	 * parameters that need a role the caller lacks.
	 */
	private JobSummary launch(RefJobType type, String repo, Supplier<? extends RefJobParameters> parameters,
			String actor) {
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		Supplier<RefJobParameters> allowed = () -> {
			RefJobParameters typed = parameters.get();
			this.policy.check(caller, typed.type(), typed.toMap(), "launches");
			return typed;
		};
		try {
			return this.fleet.launch(type, repo, allowed, actor);
		}
		catch (InvalidJobParameterException ex) {
			throw InvalidRequestException.of(ex);
		}
	}

	/** A path the caller gives, relative to a directory the job knows. */
	private static Path path(String parameter, String value) {
		if (blank(value)) {
			throw new InvalidRequestException(parameter, null, "it is required");
		}
		try {
			return Path.of(value.strip());
		}
		catch (InvalidPathException ex) {
			throw new InvalidRequestException(parameter, value, "it is not a path");
		}
	}

	/** The non-blank values, stripped. */
	private static List<String> given(List<String> values) {
		return (values == null) ? List.of() : values.stream().filter((v) -> !blank(v)).map(String::strip).toList();
	}

	private static boolean blank(String value) {
		return value == null || value.isBlank();
	}

}
