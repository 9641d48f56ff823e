package io.refstore.web.console.jobs;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

import io.refstore.batch.support.InvalidJobParameterException;
import io.refstore.batch.support.JobFilter;
import io.refstore.batch.support.JobParameterNames;
import io.refstore.batch.support.JobSummary;
import io.refstore.batch.support.RefJobType;
import io.refstore.batch.support.RefJobs;

/**
 * The console's way to the refstore jobs, with the roles checked here whatever the page showed: VIEWER reads the
 * history, OPERATOR launches migrations, maintenance and deletion plans and stops or restarts executions, ADMIN
 * executes a deletion, restores and rolls back. A deletion executes only a plan that completed, and only when
 * the user typed the repository's name and the plan's count. Thread-safe.
 */
@Service
public class ConsoleJobs {

	/** The file name of a deletion plan inside its directory under {@code refstore-plans}. */
	static final String PLANS_DIR = "refstore-plans";

	private final RefJobs jobs;

	ConsoleJobs(RefJobs jobs) {
		this.jobs = jobs;
	}

	/** Launches {@code migrateRefsJob}. */
	@PreAuthorize("hasRole('OPERATOR')")
	public JobSummary migrate(String repo, String targetFormat, boolean reflogs, int chunkSize, String actor) {
		return this.jobs.launch(RefJobType.MIGRATE,
				Map.of(JobParameterNames.REPOSITORY, repo, JobParameterNames.TARGET_FORMAT, targetFormat,
						JobParameterNames.REFLOGS, Boolean.toString(reflogs), JobParameterNames.CHUNK_SIZE,
						Integer.toString(chunkSize)),
				actor);
	}

	/** Launches {@code verifyRefsJob}: the dry run before a migration, which changes nothing. */
	@PreAuthorize("hasRole('OPERATOR')")
	public JobSummary verify(String repo, String actor) {
		return this.jobs.launch(RefJobType.VERIFY, Map.of(JobParameterNames.REPOSITORY, repo), actor);
	}

	/** Launches {@code maintainRefsJob}. */
	@PreAuthorize("hasRole('OPERATOR')")
	public JobSummary maintain(String repo, boolean force, String actor) {
		return this.jobs.launch(RefJobType.MAINTAIN,
				Map.of(JobParameterNames.REPOSITORY, repo, JobParameterNames.FORCE, Boolean.toString(force)), actor);
	}

	/** Launches {@code deleteRefsJob} in plan-only mode: count, sample and manifest, nothing deleted. */
	@PreAuthorize("hasRole('OPERATOR')")
	public JobSummary planDeletion(String repo, String prefixes, String globs, String excludes, String actor) {
		Map<String, String> parameters = new LinkedHashMap<>();
		parameters.put(JobParameterNames.REPOSITORY, repo);
		putIfGiven(parameters, JobParameterNames.PREFIXES, prefixes);
		putIfGiven(parameters, JobParameterNames.GLOBS, globs);
		putIfGiven(parameters, JobParameterNames.EXCLUDES, excludes);
		parameters.put(JobParameterNames.PLAN_ONLY, "true");
		return this.jobs.launch(RefJobType.DELETE, parameters, actor);
	}

	/**
	 * Executes the plan a completed plan-only execution wrote, after the typed confirmation.
	 * @throws InvalidJobParameterException naming {@code confirmRepository} or {@code confirmCount} when the typed
	 * values differ from the plan's, or {@code plan} when the execution is no completed plan
	 */
	@PreAuthorize("hasRole('ADMIN')")
	public JobSummary executeDeletion(long planExecutionId, String confirmRepository, String confirmCount,
			String actor) {
		JobSummary plan = completedPlan(planExecutionId);
		if (!plan.repository().equals(confirmRepository)) {
			throw new InvalidJobParameterException("confirmRepository", confirmRepository,
					"type the repository's name exactly: " + plan.repository());
		}
		String count = plan.results().get("plan.count");
		if (!count.equals(confirmCount == null ? "" : confirmCount.strip())) {
			throw new InvalidJobParameterException("confirmCount", confirmCount,
					"type the number of refs the plan deletes: " + count);
		}
		return this.jobs.launch(RefJobType.DELETE, Map.of(JobParameterNames.REPOSITORY, plan.repository(),
				JobParameterNames.PLAN, relativePlan(plan).toString()), actor);
	}

