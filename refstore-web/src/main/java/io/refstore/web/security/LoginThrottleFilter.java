package io.refstore.web.security;

import java.io.IOException;
import java.time.Duration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.www.BasicAuthenticationConverter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers a sign-in attempt that {@link LoginThrottle} holds back with a 429 problem and
 * {@code Retry-After}, before it reaches the password check: on the API chain a request
 * with HTTP Basic credentials, on the console chain the login form's POST. Other requests
 * pass untouched. Thread-safe.
 */
final class LoginThrottleFilter extends OncePerRequestFilter {

	private static final RequestMatcher LOGIN_FORM = PathPatternRequestMatcher.withDefaults()
		.matcher(HttpMethod.POST, "/login");

	private final LoginThrottle throttle;

	private final ProblemSecurityHandlers problems;

	private final boolean form;

	private final BasicAuthenticationConverter basic = new BasicAuthenticationConverter();

	/**
	 * @param form {@code true} to watch the console's login form, {@code false} for HTTP
	 * Basic
	 */
	LoginThrottleFilter(LoginThrottle throttle, ProblemSecurityHandlers problems, boolean form) {
		this.throttle = throttle;
		this.problems = problems;
		this.form = form;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String account = account(request);
		if (account != null) {
			Duration wait = this.throttle.wait(account, request.getRemoteAddr());
			if (!wait.isZero()) {
				this.problems.tooManyAttempts(response, wait);
				return;
			}
		}
		chain.doFilter(request, response);
	}

	/** The account the request signs in as, or {@code null} if it does not sign in. */
	private String account(HttpServletRequest request) {
		if (this.form) {
			return LOGIN_FORM.matches(request) ? String.valueOf(request.getParameter("username")) : null;
		}
		try {
			UsernamePasswordAuthenticationToken credentials = this.basic.convert(request);
			return (credentials != null) ? credentials.getName() : null;
		}
		catch (AuthenticationException ex) {
			// malformed Basic credentials: the Basic filter refuses them with its 401
			return null;
		}
	}

}
