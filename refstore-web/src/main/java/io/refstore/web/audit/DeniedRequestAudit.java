package io.refstore.web.audit;

import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authorization.event.AuthorizationDeniedEvent;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

import io.refstore.web.audit.AuditEntry.Outcome;

/**
 * Records refused attempts to change something as {@link Outcome#DENIED}: a mutating HTTP
 * request (not GET, HEAD or OPTIONS) that the URL rules refuse, and a call of a mutating
 * service method that method security refuses. Only authenticated callers are recorded:
 * an anonymous request is a 401 challenge, not an attempt by anyone in particular. Reads
 * that are refused are not audited.
 */
@Component
class DeniedRequestAudit {

	private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

	/** Service methods that change state; the others only read. */
	private static final Set<String> MUTATORS = Set.of("batch", "put", "delete", "create", "revoke", "migrate",
			"verify", "maintain", "planDeletion", "executeDeletion", "restoreDeletion", "restore", "rollback", "stop",
			"restart");

	private final AuditLog audit;

	DeniedRequestAudit(AuditLog audit) {
		this.audit = audit;
	}

	@EventListener
	void denied(AuthorizationDeniedEvent<?> event) {
		Authentication authentication = event.getAuthentication().get();
		if (authentication == null || authentication instanceof AnonymousAuthenticationToken
				|| !authentication.isAuthenticated()) {
			return;
		}
		Object source = event.getObject();
		if (source instanceof HttpServletRequest request && !READS.contains(request.getMethod())) {
			this.audit.record(AuditEntry.of(authentication.getName(), "request.denied", null,
					request.getMethod() + " " + request.getRequestURI(), Map.of(), Outcome.DENIED,
					"the caller's roles do not allow it"));
		}
		else if (source instanceof MethodInvocation call && MUTATORS.contains(call.getMethod().getName())) {
			this.audit.record(AuditEntry.of(authentication.getName(), "call.denied", null,
					call.getMethod().getDeclaringClass().getSimpleName() + "." + call.getMethod().getName(), Map.of(),
					Outcome.DENIED, "the caller's roles do not allow it"));
		}
	}

}
