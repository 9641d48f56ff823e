package io.refstore.web.console;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.databind.json.JsonMapper;

import io.refstore.web.system.Problems;

/**
 * An address nothing serves, asked for by a browser outside the API: the console's
 * not-found page rather than the API's problem details. Only requests that accept HTML
 * (or anything) come here; under {@code /api/} and {@code /actuator/} the answer is the
 * API's problem details, written here: an exception rethrown from this handler would
 * reach no other advice.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleNotFoundAdvice {

	private final ConsoleAdvice console;

	private final JsonMapper json;

	ConsoleNotFoundAdvice(ConsoleAdvice console, JsonMapper json) {
		this.console = console;
		this.json = json;
	}

	@ExceptionHandler(produces = MediaType.TEXT_HTML_VALUE)
	String notFound(NoResourceFoundException ex, HttpServletRequest request, HttpServletResponse response, Model model)
			throws IOException {
		String path = request.getRequestURI().substring(request.getContextPath().length());
		if (path.startsWith("/api/") || path.startsWith("/actuator/")) {
			ProblemDetail problem = Problems.problem(HttpStatus.NOT_FOUND, "not-found",
					"nothing is served at '" + Problems.printable(path) + "'", Map.of());
			problem.setInstance(URI.create(request.getRequestURI()));
			response.setStatus(HttpStatus.NOT_FOUND.value());
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			this.json.writeValue(response.getOutputStream(), problem);
			return null;
		}
		response.setStatus(HttpStatus.NOT_FOUND.value());
		model.addAttribute("consoleUser", this.console.consoleUser());
		return ErrorPages.fill(model, HttpStatus.NOT_FOUND, null);
	}

}
