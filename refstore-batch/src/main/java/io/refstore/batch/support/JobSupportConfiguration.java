package io.refstore.batch.support;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Map;

import org.springframework.batch.core.job.Job;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.EnableScheduling;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.repo.RepositoryPaths;

/**
 * The service the jobs run under, found by {@code RefBatchConfiguration}'s scan: the
 * leases, the listener every job has, the recovery of dead executions at startup, and
 * {@link RefJobs}. The lease heartbeat runs on the application's task scheduler (Spring
 * Boot makes one where scheduling is enabled).
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class JobSupportConfiguration {

	@Bean(destroyMethod = "close")
	JobLeases jobLeases(JdbcTemplate jdbc, RefBatchProperties properties, TaskScheduler scheduler) throws IOException {
		String instance = properties.jobs().instanceId();
		if (instance == null || instance.isBlank()) {
			instance = InetAddress.getLocalHost().getHostName();
		}
		return new JobLeases(jdbc, instance, properties.jobs().leaseTtl(), scheduler);
	}

	/**
	 * The jobs' meters, in the application's registry; without one (no actuator), in
	 * Micrometer's global registry, as Spring Batch's own.
	 */
	@Bean(destroyMethod = "close")
	JobMeters jobMeters(ObjectProvider<MeterRegistry> meters) {
		return new JobMeters(meters.getIfAvailable(() -> Metrics.globalRegistry));
	}

	@Bean
	RefJobListener refJobListener(JobLeases leases, JobRepository jobRepository, ApplicationEventPublisher events,
			JobMeters meters) {
		return new RefJobListener(leases, jobRepository, events, meters);
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
