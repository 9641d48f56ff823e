package io.refstore.web.system;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.UUID;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's error report for what it refuses before the application sees the request (a
 * {@code %00}, {@code %5C} or a raw {@code %} in the path, a header over the limit): a
 * problem with a correlation id instead of Tomcat's HTML page. The status and its reason
 * only; what Tomcat said goes to the log under the id.
 */
class ProblemReportValve extends ErrorReportValve {

	private static final Logger log = LoggerFactory.getLogger(ProblemReportValve.class);

	private final JsonMapper json;

	ProblemReportValve(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int code = response.getStatus();
		if (code < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		HttpStatus status = HttpStatus.resolve(code);
		if (status == null) {
			status = (code >= 500) ? HttpStatus.INTERNAL_SERVER_ERROR : HttpStatus.BAD_REQUEST;
		}
		String id = (request.getAttribute(CorrelationIdFilter.ATTRIBUTE) instanceof String kept) ? kept
				: UUID.randomUUID().toString();
		String reason = response.getMessage();
		log.info("[{}] the servlet container answered {} itself{}{}", id, code,
				(reason != null) ? ": " + Problems.printable(reason) : "",
				(throwable != null) ? " (" + Problems.printable(String.valueOf(throwable.getMessage())) + ")" : "");
		if (throwable != null) {
			log.debug("[{}] what the servlet container refused", id, throwable);
		}
		ProblemDetail problem = Problems.problem(status, "http-" + status.value(),
				ProblemErrorController.detail(status), Map.of(CorrelationIdFilter.KEY, id));
		boolean page = wantsPage(request);
		try {
			response.setContentType(page ? MediaType.TEXT_HTML_VALUE : MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.setCharacterEncoding("UTF-8");
			response.setHeader(CorrelationIdFilter.HEADER, id);
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(page ? page(status, id) : this.json.writeValueAsString(problem));
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// the client is gone or the response was taken over: nothing left to tell
		}
	}

	/**
	 * Whether the client is a browser on a console address: it accepts HTML and the path
	 * is not the API's. It gets a page in the console's look; anyone else the problem.
	 */
	private static boolean wantsPage(Request request) {
		String accept = request.getHeader("Accept");
		// the path as it came: a path Tomcat refuses may not decode
		String uri = request.getRequestURI();
		return accept != null && accept.contains(MediaType.TEXT_HTML_VALUE) && uri != null
				&& !(uri.startsWith("/api/") || uri.startsWith("/actuator/"));
	}

	/**
	 * The console's error page, written out here because the request never reached the
	 * application (no template engine, no session): the console's stylesheet and header,
	 * the status, what it means and the correlation id the log has, marked up as the
	 * application's error page marks it.
	 */
	static String page(HttpStatus status, String id) {
		String heading = switch (status) {
			case BAD_REQUEST -> "Bad request";
			case CONTENT_TOO_LARGE -> "Request too large";
			case REQUEST_HEADER_FIELDS_TOO_LARGE -> "Headers too large";
			default -> status.is5xxServerError() ? "Something went wrong" : status.getReasonPhrase();
		};
		String explanation = switch (status) {
			case BAD_REQUEST -> "The server could not read this address: it holds a stray % or a character an "
					+ "address cannot carry.";
			default -> status.is5xxServerError()
					? "The server could not complete this request. The server log has the details; try again, or "
							+ "tell an administrator."
					: "The server refused this request: " + ProblemErrorController.detail(status) + ".";
		};
		return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
				+ "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" + "<title>" + heading
				+ " · refstore</title><link rel=\"icon\" type=\"image/svg+xml\" href=\"/console/favicon.svg\">"
				+ "<link rel=\"stylesheet\" href=\"/console/console.css\"></head><body>"
				+ "<header class=\"top\"><nav aria-label=\"Main\"><a class=\"brand\" href=\"/\">refstore</a>"
				+ "<a href=\"/\">Repositories</a><a href=\"/jobs\">Jobs</a></nav></header>"
				+ "<main id=\"main\"><section class=\"error-page\"><h1>" + heading + "</h1>"
				+ "<p class=\"status\">Error <span id=\"status\">" + status.value() + "</span></p>"
				+ "<p id=\"explanation\">" + explanation + "</p>"
				+ "<p class=\"correlation\">Reference for an administrator: <code id=\"correlation-id\">" + id
				+ "</code></p>" + "<p><a href=\"/\">Back to the repositories</a></p></section></main></body></html>";
	}

}
