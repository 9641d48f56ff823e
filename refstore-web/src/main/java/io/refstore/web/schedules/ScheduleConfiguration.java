package io.refstore.web.schedules;

import java.util.Properties;

import org.springframework.boot.quartz.autoconfigure.QuartzProperties;
import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.refstore.batch.api.RefJobs;

/**
 * Gives Quartz this instance's refstore name ({@code refstore.jobs.instance-id}) as its
 * cluster instance id, so that the lease table, job contexts and Quartz's scheduler state
 * name an instance alike.
 */
@Configuration(proxyBeanMethods = false)
class ScheduleConfiguration {

	@Bean
	SchedulerFactoryBeanCustomizer refstoreQuartzInstance(QuartzProperties quartz, RefJobs jobs) {
		return (factory) -> {
			Properties properties = new Properties();
			properties.putAll(quartz.getProperties());
			properties.setProperty("org.quartz.scheduler.instanceId", jobs.instanceId());
			factory.setQuartzProperties(properties);
		};
	}

}
