package io.refstore.web.console;

import org.springframework.http.HttpStatus;
import org.springframework.ui.Model;

import io.refstore.web.system.CorrelationIdFilter;

/**
 * The wording of the console's error page per status: a heading and a sentence for a
 * person, never an exception or a stack trace. Only a 400's explanation may carry a
 * detail, and only one the console wrote about the user's own input (a parameter, a
 * repository or ref name and the rule it breaks).
 */
final class ErrorPages {

	/** The view every console error renders. */
	static final String VIEWS_ERROR = "system/error";

	private ErrorPages() {
	}

	/**
	 * Fills the model of the error view, the request's correlation id included (the page
	 * shows it, and the log has it on every line of the request).
	 * @param status the status to report
	 * @param detail what was wrong with the user's input, for a 4xx; ignored for a 5xx
	 * @return the view name
	 */
	static String fill(Model model, HttpStatus status, String detail) {
		model.addAttribute("correlationId", CorrelationIdFilter.current());
		model.addAttribute("status", status.value());
		model.addAttribute("heading", heading(status));
		model.addAttribute("explanation", explanation(status, detail));
		return VIEWS_ERROR;
	}

	static String heading(HttpStatus status) {
		return switch (status) {
			case NOT_FOUND -> "Not found";
			case FORBIDDEN -> "Forbidden";
			case BAD_REQUEST -> "Bad request";
			case CONFLICT -> "Conflict";
			case METHOD_NOT_ALLOWED -> "Method not allowed";
			default -> status.is5xxServerError() ? "Something went wrong" : status.getReasonPhrase();
		};
	}

	private static String explanation(HttpStatus status, String detail) {
		if (status.is5xxServerError()) {
			return "The server could not complete this request. The server log has the details; "
					+ "try again, or tell an administrator.";
		}
		if (detail != null && !detail.isBlank()) {
			return detail;
		}
		return switch (status) {
			case NOT_FOUND -> "There is nothing at this address.";
			case FORBIDDEN -> "Your role does not allow this. Ask an administrator if you need it.";
			case BAD_REQUEST -> "The request was not understood.";
			default -> "The request was refused.";
		};
	}

}
