package io.refstore.web.audit;

import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.context.event.EventListener;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authorization.event.AuthorizationDeniedEvent;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import io.refstore.web.audit.AuditEntry.Outcome;

/**
 * Records refused attempts to change something as {@link Outcome#DENIED}: a mutating HTTP
 * request (not GET, HEAD or OPTIONS) that the URL rules refuse ({@code request.denied}),
 * a call of a mutating service method that method security refuses ({@code call.denied}),
 * and any other refusal of a mutating request that reaches the security chain's
 * access-denied handler ({@link #handler}: a job's policy refusing a schedule's pause, a
 * console form refused to the role), once per request. Only authenticated callers are
 * recorded: an anonymous request is a 401 challenge, not an attempt by anyone in
 * particular. Reads that are refused are not audited.
 */
@Component
public class DeniedRequestAudit {

	private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

	/** Service methods that change state; the others only read. */
	private static final Set<String> MUTATORS = Set.of("batch", "put", "delete", "create", "replace", "setPaused",
			"cancel", "revoke", "migrate", "verify", "inventory", "maintain", "planDeletion", "executeDeletion",
			"restoreDeletion", "restore", "rollback", "stop", "restart");

	/** The request attribute marking a request whose refusal is recorded. */
	private static final String RECORDED = DeniedRequestAudit.class.getName() + ".recorded";

	private static final String NOT_ALLOWED = "the caller's roles do not allow it";

	private final AuditLog audit;

	DeniedRequestAudit(AuditLog audit) {
		this.audit = audit;
	}

	@EventListener
	void denied(AuthorizationDeniedEvent<?> event) {
		Authentication authentication = event.getAuthentication().get();
		if (!attempted(authentication)) {
			return;
		}
		Object source = event.getObject();
		if (source instanceof HttpServletRequest request && !READS.contains(request.getMethod())) {
			this.audit.record(AuditEntry.of(authentication.getName(), "request.denied", null,
					request.getMethod() + " " + request.getRequestURI(), Map.of(), Outcome.DENIED, NOT_ALLOWED));
			request.setAttribute(RECORDED, Boolean.TRUE);
		}
		else if (source instanceof MethodInvocation call && MUTATORS.contains(call.getMethod().getName())) {
			this.audit.record(AuditEntry.of(authentication.getName(), "call.denied", null,
					call.getMethod().getDeclaringClass().getSimpleName() + "." + call.getMethod().getName(), Map.of(),
					Outcome.DENIED, NOT_ALLOWED));
			RequestAttributes request = RequestContextHolder.getRequestAttributes();
			if (request != null) {
				request.setAttribute(RECORDED, Boolean.TRUE, RequestAttributes.SCOPE_REQUEST);
			}
		}
	}

	/**
	 * {@code delegate}, recording first a refused mutating request that no other record
	 * covers as {@code request.denied}, with the refusal's reason when it gives one.
	 */
	public AccessDeniedHandler handler(AccessDeniedHandler delegate) {
		return (request, response, refusal) -> {
			refused(request, refusal);
			delegate.handle(request, response, refusal);
		};
	}

	private void refused(HttpServletRequest request, AccessDeniedException refusal) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (READS.contains(request.getMethod()) || request.getAttribute(RECORDED) != null
				|| !attempted(authentication)) {
			return;
		}
		String reason = refusal.getMessage();
		this.audit.record(AuditEntry.of(authentication.getName(), "request.denied", null,
				request.getMethod() + " " + request.getRequestURI(), Map.of(), Outcome.DENIED,
				(reason == null || reason.isBlank() || reason.equals("Access Denied")) ? NOT_ALLOWED : reason));
		request.setAttribute(RECORDED, Boolean.TRUE);
	}

	private static boolean attempted(Authentication authentication) {
		return authentication != null && !(authentication instanceof AnonymousAuthenticationToken)
				&& authentication.isAuthenticated();
	}

}
