package io.refstore.web.fleet;

/**
 * What the node running a handed-off job answered: the new execution, or why it refused.
 *
 * @param executionId the new execution's id, or {@code null} if refused
 * @param errorKind {@code parameter}, {@code conflict}, {@code state} or {@code error};
 * or {@code null}
 * @param parameter the refused parameter's name
 * @param value the refused value
 * @param message the refusal in words
 * @param conflictingExecution the execution holding the repository, for a conflict
 */
record JobHandoffOutcome(Long executionId, String errorKind, String parameter, String value, String message,
		Long conflictingExecution) {

	static JobHandoffOutcome launched(long executionId) {
		return new JobHandoffOutcome(executionId, null, null, null, null, null);
	}

}
