package io.refstore.web.security;

import java.util.List;
import java.util.Map;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authentication.event.AbstractAuthenticationFailureEvent;
import org.springframework.security.authentication.event.AuthenticationSuccessEvent;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

import io.refstore.web.audit.AuditEntry;
import io.refstore.web.audit.AuditEntry.Outcome;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.system.Notification;
import io.refstore.web.system.Problems;

/**
 * Feeds password sign-ins (console form and HTTP Basic; API tokens are not guessable and
 * not counted) to the {@link LoginThrottle} and audits each failure as
 * {@code login.failure} and each lock-out as {@code login.lockout}, with the client
 * address as a parameter; a lock-out is told to the webhooks too
 * ({@code security.lockout}). Thread-safe.
 */
final class SignInEvents {

	private final LoginThrottle throttle;

	private final AuditLog audit;

	private final ApplicationEventPublisher events;

	SignInEvents(LoginThrottle throttle, AuditLog audit, ApplicationEventPublisher events) {
		this.throttle = throttle;
		this.audit = audit;
		this.events = events;
	}

	@EventListener
	void failed(AbstractAuthenticationFailureEvent event) {
		Authentication attempt = event.getAuthentication();
		if (!(attempt instanceof UsernamePasswordAuthenticationToken)) {
			return;
		}
		String account = Problems.printable(String.valueOf(attempt.getName()));
		String address = address(attempt);
		List<String> locked = this.throttle.failed(attempt.getName(), address);
		Map<String, String> parameters = Map.of("address", address);
		this.audit.record(AuditEntry.of(account, "login.failure", null, null, parameters, Outcome.REJECTED,
				"wrong user name or password"));
		if (!locked.isEmpty()) {
			this.audit.record(AuditEntry.of(account, "login.lockout", null, String.join(" and ", locked), parameters,
					Outcome.DENIED, "sign-ins locked out for " + this.throttle.lockout() + " after "
							+ this.throttle.lockoutAfter() + " failures"));
			this.events.publishEvent(Notification.of("security.lockout", null, account,
					Map.of("lockout", Map.of("locked", String.join(" and ", locked), "address", address, "seconds",
							this.throttle.lockout().toSeconds(), "failures", this.throttle.lockoutAfter()))));
		}
	}

	@EventListener
	void succeeded(AuthenticationSuccessEvent event) {
		if (event.getAuthentication() instanceof UsernamePasswordAuthenticationToken attempt) {
			this.throttle.succeeded(attempt.getName(), address(attempt));
		}
	}

	private static String address(Authentication attempt) {
		return (attempt.getDetails() instanceof WebAuthenticationDetails details && details.getRemoteAddress() != null)
				? details.getRemoteAddress() : "unknown";
	}

}
