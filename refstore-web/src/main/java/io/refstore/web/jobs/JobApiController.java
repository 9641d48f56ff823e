package io.refstore.web.jobs;

import java.net.URI;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

import io.refstore.batch.api.DeleteCriteria;
import io.refstore.batch.api.JobFilter;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.security.Actors;
import io.refstore.web.system.InvalidRequestException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The job API: one launch resource per kind of job (each answers 201 with the new
 * execution and its {@code Location}), the executions with filters and paging, one
 * execution with its progress, stop and restart. Roles are checked by {@link JobService};
 * parameters are checked by the batch module before anything starts (400 naming the
 * parameter); a repository another job holds is a 409 naming that execution.
 */
@RestController
@RequestMapping("/api/jobs")
@Tag(name = "jobs")
class JobApiController {

	static final int MAX_PAGE_SIZE = 500;

	private final JobService jobs;

	JobApiController(JobService jobs) {
		this.jobs = jobs;
	}

	/**
	 * A migration; {@code dryRun} launches the verification instead, which reads the
	 * store and changes nothing.
	 */
	record MigrationRequest(String repository, String targetFormat, Boolean reflogs, Integer chunkSize,
			Integer throttleMillis, Boolean dryRun) {
	}

	record VerificationRequest(String repository) {
	}

	record MaintenanceRequest(String repository, Boolean force) {
	}

	record InventoryRequest(String repository) {
	}

	record JournalRetentionRequest(String repository) {
	}

	/**
	 * A deletion plan; {@code overrideProtection} (ADMIN, with a non-blank
	 * {@code overrideReason}) lets it select the protected refs too.
	 */
	record DeletionPlanRequest(String repository, List<String> prefixes, List<String> globs, List<String> names,
			List<String> excludes, List<String> namespaces, String mergedInto, String olderThan, String notUpdatedSince,
			Boolean overrideProtection, String overrideReason) {
	}

	record DeletionRequest(Long plan, String confirmRepository, String confirmCount) {
	}

	record RestoreRequest(String repository, String manifest, Long deletion) {
	}

	record RollbackRequest(String repository, String backup) {
	}

	/**
	 * A page of executions.
	 *
	 * @param jobs newest first
	 * @param next the next page's URL, or {@code null} on the last page
	 */
	record JobPage(List<JobView> jobs, String next) {
	}

	@PostMapping("/migrations")
	@Operation(summary = "Migrate a repository's refs to the other format (ADMIN; its dryRun OPERATOR)",
			description = "targetFormat: files or reftable; chunkSize 1..1000000 (100000); throttleMillis 0..60000 (0); "
					+ "reflogs (true). dryRun: true launches verifyRefsJob instead, which reads and digests the store "
					+ "and changes nothing (batch has no staged dry run of the migration itself).")
	ResponseEntity<JobView> launchMigration(@RequestBody MigrationRequest request) {
		JobSummary job = Boolean.TRUE.equals(request.dryRun())
				? this.jobs.verify(request.repository(), Actors.current())
				: this.jobs.migrate(request.repository(), request.targetFormat(), request.reflogs(),
						request.chunkSize(), request.throttleMillis(), Actors.current());
		return created(job);
	}

	@PostMapping("/verifications")
	@Operation(summary = "Verify a repository's refs and digest them; changes nothing (OPERATOR)")
	ResponseEntity<JobView> launchVerification(@RequestBody VerificationRequest request) {
		return created(this.jobs.verify(request.repository(), Actors.current()));
	}

	@PostMapping("/inventories")
	@Operation(summary = "Count a repository's refs for the inventory history; changes nothing (OPERATOR)",
			description = "Records refs, stale and merged refs per namespace and the store's figures; read them "
					+ "with GET /api/repos/{repo}/inventory.")
	ResponseEntity<JobView> launchInventory(@RequestBody InventoryRequest request) {
		return created(this.jobs.inventory(request.repository(), Actors.current()));
	}

	@PostMapping("/journal-retentions")
	@Operation(summary = "Apply a repository's ref journal retention once, now (ADMIN)",
			description = "Ingests the journal, sets a large file aside and deletes the entries past the repository's "
					+ "retention (each ref keeps its newest older change), as the journal's sweep does; the job's "
					+ "results say what it did (journal.deleted, journal.setAside, journal.outcome in words). "
					+ "A schedule of jobType JOURNAL_RETENTION runs it periodically.")
	ResponseEntity<JobView> launchJournalRetention(@RequestBody JournalRetentionRequest request) {
		return created(this.jobs.journalRetention(request.repository(), Actors.current()));
	}