	/** The execution {@code id} if it is a plan-only deletion that completed. */
	@PreAuthorize("hasRole('VIEWER')")
	public JobSummary completedPlan(long id) {
		JobSummary plan = find(id)
			.orElseThrow(() -> new InvalidJobParameterException("plan", Long.toString(id), "no such execution"));
		if (plan.type() != RefJobType.DELETE || !"true".equals(plan.parameters().get(JobParameterNames.PLAN_ONLY))
				|| !"COMPLETED".equals(plan.status()) || plan.results().get("plan.path") == null) {
			throw new InvalidJobParameterException("plan", Long.toString(id), "it is not a completed deletion plan");
		}
		return plan;
	}

	/** Restores what the deletion execution {@code id} deleted, from the manifest beside its plan. */
	@PreAuthorize("hasRole('ADMIN')")
	public JobSummary restoreDeletion(long id, String actor) {
		JobSummary deletion = find(id)
			.orElseThrow(() -> new InvalidJobParameterException("execution", Long.toString(id), "no such execution"));
		String plan = deletion.parameters().get(JobParameterNames.PLAN);
		if (deletion.type() != RefJobType.DELETE || plan == null) {
			throw new InvalidJobParameterException("execution", Long.toString(id), "it is not an executed deletion");
		}
		return restore(deletion.repository(), Path.of(plan).getParent().toString(), actor);
	}

	/** Launches {@code restoreRefsJob} over a manifest (a directory under {@code refstore-plans}). */
	@PreAuthorize("hasRole('ADMIN')")
	public JobSummary restore(String repo, String manifest, String actor) {
		return this.jobs.launch(RefJobType.RESTORE,
				Map.of(JobParameterNames.REPOSITORY, repo, JobParameterNames.MANIFEST, manifest), actor);
	}

	/** Launches {@code rollbackMigrationJob}. */
	@PreAuthorize("hasRole('ADMIN')")
	public JobSummary rollback(String repo, String backup, String actor) {
		return this.jobs.launch(RefJobType.ROLLBACK,
				Map.of(JobParameterNames.REPOSITORY, repo, JobParameterNames.BACKUP, backup), actor);
	}

	/** Asks a running execution to stop between chunks. */
	@PreAuthorize("hasRole('OPERATOR')")
	public boolean stop(long id, String actor) {
		return this.jobs.stop(id, actor);
	}

	/** Restarts a stopped or failed execution from its last committed chunk. */
	@PreAuthorize("hasRole('OPERATOR')")
	public JobSummary restart(long id, String actor) {
		return this.jobs.restart(id, actor);
	}

	/** One execution, or empty. */
	@PreAuthorize("hasRole('VIEWER')")
	public Optional<JobSummary> find(long id) {
		try {
			return this.jobs.find(id);
		}
		catch (EmptyResultDataAccessException ex) {
			// RefJobs.find reads the instance of an execution that does not exist before checking for it
			return Optional.empty();
		}
	}

	/** Executions matching {@code filter}, newest first. */
	@PreAuthorize("hasRole('VIEWER')")
	public List<JobSummary> list(JobFilter filter) {
		return this.jobs.list(filter);
	}

	/** The plan's path relative to {@code refstore-plans}, as {@code deleteRefsJob}'s {@code plan} parameter. */
	private static Path relativePlan(JobSummary plan) {
		Path path = Path.of(plan.results().get("plan.path"));
		for (Path dir = path.getParent(); dir != null; dir = dir.getParent()) {
			if (dir.getFileName() != null && dir.getFileName().toString().equals(PLANS_DIR)) {
				return dir.relativize(path);
			}
		}
		throw new InvalidJobParameterException("plan", path.toString(), "it lies outside " + PLANS_DIR);
	}

	private static void putIfGiven(Map<String, String> parameters, String key, String value) {
		if (value != null && !value.isBlank()) {
			parameters.put(key, value.strip());
		}
	}

}
