package io.refstore.web.jobs;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;

/**
 * How one execution connects to the others of its repository, for the recovery flows: the
 * execution it restarts and the one that restarted it (the same job instance's runs), the
 * plan a deletion executed and the deletions of a plan, the restores of a deletion (by
 * its manifest), the rollbacks of a migration (by its backup).
 *
 * @param restartOf the earlier execution of the same instance, or {@code null}
 * @param restartedAs the next execution of the same instance, or {@code null}
 * @param plan the plan a deletion executed, or {@code null}
 * @param deletions the executions of a plan, or the deletion a restore puts back, newest
 * first
 * @param restores the restores of a deletion's manifest, newest first
 * @param rollbacks the rollbacks that used a migration's backup, newest first
 * @param migration the migration whose backup a rollback used, or {@code null}
 */
public record JobRelations(Long restartOf, Long restartedAs, JobSummary plan, List<JobSummary> deletions,
		List<JobSummary> restores, List<JobSummary> rollbacks, JobSummary migration) {

	/**
	 * The relations of {@code job} among {@code others}, executions of its repository of
	 * the related types ({@link #relatedTypes}) newest first, and {@code instanceRuns},
	 * the ids of its instance's executions oldest first.
	 */
	public static JobRelations of(JobSummary job, List<JobSummary> others, List<Long> instanceRuns) {
		Long restartOf = null;
		Long restartedAs = null;
		int at = instanceRuns.indexOf(job.executionId());
		if (at > 0) {
			restartOf = instanceRuns.get(at - 1);
		}
		if (at >= 0 && at + 1 < instanceRuns.size()) {
			restartedAs = instanceRuns.get(at + 1);
		}
		String planDir = planDirectory(job);
		JobSummary plan = null;
		List<JobSummary> deletions = List.of();
		List<JobSummary> restores = List.of();
		if (planDir != null && isPlan(job)) {
			deletions = others.stream()
				.filter((other) -> isDeletion(other) && planDir.equals(planDirectory(other)))
				.toList();
		}
		if (planDir != null && isDeletion(job)) {
			plan = others.stream()
				.filter((other) -> isPlan(other) && planDir.equals(planDirectory(other)))
				.findFirst()
				.orElse(null);
			restores = others.stream()
				.filter((other) -> other.type() == RefJobType.RESTORE
						&& planDir.equals(lastName(other.parameters().get(JobParameterNames.MANIFEST))))
				.toList();
		}
		if (job.type() == RefJobType.RESTORE) {
			String manifest = lastName(job.parameters().get(JobParameterNames.MANIFEST));
			deletions = others.stream()
				.filter((other) -> isDeletion(other) && manifest != null && manifest.equals(planDirectory(other)))
				.toList();
		}
		String backup = (job.type() == RefJobType.MIGRATE) ? backup(job) : null;
		List<JobSummary> rollbacks = (backup == null) ? List.of()
				: others.stream()
					.filter((other) -> other.type() == RefJobType.ROLLBACK
							&& backup.equals(lastName(other.parameters().get(JobParameterNames.BACKUP))))
					.toList();
		JobSummary migration = null;
		if (job.type() == RefJobType.ROLLBACK) {
			String used = lastName(job.parameters().get(JobParameterNames.BACKUP));
			migration = others.stream()
				.filter((other) -> other.type() == RefJobType.MIGRATE && used != null && used.equals(backup(other)))
				.findFirst()
				.orElse(null);
		}
		return new JobRelations(restartOf, restartedAs, plan, deletions, restores, rollbacks, migration);
	}

	/**
	 * The job types whose executions may relate to a job of {@code type}: a migration's
	 * rollbacks, a rollback's migration, a plan's deletions and a deletion's plan and
	 * restores, a restore's deletion. Restarts come from the job's instance instead.
	 */
	public static Set<RefJobType> relatedTypes(RefJobType type) {
		if (type == null) {
			return Set.of();
		}
		return switch (type) {
			case MIGRATE -> Set.of(RefJobType.ROLLBACK);
			case ROLLBACK -> Set.of(RefJobType.MIGRATE);
			case DELETE -> Set.of(RefJobType.DELETE, RefJobType.RESTORE);
			case RESTORE -> Set.of(RefJobType.DELETE);
			case REWIND -> Set.of(RefJobType.REWIND);
			case VERIFY, MAINTAIN, INVENTORY, JOURNAL_RETENTION -> Set.of();
		};
	}

	/** The restore that completed, if any, else the one that runs. */
	public Optional<JobSummary> restore() {
		return settled(this.restores);
	}

	/** The rollback that completed, if any, else the one that runs. */
	public Optional<JobSummary> rollback() {
		return settled(this.rollbacks);
	}

	/**
	 * The execution of a plan, if any: the newest, whatever its state (a stopped or
	 * failed one is restarted, not run again).
	 */
	public Optional<JobSummary> deletion() {
		return this.deletions.stream().findFirst();
	}

	private static Optional<JobSummary> settled(List<JobSummary> jobs) {
		return jobs.stream()
			.filter((job) -> job.status() == JobStatus.COMPLETED)
			.findFirst()
			.or(() -> jobs.stream().filter(JobSummary::running).findFirst());
	}

	/** The name of the backup a completed migration kept, or {@code null}. */
	public static String backup(JobSummary migration) {
		return lastName(migration.results().get(JobResults.MIGRATION_BACKUP));
	}

	static boolean isPlan(JobSummary job) {
		return job.type() == RefJobType.DELETE && "true".equals(job.parameters().get(JobParameterNames.PLAN_ONLY));
	}

	static boolean isDeletion(JobSummary job) {
		return job.type() == RefJobType.DELETE && job.parameters().get(JobParameterNames.PLAN) != null;
	}

	/**
	 * The name of the directory under {@code refstore-plans} that holds the plan a
	 * plan-only run wrote or a deletion executed (also its manifest's directory).
	 */
	private static String planDirectory(JobSummary job) {
		String plan = isPlan(job) ? job.results().get(JobResults.PLAN_PATH)
				: job.parameters().get(JobParameterNames.PLAN);
		if (plan == null) {
			return null;
		}
		try {
			Path parent = Path.of(plan).getParent();
			return (parent != null && parent.getFileName() != null) ? parent.getFileName().toString() : null;
		}
		catch (InvalidPathException ex) {
			return null;
		}
	}

	/**
	 * The last name of a path as a job holds it (a parameter, a result), or {@code null}
	 * for none, {@code "null"} or no path.
	 */
	static String lastName(String path) {
		if (path == null || path.isBlank() || path.equals("null")) {
			return null;
		}
		try {
			Path name = Path.of(path.strip()).getFileName();
			return (name != null) ? Objects.toString(name) : null;
		}
		catch (InvalidPathException ex) {
			return null;
		}
	}

}