	@PostMapping("/maintenance")
	@Operation(summary = "Pack loose refs or compact the reftable stack (OPERATOR)")
	ResponseEntity<JobView> launchMaintenance(@RequestBody MaintenanceRequest request) {
		return created(
				this.jobs.maintain(request.repository(), Boolean.TRUE.equals(request.force()), Actors.current()));
	}

	@PostMapping("/deletion-plans")
	@Operation(summary = "Plan a deletion: count, sample and manifest, nothing deleted (OPERATOR)",
			description = "Selections are lists of prefixes, for-each-ref globs and full names, minus excludes. "
					+ "Criteria narrow them: namespaces (refs/heads/; alone they select their refs), mergedInto (a "
					+ "branch, or HEAD for the branch HEAD names: refs its commit reaches, as for-each-ref --merged), "
					+ "olderThan (creator date before an age such as 90d, 12w, 6m, 1y, a day 2026-01-31 or a time "
					+ "2026-01-31T12:00:00Z) and notUpdatedSince (newest reflog entry, else creator date, before such a "
					+ "time); the results then hold plan.criteria (matches per criterion) and plan.reasons (why each "
					+ "sampled ref was selected). "
					+ "Protected refs (refstore.deletion.protected-refs: refs/keep-around/**, refs/changes/**/meta, "
					+ "refs/notes/**, refs/meta/**, HEAD's branch) are kept whatever is selected: the results hold "
					+ "plan.protected.count, plan.protected.byPattern and plan.protected.sample beside plan.count and "
					+ "plan.sample. overrideProtection: true deletes them too (ADMIN only, 403 otherwise) and needs a "
					+ "non-blank overrideReason (400 naming it), kept in the audit log. Execute the plan with "
					+ "POST /api/jobs/deletions.")
	ResponseEntity<JobView> launchDeletionPlan(@RequestBody DeletionPlanRequest request) {
		return created(this.jobs.planDeletion(request.repository(), list("prefixes", request.prefixes()),
				list("globs", request.globs()), list("names", request.names()), list("excludes", request.excludes()),
				new DeleteCriteria(list("namespaces", request.namespaces()), request.mergedInto(), request.olderThan(),
						request.notUpdatedSince()),
				Boolean.TRUE.equals(request.overrideProtection()), request.overrideReason(), Actors.current()));
	}

	@PostMapping("/deletions")
	@Operation(summary = "Execute a reviewed deletion plan (ADMIN)",
			description = "plan: the execution id of a completed plan; confirmRepository and confirmCount must "
					+ "repeat the plan's repository and plan.count, as the console's typed confirmation does.")
	ResponseEntity<JobView> launchDeletion(@RequestBody DeletionRequest request) {
		return created(this.jobs.executeDeletion(request.plan(), request.confirmRepository(), request.confirmCount(),
				Actors.current()));
	}

	@PostMapping("/restores")
	@Operation(summary = "Restore the refs a deletion removed (ADMIN)",
			description = "Either deletion: the id of an executed deletion, or repository and manifest: a manifest "
					+ "file or directory relative to the repository's refstore-plans directory.")
	ResponseEntity<JobView> launchRestore(@RequestBody RestoreRequest request) {
		if (request.deletion() != null) {
			if (request.repository() != null || request.manifest() != null) {
				throw new InvalidRequestException("deletion", request.deletion().toString(),
						"give either deletion or repository and manifest, not both");
			}
			return created(this.jobs.restoreDeletion(request.deletion(), Actors.current()));
		}
		return created(this.jobs.restore(request.repository(), request.manifest(), Actors.current()));
	}

	@PostMapping("/rollbacks")
	@Operation(summary = "Roll a migration back to the store it kept (ADMIN)",
			description = "backup: the backup directory the migration recorded in its results, relative to the "
					+ "repository's backup directory.")
	ResponseEntity<JobView> launchRollback(@RequestBody RollbackRequest request) {
		return created(this.jobs.rollback(request.repository(), request.backup(), Actors.current()));
	}

