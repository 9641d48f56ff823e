package io.refstore.web.system;

import java.net.URI;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

import io.refstore.core.input.Printable;

/**
 * Factories for the RFC 9457 problems the API answers with. Each problem carries a
 * {@code type} URI under {@value #TYPE_BASE} that names the kind of error, a title, and a
 * detail naming the culprit (a parameter, a ref name and the rule it breaks, a
 * conflicting ref), and the request's correlation id ({@code correlationId}), under which
 * the log has the full detail. Stateless.
 */
public final class Problems {

	/**
	 * The base of every problem {@code type} URI; the API description lists the kinds.
	 */
	public static final String TYPE_BASE = "https://refstore.io/problems/";

	private Problems() {
	}

	/**
	 * A problem of {@code status} and kind {@code kind} as an exception that Spring MVC
	 * renders.
	 * @param properties extension members of the problem (for example the offending
	 * {@code parameter})
	 */
	public static ErrorResponseException exception(HttpStatus status, String kind, String detail,
			Map<String, ?> properties) {
		return new ErrorResponseException(status, problem(status, kind, detail, properties), null);
	}

	/**
	 * A problem of {@code status}, kind {@code kind}, with {@code detail} and extension
	 * members.
	 */
	public static ProblemDetail problem(HttpStatus status, String kind, String detail, Map<String, ?> properties) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create(TYPE_BASE + kind));
		problem.setTitle(status.getReasonPhrase());
		properties.forEach(problem::setProperty);
		String correlationId = CorrelationIdFilter.current();
		if (correlationId != null && !properties.containsKey(CorrelationIdFilter.KEY)) {
			problem.setProperty(CorrelationIdFilter.KEY, correlationId);
		}
		return problem;
	}

	/** 404: {@code what} does not exist. */
	public static ErrorResponseException notFound(String kind, String detail, Map<String, ?> properties) {
		return exception(HttpStatus.NOT_FOUND, kind, detail, properties);
	}

	/**
	 * {@code value} with control characters escaped, so that a detail cannot break a log
	 * line or a page.
	 */
	public static String printable(String value) {
		return Printable.of(value);
	}

}
