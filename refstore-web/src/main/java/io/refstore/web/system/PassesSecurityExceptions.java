package io.refstore.web.system;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * For an exception advice with a catch-all handler: Spring Security's refusals are thrown
 * on, so that its filter answers them (a login or a 401 for anonymous users, a 403
 * otherwise) instead of the catch-all's 500.
 */
public interface PassesSecurityExceptions {

	@ExceptionHandler({ AccessDeniedException.class, AuthenticationException.class })
	default void security(RuntimeException ex) {
		throw ex;
	}

}
