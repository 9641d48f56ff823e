package io.refstore.web.system;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;

/**
 * What the servlet container's error dispatch tells its error controllers (the API's and
 * the console's).
 */
public final class ErrorDispatch {

	private ErrorDispatch() {
	}

	/**
	 * The error status the container dispatched with; 500 if it gave none, or none that
	 * is an error.
	 */
	public static HttpStatus status(HttpServletRequest request) {
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		if (code instanceof Integer value) {
			HttpStatus status = HttpStatus.resolve(value);
			if (status != null && status.isError()) {
				return status;
			}
		}
		return HttpStatus.INTERNAL_SERVER_ERROR;
	}

}
