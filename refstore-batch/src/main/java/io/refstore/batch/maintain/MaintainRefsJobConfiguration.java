package io.refstore.batch.maintain;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.transaction.PlatformTransactionManager;

import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.MaintainParameters;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.support.JobLocks;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;
import io.refstore.batch.support.StepProgress;
import io.refstore.core.io.LockOwner;
import io.refstore.core.ref.PackLockedException;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * {@code maintainRefsJob}: {@code packRefsStep} does what git's maintenance task does,
 * {@code pack-refs --all --auto}, when {@link RefStore#statistics()} says it is due: it
 * packs every loose ref git would pack (files) or merges the tables git's geometric rule
 * picks (reftable), which leaves the store not due. With {@code force} it packs every
 * loose ref or compacts the whole stack whatever the statistics say. The statistics
 * before and after, and what it did in words ({@link JobResults#MAINTAIN_DONE}), are kept
 * in the job's context.
 * <p>
 * Compacting the whole stack needs every table's lock, and any writer's automatic
 * compaction holds some for a moment: where git's {@code pack-refs} gives up at once
 * ({@value PackLockedException#MESSAGE}), the job tries again with a growing pause for up
 * to {@link #LOCKED_FOR} before it fails with git's message.
 */
@Configuration(proxyBeanMethods = false)
class MaintainRefsJobConfiguration {

	/** How long the job waits for the locks that other writers hold for a moment. */
	static final Duration LOCKED_FOR = Duration.ofSeconds(30);

	private static final RetryPolicy WHILE_LOCKED = RetryPolicy.builder()
		.includes(PackLockedException.class)
		.maxRetries(Long.MAX_VALUE)
		.timeout(LOCKED_FOR)
		.delay(Duration.ofMillis(20))
		.multiplier(2)
		.maxDelay(Duration.ofSeconds(1))
		.jitter(Duration.ofMillis(10))
		.build();

	@Bean
	Job maintainRefsJob(JobRepository jobRepository, RefJobListener listener, PlatformTransactionManager tm,
			Tasklet packRefsTasklet) {
		return RefJobSteps.oneStepJob(RefJobType.MAINTAIN, "packRefsStep", jobRepository, listener, tm,
				packRefsTasklet);
	}

	@Bean
	@StepScope
	Tasklet packRefsTasklet(@Value("#{jobParameters}") Map<String, Object> parameters, JobRepository jobRepository,
			PlatformTransactionManager tm) {
		Path path = RefJobParameters.repositoryPath(parameters);
		boolean forced = MaintainParameters.from(parameters).force();
		return (contribution, chunkContext) -> {
			JobExecution execution = chunkContext.getStepContext().getStepExecution().getJobExecution();
			ExecutionContext job = execution.getExecutionContext();
			try (Repository repository = Repository.open(path);
					LockOwner owner = JobLocks.claim(repository, execution);
					RefStore store = RefStores.open(repository, repository.reflogPolicy(), owner, JobLocks.WAIT)) {
				StoreStatistics before = store.statistics();
				job.putString(JobResults.MAINTAIN_BEFORE, describe(before));
				boolean run = forced || before.maintenanceDue();
				job.putString(JobResults.MAINTAIN_PACKED, Boolean.toString(run));
				job.putString(JobResults.MAINTAIN_REASON, forced ? "forced" : String.valueOf(before.reason()));
				StepProgress progress = new StepProgress(chunkContext.getStepContext().getStepExecution(),
						jobRepository, tm);
				if (!run) {
					progress.finish(0);
					job.putString(JobResults.MAINTAIN_DONE, "nothing to do: " + before.reason());
					return RepeatStatus.FINISHED;
				}
				// one step: the loose refs to pack (files) or the tables to merge
				// (reftable), all done when the pack returns
				long total = (before.format() == RefFormat.FILES) ? before.looseRefs() : before.tables();
				progress.begin(total, false);
				// git's maintenance task packs every ref (pack-refs --all --auto), and
				// "due" counts every loose ref it would pack: packing tags only would
				// leave a store due that the job called done
				pack(store, new RefStore.PackOptions(true, true, !forced));
				StoreStatistics after = store.statistics();
				// what it did: symbolic or broken loose refs stay, and are not done
				progress.finish((before.format() == RefFormat.FILES) ? packed(before, after) : total);
				job.putString(JobResults.MAINTAIN_AFTER, describe(after));
				job.putString(JobResults.MAINTAIN_DONE, done(before, after));
				contribution.incrementWriteCount(packed(before, after));
			}
			return RepeatStatus.FINISHED;
		};
	}

	private static void pack(RefStore store, RefStore.PackOptions options) throws IOException {
		try {
			new RetryTemplate(WHILE_LOCKED).execute(() -> {
				store.packRefs(options);
				return null;
			});
		}
		catch (RetryException ex) {
			Throwable last = ex.getLastException();
			if (last instanceof IOException failure) {
				throw failure;
			}
			if (last instanceof RuntimeException failure) {
				throw failure;
			}
			if (last instanceof Error failure) {
				throw failure;
			}
			throw new IllegalStateException(last);
		}
	}

	/**
	 * What a run did, in words ("packed 19,693 loose refs", "compacted 5 tables to 2"),
	 * and what still makes maintenance due if something does (writers that wrote
	 * meanwhile, tables another writer held).
	 */
	static String done(StoreStatistics before, StoreStatistics after) {
		String done;
		if (before.format() == RefFormat.FILES) {
			long packed = packed(before, after);
			done = String.format(Locale.ROOT, "packed %,d loose %s", packed, (packed == 1) ? "ref" : "refs");
			if (after.looseRefs() > 0) {
				done += String.format(Locale.ROOT, ", %,d left loose", after.looseRefs());
			}
		}
		else {
			done = String.format(Locale.ROOT, "compacted %,d %s to %,d", before.tables(),
					(before.tables() == 1) ? "table" : "tables", after.tables());
		}
		return after.maintenanceDue() ? done + "; still due: " + after.reason() : done;
	}

	/** The loose refs a files store no longer has loose. */
	private static long packed(StoreStatistics before, StoreStatistics after) {
		return Math.max(0, before.looseRefs() - after.looseRefs());
	}

	/**
	 * The store in words, as the job's results show it: {@code files: 34 loose and 1,200
	 * packed refs, 217.4 KiB, maintenance due}, {@code reftable: 1 table, 3.0 KiB,
	 * maintenance not due}.
	 */
	static String describe(StoreStatistics statistics) {
		String held = (statistics.format() == RefFormat.FILES)
				? String.format(Locale.ROOT, "%,d loose and %,d packed refs", statistics.looseRefs(),
						statistics.packedRefs())
				: String.format(Locale.ROOT, "%,d %s", statistics.tables(),
						(statistics.tables() == 1) ? "table" : "tables");
		return statistics.format().configName() + ": " + held + ", " + size(statistics.bytes())
				+ (statistics.maintenanceDue() ? ", maintenance due" : ", maintenance not due");
	}

	/** A size in binary units with one decimal, plain bytes below 1 KiB. */
	static String size(long bytes) {
		if (bytes < 1024) {
			return bytes + " B";
		}
		String[] units = { "KiB", "MiB", "GiB", "TiB" };
		double scaled = bytes / 1024.0;
		int unit = 0;
		while (scaled >= 1024 && unit < units.length - 1) {
			scaled /= 1024;
			unit++;
		}
		return String.format(Locale.ROOT, "%.1f %s", scaled, units[unit]);
	}

}
