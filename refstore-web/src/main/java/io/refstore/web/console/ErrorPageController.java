package io.refstore.web.console;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.RequestMapping;

import io.refstore.web.system.ErrorDispatch;

/**
 * The servlet container's error dispatch for browsers (requests that accept
 * {@code text/html}): a page with the status and a friendly sentence in the console's
 * layout. Other clients get the API's problem details from the JSON error controller on
 * the same path. Nothing of the exception is shown.
 */
@ConsoleController
class ErrorPageController implements ErrorController {

	@RequestMapping(path = "${server.error.path:/error}", produces = MediaType.TEXT_HTML_VALUE)
	String showError(HttpServletRequest request, HttpServletResponse response, Model model) {
		HttpStatus status = ErrorDispatch.status(request);
		response.setStatus(status.value());
		return ErrorPages.fill(model, status, null);
	}

}
