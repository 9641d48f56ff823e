package io.refstore.web.console.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * An address nothing serves, asked for by a browser outside the API: the console's not-found page rather than
 * the API's problem details. Only requests that accept HTML come here; under {@code /api/} and
 * {@code /actuator/} the exception is passed on, so API clients keep getting problem details.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleNotFoundAdvice {

	private final ConsoleAdvice console;

	ConsoleNotFoundAdvice(ConsoleAdvice console) {
		this.console = console;
	}

	@ExceptionHandler(produces = MediaType.TEXT_HTML_VALUE)
	String notFound(NoResourceFoundException ex, HttpServletRequest request, HttpServletResponse response,
			Model model) throws NoResourceFoundException {
		String path = request.getRequestURI().substring(request.getContextPath().length());
		if (path.startsWith("/api/") || path.startsWith("/actuator/")) {
			throw ex;
		}
		response.setStatus(HttpStatus.NOT_FOUND.value());
		model.addAttribute("consoleUser", this.console.consoleUser());
		return ErrorPages.fill(model, HttpStatus.NOT_FOUND, null);
	}

}
