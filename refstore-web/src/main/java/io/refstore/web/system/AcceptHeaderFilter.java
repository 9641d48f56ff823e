package io.refstore.web.system;

import java.io.IOException;
import java.util.Collections;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

import tools.jackson.databind.json.JsonMapper;

/**
 * Answers an API request whose {@code Accept} header is not a list of media types
 * ({@code *}{@code /*;q=abc}) with a 406 problem naming the header. Spring MVC cannot
 * negotiate any answer for such a request, so it sent its errors without a body. Other
 * requests pass untouched. Thread-safe.
 */
final class AcceptHeaderFilter extends OncePerRequestFilter {

	private final JsonMapper json;

	AcceptHeaderFilter(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		for (String accept : Collections.list(request.getHeaders(HttpHeaders.ACCEPT))) {
			try {
				MediaType.parseMediaTypes(accept);
			}
			catch (InvalidMediaTypeException ex) {
				ProblemDetail problem = Problems.problem(HttpStatus.NOT_ACCEPTABLE, "not-acceptable",
						"the Accept header '" + Problems.printable(accept)
								+ "' is not a list of media types; ask for application/json",
						Map.of("header", HttpHeaders.ACCEPT));
				response.setStatus(problem.getStatus());
				response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
				response.getOutputStream().write(this.json.writeValueAsBytes(problem));
				return;
			}
		}
		chain.doFilter(request, response);
	}

}
