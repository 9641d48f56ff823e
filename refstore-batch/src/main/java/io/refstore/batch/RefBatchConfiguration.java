package io.refstore.batch;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;

import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.boot.batch.autoconfigure.BatchTaskExecutor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskExecutor;
import org.springframework.jdbc.core.JdbcTemplate;

import io.refstore.batch.support.DefaultRefJobs;
import io.refstore.batch.support.JobLeases;
import io.refstore.batch.support.RefBatchProperties;
import io.refstore.batch.support.RefJobListener;
import io.refstore.batch.support.StartupRecovery;
import io.refstore.core.repo.RepositoryPaths;

/**
 * The refstore jobs and their service: import this into a Spring Boot application that
 * has a {@code DataSource} (H2 by default; the job repository tables and the lease table
 * come from the Flyway migrations in {@code db/migration} and {@code db/<vendor>}). Jobs
 * run on their own threads, so a launch returns at once.
 */
@Configuration(proxyBeanMethods = false)
@ComponentScan
@EnableConfigurationProperties(RefBatchProperties.class)
public class RefBatchConfiguration {

	/** Runs each job execution on a thread of its own. */
	@Bean
	@BatchTaskExecutor
	TaskExecutor refJobTaskExecutor() {
		return new SimpleAsyncTaskExecutor("refjob-");
	}

	@Bean
	RepositoryPaths repositoryPaths(RefBatchProperties properties) throws IOException {
		List<java.nio.file.Path> roots = properties.repositories().searchRoots();
		for (java.nio.file.Path root : roots) {
			// a configured root that does not exist yet (a first start) is where
			// repositories will go
			java.nio.file.Files.createDirectories(root);
		}
		for (java.nio.file.Path root : properties.repositories().storages().values()) {
			java.nio.file.Files.createDirectories(root);
		}
		return new RepositoryPaths(roots, properties.repositories().storages());
	}

	@Bean(destroyMethod = "close")
	JobLeases jobLeases(JdbcTemplate jdbc, RefBatchProperties properties) throws IOException {
		String instance = properties.jobs().instanceId();
		if (instance == null || instance.isBlank()) {
			instance = InetAddress.getLocalHost().getHostName();
		}
		return new JobLeases(jdbc, instance, properties.jobs().leaseTtl());
	}

	@Bean
	RefJobListener refJobListener(JobLeases leases, JobRepository jobRepository, ApplicationEventPublisher events) {
		return new RefJobListener(leases, jobRepository, events);
	}

	@Bean
	StartupRecovery startupRecovery(JobRepository jobRepository, JobLeases leases, ApplicationEventPublisher events) {
		return new StartupRecovery(jobRepository, leases, events);
	}

	@Bean
	DefaultRefJobs refJobs(Map<String, Job> jobs, JobOperator jobOperator, JobRepository jobRepository,
			RepositoryPaths paths, RefBatchProperties properties, JobLeases leases, ApplicationEventPublisher events,
			JdbcTemplate jdbc, StartupRecovery recovery) {
		// a malformed protected pattern stops the start here, naming the setting
		return new DefaultRefJobs(jobs, jobOperator, jobRepository, paths, properties.deletion().protection(), leases,
				events, jdbc, recovery);
	}

}
