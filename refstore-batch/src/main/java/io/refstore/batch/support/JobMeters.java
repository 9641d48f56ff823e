package io.refstore.batch.support;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.Map;

import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.RefJobType;
import io.refstore.core.io.LockWaits;

/**
 * The meters of the work the jobs do on this node, recorded where it is done, so that a
 * sum over the nodes of a fleet is right:
 * <ul>
 * <li>{@code refstore.jobs.duration} (timer with a histogram; tags {@code type},
 * {@code outcome}: the status it ended with, {@code completed}, {@code failed},
 * {@code stopped}...): how long each execution ran, from its start to its end</li>
 * <li>{@code refstore.refs.processed} (counter; tag {@code type}: {@code migrate},
 * {@code rollback}, {@code delete}, {@code restore}): refs copied into a new store, put
 * back by a rollback, deleted, or restored, counted at each execution's end for what that
 * execution did (a restarted one counts only its own chunks)</li>
 * <li>{@code refstore.locks.wait} (timer with a histogram; tags {@code lock}:
 * {@code lock_file}, {@code gate_writer}, {@code gate_swap}, {@code gate_chunk},
 * {@code gate_run}, and {@code outcome}: {@code acquired}, or {@code failed} when it
 * timed out or was refused): every wait of this process for one of git's lock files or a
 * repository's store gate, jobs' and API writers' alike ({@link LockWaits})</li>
 * </ul>
 * Thread-safe.
 */
public final class JobMeters implements AutoCloseable {

	/** The step whose written items are each type's refs processed, in this execution. */
	private static final Map<RefJobType, String> REFS_STEP = Map.of(RefJobType.MIGRATE, "copyRefsStep",
			RefJobType.ROLLBACK, "restoreBackupStep", RefJobType.DELETE, "deleteRefsStep");

	/**
	 * The job duration histogram's buckets: from a small verification to a huge
	 * migration.
	 */
	private static final Duration[] JOB_BUCKETS = { Duration.ofSeconds(1), Duration.ofSeconds(10),
			Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15), Duration.ofHours(1),
			Duration.ofHours(3), Duration.ofHours(12) };

	/**
	 * The lock wait histogram's buckets: free at once, git's first back-offs, a
	 * compaction, the 10 s the writers and jobs wait at most.
	 */
	private static final Duration[] WAIT_BUCKETS = { Duration.ofMillis(1), Duration.ofMillis(10),
			Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(10) };

	private final MeterRegistry meters;

	private final LockWaits.Listener listener = this::waited;

	/** Records in {@code meters}, and hears this process's lock waits until closed. */
	public JobMeters(MeterRegistry meters) {
		this.meters = meters;
		LockWaits.listen(this.listener);
	}

	/** Records the end of {@code execution}. */
	void ended(JobExecution execution) {
		RefJobType type = RefJobType.ofJobName(execution.getJobInstance().getJobName());
		if (type == null) {
			return;
		}
		String name = name(type);
		LocalDateTime start = execution.getStartTime();
		if (start != null) {
			LocalDateTime end = (execution.getEndTime() != null) ? execution.getEndTime() : LocalDateTime.now();
			Timer.builder("refstore.jobs.duration")
				.description("how long job executions ran, by type and the status they ended with")
				.tags("type", name, "outcome", execution.getStatus().name().toLowerCase(Locale.ROOT))
				.serviceLevelObjectives(JOB_BUCKETS)
				.register(this.meters)
				.record(Duration.between(start, end));
		}
		long refs = refsProcessed(type, execution);
		if (refs >= 0) {
			Counter.builder("refstore.refs.processed")
				.description("refs migrated, rolled back, deleted or restored by jobs on this node")
				.tags("type", name)
				.register(this.meters)
				.increment(refs);
		}
	}

	/** The refs {@code execution} processed, or -1 for a type that processes none. */
	private static long refsProcessed(RefJobType type, JobExecution execution) {
		if (type == RefJobType.RESTORE) {
			// one step that restores every manifest at once, its count at the end
			return execution.getExecutionContext().getLong(JobResults.RESTORE_RESTORED, 0L);
		}
		if (type == RefJobType.REWIND) {
			return execution.getExecutionContext().getLong(JobResults.REWIND_APPLIED, 0L);
		}
		String step = REFS_STEP.get(type);
		if (step == null) {
			return -1;
		}
		return execution.getStepExecutions()
			.stream()
			.filter((done) -> done.getStepName().equals(step))
			.mapToLong(StepExecution::getWriteCount)
			.sum();
	}

	private void waited(LockWaits.Kind kind, long nanos, boolean had) {
		Timer.builder("refstore.locks.wait")
			.description("waits of this node's writers for git's lock files and the store gates")
			.tags("lock", kind.name().toLowerCase(Locale.ROOT), "outcome", had ? "acquired" : "failed")
			.serviceLevelObjectives(WAIT_BUCKETS)
			.register(this.meters)
			.record(Duration.ofNanos(nanos));
	}

	/** Stops hearing the waits. */
	@Override
	public void close() {
		LockWaits.stopListening(this.listener);
	}

	private static String name(RefJobType type) {
		return type.name().toLowerCase(Locale.ROOT);
	}

}
