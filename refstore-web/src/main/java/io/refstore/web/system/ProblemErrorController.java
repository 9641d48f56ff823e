package io.refstore.web.system;

import java.util.Map;

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
		HttpStatus status = ErrorDispatch.status(request);
		Object path = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
		String detail = switch (status) {
			case NOT_FOUND -> "no resource at " + Problems.printable(String.valueOf(path));
			case CONTENT_TOO_LARGE -> "the request body is larger than the server accepts";
			default -> (status.is5xxServerError()) ? "an unexpected error occurred; the server log has the details"
					: "the request was refused: " + status.getReasonPhrase();
		};
		ProblemDetail problem = Problems.problem(status, "http-" + status.value(), detail, Map.of());
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
	}

}
