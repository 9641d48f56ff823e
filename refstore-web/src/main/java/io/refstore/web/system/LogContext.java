package io.refstore.web.system;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.MDC;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

import io.refstore.batch.api.LogFields;

/**
 * Puts who asks and about which repository in the log's MDC while a request is handled,
 * beside its correlation id ({@link CorrelationIdFilter}): {@code user}, the
 * authenticated user's name, and {@code repository}, the repository the URL names
 * ({@code {repo}}, decoded), the keys a job's thread uses too ({@link LogFields}). Plain
 * logs do not show them; structured (JSON) logs carry them as fields of every line.
 * Security has run by then: a refused request's lines have no user.
 */
public class LogContext implements HandlerInterceptor {

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		Authentication user = SecurityContextHolder.getContext().getAuthentication();
		if (user != null && user.isAuthenticated() && !(user instanceof AnonymousAuthenticationToken)) {
			MDC.put(LogFields.USER, user.getName());
		}
		if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> variables
				&& variables.get("repo") instanceof String repository) {
			MDC.put(LogFields.REPOSITORY, repository);
		}
		return true;
	}

	@Override
	public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
			Exception ex) {
		MDC.remove(LogFields.USER);
		MDC.remove(LogFields.REPOSITORY);
	}

}
