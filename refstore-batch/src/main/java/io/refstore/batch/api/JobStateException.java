package io.refstore.batch.api;

/**
 * A stop or restart refused because of the execution's state: it is not running (stop),
 * or not STOPPED or FAILED (restart). The message names the execution and its status.
 */
public class JobStateException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final long executionId;

	/**
	 * @param message names the execution and its status
	 */
	public JobStateException(long executionId, String message, Throwable cause) {
		super(message, cause);
		this.executionId = executionId;
	}

	/** The execution refused. */
	public long executionId() {
		return this.executionId;
	}

}
