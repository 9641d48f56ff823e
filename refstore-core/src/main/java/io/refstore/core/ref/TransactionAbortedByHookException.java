package io.refstore.core.ref;

import java.io.IOException;

/**
 * The {@code reference-transaction} hook refused a transaction (exited non-zero in the
 * {@code preparing} or {@code prepared} state): nothing was changed and every lock is
 * released. The message is git's.
 */
public class TransactionAbortedByHookException extends IOException {

	private static final long serialVersionUID = 1L;

	private final String state;

	public TransactionAbortedByHookException(String state) {
		super("in '" + state + "' phase, update aborted by the reference-transaction hook");
		this.state = state;
	}

	/** The state in which the hook refused: {@code preparing} or {@code prepared}. */
	public String state() {
		return this.state;
	}

}
