package io.refstore.web.jobs;

import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import io.refstore.batch.RefBatchConfiguration;

/**
 * Brings refstore-batch's jobs and their service into the web application, over the
 * application's data source (the job repository and lease tables come from the batch
 * module's Flyway migrations beside the web's own).
 */
@Configuration(proxyBeanMethods = false)
@Import(RefBatchConfiguration.class)
class JobsConfiguration {

}
