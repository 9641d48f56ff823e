package io.refstore.web.security;

/**
 * A bearer token that is unknown, revoked, or whose owner is no longer a configured user;
 * or a JWT that is malformed, expired or not signed by the identity provider's keys.
 */
class InvalidTokenException extends RefusedCredentialException {

	private static final long serialVersionUID = 1L;

	InvalidTokenException(String message) {
		super(message);
	}

}
