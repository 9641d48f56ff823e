package io.refstore.batch;

import java.io.IOException;
import java.util.List;

import org.springframework.boot.batch.autoconfigure.BatchTaskExecutor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskExecutor;

import io.refstore.batch.support.RefBatchProperties;
import io.refstore.core.repo.RepositoryPaths;

/**
 * The refstore jobs and their service ({@code RefJobs}, which its scan finds with the
 * jobs): import this into a Spring Boot application that has a {@code DataSource} (H2 by
 * default; the job repository tables and the lease table come from the Flyway migrations
 * in {@code db/migration} and {@code db/<vendor>}). Jobs run on their own threads, so a
 * launch returns at once.
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

}
