package io.refstore.batch.api;

/**
 * A launch or restart refused because another mutating job holds the repository's lease.
 * The message names the holder: job, execution, instance and expiry.
 */
public class JobConflictException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final Long executionId;

	/**
	 * @param message names the running execution
	 * @param executionId the execution holding the lease, {@code null} while it is still
	 * being launched
	 */
	public JobConflictException(String message, Long executionId) {
		super(message);
		this.executionId = executionId;
	}

	/** The execution holding the lease, or {@code null} if it is being launched. */
	public Long executionId() {
		return this.executionId;
	}

}
