package io.refstore.batch.inventory;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

import io.refstore.batch.api.InventoryRecorder;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.RefInventory;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.RefJobSteps;
import io.refstore.core.ref.RefStore;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * {@code inventoryRefsJob}: {@code countRefsStep} takes a {@link RefInventory} of the
 * repository (refs per namespace, stale and merged ones, the store's loose and packed
 * refs or tables and bytes), hands it to every {@link InventoryRecorder} inside the
 * step's transaction, and keeps the counts in the job's context under
 * {@code inventory.*}: {@code refs}, {@code stale}, {@code merged} ({@code none} without
 * a base), {@code base}, {@code format}, {@code loose} and {@code packed} (files) or
 * {@code tables} (reftable), {@code bytes}, {@code staleAfter} (ISO-8601), and
 * {@code namespaces}, one line per namespace: name, refs, stale, merged ({@code -}
 * without a base), separated by spaces (a ref name holds none). It reads the repository
 * and changes nothing, so it takes no lease and may run beside any other job.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(InventoryProperties.class)
class InventoryRefsJobConfiguration {

	@Bean
	Job inventoryRefsJob(JobRepository jobRepository, RefJobListener listener, PlatformTransactionManager tm,
			Tasklet countRefsTasklet) {
		return RefJobSteps.oneStepJob(RefJobType.INVENTORY, "countRefsStep", jobRepository, listener, tm,
				countRefsTasklet);
	}

	@Bean
	@StepScope
	Tasklet countRefsTasklet(@Value("#{jobParameters}") Map<String, Object> parameters, InventoryProperties properties,
			ObjectProvider<InventoryRecorder> recorders) {
		Path path = RefJobParameters.repositoryPath(parameters);
		String name = String.valueOf(parameters.get(JobParameterNames.REPOSITORY));
		return (contribution, chunkContext) -> {
			JobExecution execution = chunkContext.getStepContext().getStepExecution().getJobExecution();
			RefInventory inventory;
			try (Repository repository = Repository.open(path); RefStore store = RefStores.open(repository)) {
				inventory = RefCounter.count(name, repository, store, Instant.now(), properties.staleAfter());
			}
			recorders.orderedStream().forEach((recorder) -> recorder.record(execution.getId(), inventory));
			ExecutionContext job = execution.getExecutionContext();
			job.putLong(JobResults.INVENTORY_REFS, inventory.refs());
			job.putLong(JobResults.INVENTORY_STALE, inventory.stale());
			job.putString(JobResults.INVENTORY_MERGED,
					(inventory.merged() != null) ? inventory.merged().toString() : "none");
			job.putString(JobResults.INVENTORY_BASE, (inventory.base() != null) ? inventory.base() : "");
			job.putString(JobResults.INVENTORY_FORMAT, inventory.format());
			putIfPresent(job, JobResults.INVENTORY_LOOSE, inventory.loose());
			putIfPresent(job, JobResults.INVENTORY_PACKED, inventory.packed());
			putIfPresent(job, JobResults.INVENTORY_TABLES, inventory.tables());
			job.putLong(JobResults.INVENTORY_BYTES, inventory.bytes());
			job.putString(JobResults.INVENTORY_STALE_AFTER, properties.staleAfter().toString());
			job.putString(JobResults.INVENTORY_NAMESPACES,
					inventory.namespaces()
						.stream()
						.map((namespace) -> namespace.name() + " " + namespace.refs() + " " + namespace.stale() + " "
								+ ((namespace.merged() != null) ? namespace.merged().toString() : "-"))
						.collect(Collectors.joining("\n")));
			contribution.incrementWriteCount(inventory.refs());
			contribution.setExitStatus(contribution.getExitStatus()
				.addExitDescription(String.format(Locale.ROOT, "%,d refs in %,d namespaces, %,d stale",
						inventory.refs(), inventory.namespaces().size(), inventory.stale())));
			return RepeatStatus.FINISHED;
		};
	}

	private static void putIfPresent(ExecutionContext context, String key, Number value) {
		if (value != null) {
			context.putLong(key, value.longValue());
		}
	}

}
