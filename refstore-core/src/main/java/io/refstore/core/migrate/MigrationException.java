package io.refstore.core.migrate;

import java.io.IOException;

/**
 * A migration that was refused or could not complete; the message says why. The
 * repository is left in its old state (or, once the configuration was switched, in its
 * new state).
 */
public class MigrationException extends IOException {

	private static final long serialVersionUID = 1L;

	public MigrationException(String message) {
		super(message);
	}

}
