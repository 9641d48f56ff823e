package io.refstore.web.system;

import java.util.Map;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Answers the servlet container's error dispatch (errors raised outside Spring MVC: a URI
 * Tomcat refuses, a body over the size limit, a filter's {@code sendError}) with a
 * problem instead of Boot's default error body. It reports the status and the container's
 * reason only; exceptions are never shown.
 */
@RestController
class ProblemErrorController implements ErrorController {

	@RequestMapping("${server.error.path:/error}")
	ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
		// asked for directly, not dispatched by the container: there is nothing at /error
		boolean dispatched = request.getDispatcherType() == DispatcherType.ERROR;
		HttpStatus status = dispatched ? ErrorDispatch.status(request) : HttpStatus.NOT_FOUND;
		Object path = dispatched ? request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) : request.getRequestURI();
		String detail = (status == HttpStatus.NOT_FOUND) ? "no resource at " + Problems.printable(String.valueOf(path))
				: detail(status);
		ProblemDetail problem = Problems.problem(status, "http-" + status.value(), detail, Map.of());
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
	}

	/**
	 * The detail of an error the container raised, in words: the status's reason, never
	 * the container's message (which may quote the input or name a class).
	 */
	static String detail(HttpStatus status) {
		return switch (status) {
			case CONTENT_TOO_LARGE -> "the request body is larger than the server accepts";
			case REQUEST_HEADER_FIELDS_TOO_LARGE -> "the request's headers are larger than the server accepts";
			default -> (status.is5xxServerError()) ? "an unexpected error occurred; the server log has the details"
					: "the request was refused: " + status.getReasonPhrase();
		};
	}

}
