package io.refstore.web.security;

import org.springframework.security.core.AuthenticationException;

/**
 * A credential refused for a reason the caller is told: its message is the 401 problem's
 * detail ({@link ProblemSecurityHandlers}), where other authentication failures get the
 * generic one. An unknown or revoked API token is one; so is a node credential the fleet
 * refuses, whose filter security's chains run without knowing it.
 */
public abstract class RefusedCredentialException extends AuthenticationException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message why, shown to the caller
	 */
	protected RefusedCredentialException(String message) {
		super(message);
	}

}
