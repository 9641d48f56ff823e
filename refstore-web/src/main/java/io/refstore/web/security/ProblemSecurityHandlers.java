package io.refstore.web.security;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;

import io.refstore.web.system.Problems;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring Security's refusals as RFC 9457 problems: 401 with a {@code WWW-Authenticate}
 * challenge for Basic and Bearer, 403 naming the missing role, and 400 for a request the
 * firewall rejects (encoded dots, backslashes, ...), 429 for a throttled sign-in.
 * Thread-safe.
 */
final class ProblemSecurityHandlers implements AuthenticationEntryPoint, AccessDeniedHandler, RequestRejectedHandler {

	private final JsonMapper json;

	/**
	 * @param json the application's mapper, which writes {@code ProblemDetail} as RFC
	 * 9457 says
	 */
	ProblemSecurityHandlers(JsonMapper json) {
		this.json = json;
	}

	@Override
	public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException ex)
			throws IOException {
		response.addHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"refstore\"");
		response.addHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"refstore\"");
		String detail = (ex instanceof RefusedCredentialException) ? ex.getMessage()
				: "authentication is required: HTTP Basic with a user name and password, or 'Authorization: Bearer' "
						+ "with an API token (or the identity provider's JWT, where single sign-on is set up)";
		write(response, Problems.problem(HttpStatus.UNAUTHORIZED, "unauthenticated", detail, Map.of()));
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException ex)
			throws IOException {
		write(response, Problems.problem(HttpStatus.FORBIDDEN, "forbidden",
				"your roles do not allow " + request.getMethod() + " " + Problems.printable(request.getRequestURI())
						+ " (VIEWER reads, OPERATOR runs jobs and reads the audit log, ADMIN writes)",
				Map.of()));
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException ex)
			throws IOException {
		write(response, Problems.problem(HttpStatus.BAD_REQUEST, "rejected-request",
				"the request was rejected: " + Problems.printable(ex.getMessage()), Map.of()));
	}

	/**
	 * 429: the sign-in attempt is held back by the throttle; {@code Retry-After} says how
	 * many seconds to wait.
	 */
	void tooManyAttempts(HttpServletResponse response, Duration wait) throws IOException {
		long seconds = Math.max(1, wait.plusMillis(999).toSeconds());
		response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
		write(response,
				Problems.problem(HttpStatus.TOO_MANY_REQUESTS, "too-many-attempts",
						"too many failed sign-ins for this account or from this address: retry in " + seconds + " s",
						Map.of("retryAfter", seconds)));
	}

	private void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
		response.setStatus(problem.getStatus());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding("UTF-8");
		response.getOutputStream().write(this.json.writeValueAsBytes(problem));
	}

}
