package io.refstore.web.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.refstore.batch.api.JobStatus;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;

/**
 * A job in words, per kind: the title, the one-line summary from its results, and its
 * parameters split into the chosen and the internal ones.
 */
class JobDescriptionTest {

	private static JobSummary job(RefJobType type, String status, String exitMessage, Map<String, String> parameters,
			Map<String, String> results, List<JobSummary.StepSummary> steps) {
		LocalDateTime at = LocalDateTime.of(2026, 12, 1, 13, 44, 11);
		return new JobSummary(12, 3, type.jobName(), type, JobStatus.valueOf(status), status, exitMessage, "demo.git",
				"admin", parameters, results, at, at, "STARTED".equals(status) ? null : at.plusSeconds(4), steps,
				false);
	}

	@Test
	void aMigrationSaysWhatItCopiedAndWhetherTheDigestsMatch() {
		JobDescription description = new JobDescription(job(RefJobType.MIGRATE, "COMPLETED", "",
				Map.of("chunkSize", "500", "launchId", "0f3c", "repository", "demo.git", "actor", "admin"),
				Map.of("migration.refs", "3546", "migration.logEntries", "326", "migration.from", "files",
						"migration.to", "reftable", "migration.sourceDigest", "ab12", "migration.targetDigest", "ab12",
						"migration.carried", "0"),
				List.of()));
		assertThat(description.title()).isEqualTo("Migration");
		assertThat(description.status()).isEqualTo("Completed");
		assertThat(description.summary())
			.isEqualTo("Copied 3,546 refs and 326 reflog entries from files to reftable; digests match.");
		assertThat(description.parameters()).containsOnlyKeys("chunkSize");
		assertThat(description.internalParameters()).containsOnlyKeys("launchId", "repository", "actor");
		assertThat(description.results().keySet()).startsWith("migration.carried", "migration.from");
	}

	@Test
	void aDeletionPlanAnExecutedDeletionAndARestore() {
		JobDescription plan = new JobDescription(job(RefJobType.DELETE, "COMPLETED", "", Map.of("planOnly", "true"),
				Map.of("plan.count", "2000", "plan.protected.count", "3"), List.of()));
		assertThat(plan.title()).isEqualTo("Deletion plan");
		assertThat(plan.summary(null)).isEqualTo(plan.summary());
		JobSummary stopped = job(RefJobType.DELETE, "STOPPED", "", Map.of("plan", "dir/plan"), Map.of(), List.of());
		assertThat(plan.summary(new JobRelations(null, null, null, List.of(stopped), List.of(), List.of(), null)))
			.isEqualTo("Planned 2,000 refs for deletion (3 protected refs kept); job 12 stopped before the end.");
		assertThat(plan.summary(new JobRelations(null, null, null, List.of(), List.of(), List.of(), null)))
			.endsWith(" Nothing is deleted until it is confirmed.");
		assertThat(plan.summary()).isEqualTo("Plans to delete 2,000 refs (3 protected refs kept).");
		JobDescription deletion = new JobDescription(job(RefJobType.DELETE, "COMPLETED", "", Map.of("plan", "p"),
				Map.of(), List.of(new JobSummary.StepSummary(1, "deleteRefsStep", JobStatus.COMPLETED, "", 1997, 1997,
						2, 0, -1, null, null, false, null))));
		assertThat(deletion.title()).isEqualTo("Deletion");
		assertThat(deletion.summary()).isEqualTo("Deleted 1,997 refs; the manifest keeps them for a restore.");
		JobDescription restore = new JobDescription(job(RefJobType.RESTORE, "COMPLETED", "", Map.of(),
				Map.of("restore.restored", "1997", "restore.present", "0"), List.of()));
		assertThat(restore.summary()).isEqualTo("Restored 1,997 refs.");
	}

	@Test
	void stoppedFailedAndRunningJobs() {
		assertThat(new JobDescription(job(RefJobType.MIGRATE, "STOPPED", "", Map.of(), Map.of(), List.of())).summary())
			.isEqualTo("Stopped on request. Restarting continues where it stopped.");
		assertThat(new JobDescription(
				job(RefJobType.MIGRATE, "FAILED", "the store is locked", Map.of(), Map.of(), List.of()))
			.summary()).isEqualTo("Failed: the store is locked");
		assertThat(new JobDescription(job(RefJobType.MIGRATE, "STARTED", "", Map.of(), Map.of(), List.of())).summary())
			.isNull();
	}

