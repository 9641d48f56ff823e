package io.refstore.web.system;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.UUID;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
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

	private static final Log log = LogFactory.getLog(ProblemReportValve.class);

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
		log.info("[" + id + "] the servlet container answered " + code + " itself"
				+ ((reason != null) ? ": " + Problems.printable(reason) : "")
				+ ((throwable != null) ? " (" + Problems.printable(String.valueOf(throwable.getMessage())) + ")" : ""));
		if (throwable != null && log.isDebugEnabled()) {
			log.debug("[" + id + "] what the servlet container refused", throwable);
		}
		ProblemDetail problem = Problems.problem(status, "http-" + status.value(),
				ProblemErrorController.detail(status), Map.of(CorrelationIdFilter.KEY, id));
		try {
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.setCharacterEncoding("UTF-8");
			response.setHeader(CorrelationIdFilter.HEADER, id);
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(this.json.writeValueAsString(problem));
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// the client is gone or the response was taken over: nothing left to tell
		}
	}

}
