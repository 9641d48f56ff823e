package io.refstore.web.fleet;

import io.refstore.web.security.RefusedCredentialException;

/**
 * A node credential ({@link NodeSignature}) refused: forged, stale, incomplete, or sent
 * to a node without the fleet's secret, or asking what a node may not. Its message says
 * which, and is shown.
 */
final class NodeCredentialException extends RefusedCredentialException {

	private static final long serialVersionUID = 1L;

	NodeCredentialException(String message) {
		super(message);
	}

}
