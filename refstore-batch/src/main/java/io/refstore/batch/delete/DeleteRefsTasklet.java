package io.refstore.batch.delete;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

import io.refstore.batch.api.DeleteParameters;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.support.JobLocks;
import io.refstore.batch.support.JobWriters;
import io.refstore.core.delete.DeleteOptions;
import io.refstore.core.delete.DeleteResult;
import io.refstore.core.delete.DeletionPlan;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.delete.RefDeleter;
import io.refstore.core.delete.RefSelection;
import io.refstore.core.graph.CommitHistory;
import io.refstore.core.io.LockOwner;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryId;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.store.RefStores;

/**
 * {@code deleteRefsStep}: deletes the refs of a plan, one chunk per call, each chunk one
 * {@link RefDeleter} transaction that expects every ref to hold the plan's value and
 * writes its own manifest next to the plan. The checkpoint (plan entries done, refs
 * deleted) is in the step's context, so a restart goes on from the last committed chunk;
 * a chunk deleted but not yet checkpointed when the process died is found deleted again
 * and costs nothing.
 *
 * <p>
 * Before the first chunk of every execution, the plan must still cover the store: every
 * ref the selection picks now must be in the plan with the plan's value (refs the plan
 * has that are gone are fine: deleted by an earlier run, or by someone else). Otherwise
 * the step fails, naming the first ref that differs.
 *
 * <p>
 * The plan's protection holds for every chunk too: a planned ref that is protected now
 * (the branch {@code HEAD} was moved to since the plan was made) is kept, and counted in
 * {@value #PROTECTED}.
 */
class DeleteRefsTasklet implements Tasklet, StepExecutionListener {

	static final String POSITION = "delete.position";

	static final String DELETED = "delete.deleted";

	static final String RESUMED_FROM = "delete.resumedFrom";

	static final String PROTECTED = "delete.protected";

	private final Path repositoryPath;

	private final int chunkSize;

	private final long throttle;

	private Repository repository;

	private LockOwner owner;

	private RefStore store;

	/** This deletion's announcement to every process: no swap begins while it runs. */
	private StoreGate.Run run;

	private DeletionPlan.Reader plan;

	/** What the plan keeps, read by {@link DeletionPlan#checkNotStale}. */
	private ProtectedRefs protection;

	DeleteRefsTasklet(Path repositoryPath, DeleteParameters parameters) {
		this.repositoryPath = repositoryPath;
		this.chunkSize = parameters.chunkSize();
		this.throttle = parameters.throttleMillis();
	}

	@Override
	public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) throws Exception {
		StepExecution step = chunkContext.getStepContext().getStepExecution();
		ExecutionContext context = step.getExecutionContext();
		Path file = Path.of(step.getJobExecution().getExecutionContext().getString(JobResults.PLAN_PATH));
		long position = context.getLong(POSITION, 0L);
		if (this.plan == null) {
			this.repository = JobWriters.open(this.repositoryPath, step.getJobExecution());
			this.owner = JobLocks.claim(this.repository, step.getJobExecution());
			this.run = StoreGate.of(this.repository.commonDir()).beginRun(StoreGate.WRITER_WAIT);
			this.store = RefStores.open(this.repository, this.repository.reflogPolicy(), this.owner, JobLocks.WAIT);
			// checked again, as at launch: a restart may find the plan replaced
			file = DeletionPlan.checkInput(JobParameterNames.PLAN, this.repository, JobResults.PLANS_DIR,
					file.toString());
			this.protection = DeletionPlan.checkNotStale(file, this.store, CommitHistory.open(this.repository));
			this.plan = new DeletionPlan.Reader(file, null);
			for (long skipped = 0; skipped < position; skipped++) {
				this.plan.next();
			}
			context.putLong(RESUMED_FROM, position);
		}
		List<DeletionPlan.Entry> chunk = new ArrayList<>(this.chunkSize);
		for (DeletionPlan.Entry entry = null; chunk.size() < this.chunkSize && (entry = this.plan.next()) != null;) {
			chunk.add(entry);
		}
		long total = step.getJobExecution().getExecutionContext().getLong(JobResults.PLAN_COUNT);
		context.putLong(JobParameterNames.PROGRESS_TOTAL, total);
		if (chunk.isEmpty()) {
			if (context.containsKey(PROTECTED)) {
				step.getJobExecution().getExecutionContext().putLong(PROTECTED, context.getLong(PROTECTED));
			}
			return RepeatStatus.FINISHED;
		}
		DeleteResult result = delete(chunk,
				file.resolveSibling(String.format("manifest-%012d-%d", position, step.getId())));
		if (result.failure() != null) {
			throw new IllegalStateException("deletion stopped at plan entry " + position + ": "
					+ result.failure().describe() + "; the manifest is " + result.manifest());
		}
		long deleted = context.getLong(DELETED, 0L) + result.deleted();
		context.putLong(POSITION, position + chunk.size());
		context.putLong(DELETED, deleted);
		if (result.kept().count() > 0) {
			context.putLong(PROTECTED, context.getLong(PROTECTED, 0L) + result.kept().count());
		}
		context.putLong(JobParameterNames.PROGRESS_DONE, position + chunk.size());
		contribution.incrementWriteCount(result.deleted());
		if (this.throttle > 0) {
			Thread.sleep(this.throttle);
		}
		return RepeatStatus.CONTINUABLE;
	}

	private DeleteResult delete(List<DeletionPlan.Entry> chunk, Path manifest) throws IOException {
		RefSelection.Builder names = RefSelection.builder().protect(this.protection);
		for (DeletionPlan.Entry entry : chunk) {
			names.name(entry.name());
		}
		DeleteOptions options = DeleteOptions.to(manifest)
			.withChunkSize(chunk.size())
			.withRepository(this.repository.gitDir(), RepositoryId.of(this.repository))
			.withListener(DeletionPlan.expecting(chunk));
		return new RefDeleter(this.store).delete(names.build(), options);
	}

	@Override
	public ExitStatus afterStep(StepExecution stepExecution) {
		try {
			if (this.plan != null) {
				this.plan.close();
			}
			if (this.store != null) {
				this.store.close();
			}
			if (this.run != null) {
				this.run.close();
			}
			if (this.owner != null) {
				this.owner.close();
			}
		}
		catch (IOException ex) {
			// nothing is pending on a closing reader or store; an owner record left is
			// cleared by the next run
		}
		finally {
			this.plan = null;
			this.store = null;
			this.run = null;
			this.owner = null;
			if (this.repository != null) {
				this.repository.close();
				this.repository = null;
			}
		}
		return stepExecution.getExitStatus();
	}

}