	@Test
	void verificationAndMaintenance() {
		assertThat(new JobDescription(job(RefJobType.VERIFY, "COMPLETED", "", Map.of(),
				Map.of("verify.refs", "10", "verify.logEntries", "4", "verify.format", "files", "verify.errors", "0",
						"verify.warnings", "0"),
				List.of()))
			.summary())
			.isEqualTo("Read 10 refs and 4 reflog entries of the files store: no problem found. Nothing was changed.");
		assertThat(
				new JobDescription(job(RefJobType.MAINTAIN, "COMPLETED", "", Map.of(),
						Map.of("maintain.packed", "true", "maintain.before", "34 loose refs", "maintain.after",
								"0 loose refs"),
						List.of()))
					.summary())
			.isEqualTo("Packed: 34 loose refs before, 0 loose refs after.");
		assertThat(new JobDescription(job(RefJobType.MAINTAIN, "COMPLETED", "", Map.of(),
				Map.of("maintain.packed", "true", "maintain.done", "packed 33 loose refs, 1 left loose",
						"maintain.before", "34 loose refs", "maintain.after", "1 loose ref"),
				List.of()))
			.summary()).isEqualTo("Packed 33 loose refs, 1 left loose: 34 loose refs before, 1 loose ref after.");
		assertThat(new JobDescription(job(RefJobType.MAINTAIN, "COMPLETED", "", Map.of(),
				Map.of("maintain.packed", "false", "maintain.done",
						"nothing to do: 3 loose refs, below the limit of 16", "maintain.before", "3 loose refs",
						"maintain.reason", "3 loose refs, below the limit of 16"),
				List.of()))
			.summary()).isEqualTo("Nothing to do: 3 loose refs (3 loose refs, below the limit of 16).");
	}

	@Test
	void theChosenParametersAreInWordsAndCountsSayOneRefOrSeveral() {
		JobDescription migration = new JobDescription(
				job(RefJobType.MIGRATE, "STARTED", "", Map.of("chunkSize", "500", "throttleMillis", "150", "reflogs",
						"true", "targetFormat", "reftable", "launchId", "0f3c", "colour", "red"), Map.of(), List.of()));
		assertThat(migration.status()).isEqualTo("Running");
		assertThat(migration.chosen(null)).extracting(JobDescription.Parameter::label, JobDescription.Parameter::value)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("Target format", "reftable"),
					org.assertj.core.groups.Tuple.tuple("Reflogs", "Yes"),
					org.assertj.core.groups.Tuple.tuple("Chunk size", "500"),
					org.assertj.core.groups.Tuple.tuple("Throttle (ms)", "150"),
					org.assertj.core.groups.Tuple.tuple("Colour", "red"));
		JobDescription plan = new JobDescription(
				job(RefJobType.DELETE, "COMPLETED", "", Map.of("planOnly", "true", "prefixes", "refs/pull/,refs/tmp/"),
						Map.of("plan.count", "1", "plan.protected.count", "1"), List.of()));
		assertThat(plan.summary()).isEqualTo("Plans to delete 1 ref (1 protected ref kept).");
		assertThat(plan.chosen(null)).extracting(JobDescription.Parameter::label, JobDescription.Parameter::value)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("Plan only", "Yes"),
					org.assertj.core.groups.Tuple.tuple("Prefixes", "refs/pull/, refs/tmp/"));
		JobSummary planJob = job(RefJobType.DELETE, "COMPLETED", "", Map.of("planOnly", "true"), Map.of(), List.of());
		JobDescription deletion = new JobDescription(
				job(RefJobType.DELETE, "COMPLETED", "", Map.of("plan", "0f3c/plan"), Map.of(), List.of()));
		assertThat(deletion.chosen(new JobRelations(null, null, planJob, List.of(), List.of(), List.of(), null)))
			.containsExactly(new JobDescription.Parameter("plan", "Plan", "0f3c/plan", 12L));
		assertThat(new JobDescription(job(RefJobType.RESTORE, "COMPLETED", "", Map.of(),
				Map.of("restore.restored", "1", "restore.present", "1"), List.of()))
			.summary()).isEqualTo("Restored 1 ref; 1 was already there.");
		// a plan's path is shown relative to the plans' directory, as a launch takes it
		assertThat(JobRedaction.planRelative("/srv/git/a.git/refstore-plans/0f3c/plan")).isEqualTo("0f3c/plan");
		assertThat(JobRedaction
			.redacted(job(RefJobType.DELETE, "COMPLETED", "", Map.of("plan", "/srv/git/a.git/refstore-plans/0f3c/plan"),
					Map.of("plan.path", "/srv/git/a.git/refstore-plans/0f3c/plan"), List.of()))
			.results()).containsEntry("plan.path", "0f3c/plan");
		assertThat(JobRedaction.planRelative("/srv/git/a.git/refstore-backup/x"))
			.isEqualTo("/srv/git/a.git/refstore-backup/x");
	}

}
