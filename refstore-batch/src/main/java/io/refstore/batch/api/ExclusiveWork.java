package io.refstore.batch.api;

import java.time.Duration;

/**
 * Work that one instance at a time does among the instances sharing the database, such as
 * a pass over a campaign or over the schedule queue: it runs under a lease of the same
 * table that holds each mutating job's lease on its repository, renewed by the same
 * heartbeat, so an instance that dies during it frees it when the lease runs out. The one
 * distributed lock of the application. Thread-safe.
 */
public interface ExclusiveWork {

	/**
	 * Runs {@code work} holding the lease {@code name}, if it can be had within
	 * {@code wait} (another instance or thread holds it until its work ends).
	 * @param name what the work is, such as {@code campaign-12}
	 * @param wait how long to wait for the lease; zero tries once
	 * @param work the work
	 * @return whether it ran; false if the lease was held elsewhere all along, or the
	 * wait was interrupted
	 */
	boolean runAlone(String name, Duration wait, Runnable work);

	/**
	 * Claims the lease {@code name} for this instance, or keeps it: unlike
	 * {@link #runAlone}, nothing releases it; the heartbeat renews it for as long as the
	 * instance runs, and another instance takes it over only once it expired (this one
	 * died or stopped). For a role one instance of the fleet plays at a time, asked again
	 * before each time it is played, such as exporting the figures of the shared database
	 * to Prometheus.
	 * @param name the role, such as {@code fleet-metrics}
	 * @return whether this instance holds it now
	 */
	boolean holdAlone(String name);

}