	@GetMapping
	@Operation(summary = "Job executions, newest first, with filters and paging (VIEWER)",
			description = "from and to are ISO local date-times (server time) bounding the creation time, to "
					+ "exclusive. repository and user match exactly, or as a pattern with * (any characters) and ? "
					+ "(one). The response's next (and Link: rel=\"next\") is the following page.")
	ResponseEntity<JobPage> listJobs(@RequestParam(required = false) String status,
			@RequestParam(required = false) String type, @RequestParam(required = false) String repository,
			@RequestParam(required = false) String user,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) LocalDateTime from,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) LocalDateTime to,
			@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
		if (page < 0) {
			throw new InvalidRequestException("page", Integer.toString(page), "it must not be negative");
		}
		if (size < 1 || size > MAX_PAGE_SIZE) {
			throw new InvalidRequestException("size", Integer.toString(size), "it must be from 1 to " + MAX_PAGE_SIZE);
		}
		if ((long) page * size > Integer.MAX_VALUE - size - 1) {
			throw new InvalidRequestException("page", Integer.toString(page),
					"it is past any history: page times size must stay below " + Integer.MAX_VALUE);
		}
		JobStatus wanted = JobService.jobStatus(status);
		JobFilter filter = new JobFilter(wanted, type(type), blank(repository), blank(user), from, to, page * size,
				size + 1);
		List<JobSummary> found = this.jobs.list(filter);
		String next = null;
		if (found.size() > size) {
			found = found.subList(0, size);
			next = UriComponentsBuilder.fromPath("/api/jobs")
				.queryParamIfPresent("status", Optional.ofNullable(wanted).map(JobStatus::name))
				.queryParamIfPresent("type",
						Optional.ofNullable(filter.type()).map((t) -> t.name().toLowerCase(Locale.ROOT)))
				.queryParamIfPresent("repository", Optional.ofNullable(filter.repository()))
				.queryParamIfPresent("user", Optional.ofNullable(filter.actor()))
				.queryParamIfPresent("from", Optional.ofNullable(from))
				.queryParamIfPresent("to", Optional.ofNullable(to))
				.queryParam("page", page + 1)
				.queryParam("size", size)
				.encode()
				.build()
				.toUriString();
		}
		ResponseEntity.BodyBuilder response = ResponseEntity.ok();
		if (next != null) {
			response.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
		}
		return response.body(new JobPage(found.stream().map(JobView::of).toList(), next));
	}

	@GetMapping("/{id}")
	@Operation(summary = "One execution with its steps, counts, progress, rate and ETA (VIEWER)")
	JobView showJob(@PathVariable long id) {
		return JobView.of(this.jobs.get(id));
	}

	@PostMapping("/{id}/stop")
	@Operation(summary = "Ask a running execution to stop after its current chunk (OPERATOR)",
			description = "202: the stop is recorded; the execution goes STOPPING, then STOPPED. 409 if it is not running.")
	ResponseEntity<JobView> stopJob(@PathVariable long id) {
		return ResponseEntity.status(HttpStatus.ACCEPTED).body(JobView.of(this.jobs.stop(id, Actors.current())));
	}

	@PostMapping("/{id}/restart")
	@Operation(
			summary = "Restart a STOPPED or FAILED execution from its last committed chunk (OPERATOR; "
					+ "ADMIN for rollback, restore and deletion)",
			description = "201 with the new execution; 409 if the execution is not STOPPED or FAILED, or if another "
					+ "job holds the repository.")
	ResponseEntity<JobView> restartJob(@PathVariable long id) {
		return created(this.jobs.restart(id, Actors.current()));
	}

	private static ResponseEntity<JobView> created(JobSummary job) {
		return ResponseEntity.created(URI.create("/api/jobs/" + job.executionId())).body(JobView.of(job));
	}

	private static RefJobType type(String type) {
		if (type == null || type.isBlank()) {
			return null;
		}
		return JobService.jobType("type", type.strip());
	}

	private static String blank(String value) {
		return (value == null || value.isBlank()) ? null : value.strip();
	}

	/**
	 * A list parameter; an element with a comma is refused (the job keeps its lists as
	 * comma-separated text).
	 */
	private static List<String> list(String parameter, List<String> values) {
		if (values == null) {
			return List.of();
		}
		for (String value : values) {
			if (value == null || value.contains(",")) {
				throw new InvalidRequestException(parameter, value, "an element must be present and hold no comma");
			}
		}
		return values;
	}

}
