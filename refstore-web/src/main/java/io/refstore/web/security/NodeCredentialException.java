package io.refstore.web.security;

import org.springframework.security.core.AuthenticationException;

/**
 * A node credential ({@link NodeSignature}) refused: forged, stale, incomplete, or sent
 * to a node without the fleet's secret. Its message says which, and is shown.
 */
final class NodeCredentialException extends AuthenticationException {

	private static final long serialVersionUID = 1L;

	NodeCredentialException(String message) {
		super(message);
	}

}
