package io.refstore.batch.api;

/**
 * Where {@code inventoryRefsJob} hands each inventory it takes: the application that runs
 * the jobs provides one (the web application keeps the inventory history in its
 * database); without one, the job keeps its counts in its execution context only.
 *
 * <p>
 * The job calls every recorder inside its step's transaction, so a recorder that writes
 * to the job repository's database through Spring's transaction-aware JDBC commits with
 * the step or not at all: a run that fails leaves no rows, a restarted run writes its
 * own, and each completed execution has exactly one inventory.
 */
@FunctionalInterface
public interface InventoryRecorder {

	/**
	 * Keeps an inventory.
	 * @param jobExecutionId the execution that took it
	 * @param inventory the counts
	 */
	void record(long jobExecutionId, RefInventory inventory);

}
