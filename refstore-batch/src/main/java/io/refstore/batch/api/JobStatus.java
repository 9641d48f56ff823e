package io.refstore.batch.api;

/**
 * The status of a job execution or of one of its steps: Spring Batch's, by the same
 * names, which are what the job repository stores and what the REST API and the console
 * show.
 */
public enum JobStatus {

	/** Launched, not yet running. */
	STARTING,

	/** Running. */
	STARTED,

	/** Asked to stop; it stops at its next chunk boundary. */
	STOPPING,

	/** Stopped on request; it can be restarted. */
	STOPPED,

	/** Ended in an error, or marked so after its instance died; it can be restarted. */
	FAILED,

	/** Ended successfully. */
	COMPLETED,

	/** Given up: it cannot be restarted. */
	ABANDONED,

	/** Not known (an execution Spring Batch could not classify). */
	UNKNOWN;

	/**
	 * Whether an execution in this status can be restarted: {@code STOPPED},
	 * {@code FAILED}.
	 */
	public boolean restartable() {
		return this == STOPPED || this == FAILED;
	}

	/**
	 * Whether this status is the end of an unsuccessful run: {@code FAILED},
	 * {@code ABANDONED}.
	 */
	public boolean unsuccessful() {
		return this == FAILED || this == ABANDONED;
	}

}
