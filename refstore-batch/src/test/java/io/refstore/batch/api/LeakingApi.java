package io.refstore.batch.api;

import io.refstore.batch.support.JobLeases;

/**
 * A stand-in for an API type that exposes an internal of batch, which
 * {@code BatchArchitectureTest} must flag.
 */
public interface LeakingApi {

	JobLeases leases();

}
