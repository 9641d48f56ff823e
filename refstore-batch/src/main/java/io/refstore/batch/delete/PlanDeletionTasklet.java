package io.refstore.batch.delete;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

import io.refstore.batch.api.DeleteParameters;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.core.delete.DeletionPlan;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.graph.CommitHistory;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.store.RefStores;

/**
 * {@code planDeletionStep}: writes the plan of what the selection would delete
 * ({@code $GIT_DIR/refstore-plans/<launch id>/plan}), keeping the protected refs of the
 * launch's {@link JobParameterNames#PROTECTED_REFS}, or, given a plan to execute, reads
 * that plan back. Either way the job's context then holds the plan's path, count and
 * sample for the history and the web layer, and a new plan also what protection kept: how
 * many, how many per pattern, and the first of them with their patterns.
 */
class PlanDeletionTasklet implements Tasklet {

	private static final int SAMPLE = 10;

	private final Path repositoryPath;

	private final Path givenPlan;

	private final String launchId;

	private final List<String> parts = new ArrayList<>();

	private final ProtectedRefs protection;

	/**
	 * @param parameters the plan to read back, or the selection and protection to plan
	 * with
	 * @param launchId names the new plan's directory
	 */
	PlanDeletionTasklet(Path repositoryPath, DeleteParameters parameters, String launchId) {
		this.repositoryPath = repositoryPath;
		this.givenPlan = parameters.plan();
		this.launchId = launchId;
		this.protection = parameters.protection();
		parameters.prefixes().forEach((value) -> this.parts.add("prefix " + value));
		parameters.globs().forEach((value) -> this.parts.add("glob " + value));
		parameters.names().forEach((value) -> this.parts.add("name " + value));
		parameters.excludes().forEach((value) -> this.parts.add("exclude " + value));
		this.parts.addAll(parameters.criteria().parts());
	}

	@Override
	public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) throws Exception {
		ExecutionContext job = chunkContext.getStepContext().getStepExecution().getJobExecution().getExecutionContext();
		DeletionPlan.Summary summary;
		Path file;
		if (this.givenPlan != null) {
			try (Repository repository = Repository.open(this.repositoryPath)) {
				// checked again: what was checked at launch may have been replaced since
				file = DeletionPlan.checkInput(JobParameterNames.PLAN, repository, JobResults.PLANS_DIR,
						this.givenPlan.toString());
			}
			summary = DeletionPlan.summary(file, SAMPLE);
		}
		else {
			try (Repository repository = Repository.open(this.repositoryPath);
					RefStore store = RefStores.open(repository)) {
				file = repository.gitDir()
					.resolve(JobResults.PLANS_DIR)
					.resolve(this.launchId)
					.resolve(DeletionPlan.FILE);
				summary = DeletionPlan.write(file, RepositoryId.of(repository), store, CommitHistory.open(repository),
						this.parts, this.protection, SAMPLE, Instant.now());
			}
			putKept(job, summary.kept());
			putCriteria(job, summary);
		}
		job.putString(JobResults.PLAN_PATH, file.toString());
		job.putLong(JobResults.PLAN_COUNT, summary.count());
		job.putString(JobResults.PLAN_SAMPLE, String.join("\n", summary.sample()));
		contribution.incrementWriteCount(summary.count());
		ExecutionContext step = chunkContext.getStepContext().getStepExecution().getExecutionContext();
		step.putLong(JobParameterNames.PROGRESS_DONE, summary.count());
		step.putLong(JobParameterNames.PROGRESS_TOTAL, summary.count());
		return RepeatStatus.FINISHED;
	}

	/**
	 * With criteria, lines {@code <count> <criterion>} and the reason of each sampled
	 * ref, for the plan's review.
	 */
	private static void putCriteria(ExecutionContext job, DeletionPlan.Summary summary) {
		if (summary.criteria().isEmpty()) {
			return;
		}
		StringBuilder criteria = new StringBuilder();
		summary.criteria()
			.forEach((criterion, count) -> criteria.append((criteria.length() == 0) ? "" : "\n")
				.append(count)
				.append(' ')
				.append(criterion));
		job.putString(JobResults.PLAN_CRITERIA, criteria.toString());
		job.putString(JobResults.PLAN_REASONS, String.join("\n", summary.reasons()));
	}

	/**
	 * Lines {@code <count> <pattern>} and {@code <name> (<pattern>)}, for the history and
	 * the plan's review.
	 */
	private static void putKept(ExecutionContext job, ProtectedRefs.Report kept) {
		job.putLong(JobResults.PLAN_PROTECTED_COUNT, kept.count());
		StringBuilder byPattern = new StringBuilder();
		kept.byPattern()
			.forEach((pattern, count) -> byPattern.append((byPattern.length() == 0) ? "" : "\n")
				.append(count)
				.append(' ')
				.append(pattern));
		job.putString(JobResults.PLAN_PROTECTED_BY_PATTERN, byPattern.toString());
		job.putString(JobResults.PLAN_PROTECTED_SAMPLE, String.join("\n",
				kept.sample().stream().map((ref) -> ref.name() + " (" + ref.pattern() + ")").toList()));
	}

}
