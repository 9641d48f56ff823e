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

	/**
	 * The longest {@code detail} of a problem, and text member: as long as the longest
	 * repository name.
	 */
	public static final int MAX_TEXT = 1024;

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
		return bounded(problem);
	}

	/** 404: {@code what} does not exist. */
	public static ErrorResponseException notFound(String kind, String detail, Map<String, ?> properties) {
		return exception(HttpStatus.NOT_FOUND, kind, detail, properties);
	}

	/**
	 * {@code value} with control characters escaped, so that a detail cannot break a log
	 * line or a page, and cut to an excerpt of {@value Printable#EXCERPT} characters that
	 * states the cut ({@link Printable#excerpt}), so that a refused megabyte is neither
	 * echoed nor stored whole.
	 */
	public static String printable(String value) {
		return Printable.excerpt(value);
	}

	/**
	 * {@code message} with control characters escaped and nothing cut: for a message that
	 * quotes user values as excerpts already
	 * ({@link io.refstore.core.input.RefusedInputException}'s); a problem still cuts what
	 * is too long.
	 */
	public static String escaped(String message) {
		return Printable.of(message);
	}

	/**
	 * {@code problem} with a detail and text members of at most {@value #MAX_TEXT}
	 * characters each, cut with the cut stated: the bound of every problem, whatever a
	 * message quoted (values quoted through {@link #printable} are shorter still).
	 * Returns the same problem.
	 */
	static ProblemDetail bounded(ProblemDetail problem) {
		problem.setDetail(Columns.cut(problem.getDetail(), MAX_TEXT));
		if (problem.getProperties() != null) {
			problem.getProperties()
				.replaceAll((name, value) -> (value instanceof String text) ? Columns.cut(text, MAX_TEXT) : value);
		}
		return problem;
	}

}
