package io.refstore.web.system;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.refstore.batch.api.JobConflictException;
import io.refstore.core.ref.InvalidRefNameException;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.TransactionAbortedByHookException;
import io.refstore.core.repo.InvalidRepositoryNameException;
import io.refstore.core.repo.StoreBusyException;
import io.refstore.core.repo.StoreSwappedException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.TokenStreamLocation;

/**
 * Turns every exception a handler throws into an RFC 9457 problem
 * ({@code application/problem+json}) whose detail names the culprit. Spring MVC's own
 * exceptions (405, 406, 415, missing or mistyped parameters, unknown paths) come through
 * the base class; refstore's through the handlers here. Anything unexpected becomes a 500
 * with a generic detail: the exception goes to the log, never to the client. Security
 * exceptions are passed on to Spring Security, which answers 401 or 403 through
 * {@code ProblemSecurityHandlers}. It is not scoped: it also answers what no handler took
 * (a 405, an unknown path); the console's advice, chosen by {@code @ConsoleController}
 * and ordered first, takes the console pages' errors.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler implements PassesSecurityExceptions {

	private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

	/**
	 * What a 503 for a store swap asks the client to wait: a swap holds writers for
	 * seconds at the most.
	 */
	private static final long RETRY_AFTER_SECONDS = 5;

	/** Where Tomcat's message on an undecodable parameter names it. */
	private static final Pattern PARAMETER_NAME = Pattern.compile("Parameter \\[([^\\]]*)\\]");

	@ExceptionHandler
	ProblemDetail invalidRepositoryName(InvalidRepositoryNameException ex) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("parameter", ex.parameter());
		properties.put("repository", Problems.printable(ex.value()));
		return Problems.problem(HttpStatus.BAD_REQUEST, "invalid-repository-name", Redaction.paths(ex.getMessage()),
				properties);
	}

	/**
	 * The one kind of problem for a refused field or parameter, whichever layer refused
	 * it.
	 */
	@ExceptionHandler
	ProblemDetail invalidRequest(InvalidRequestException ex) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("parameter", ex.parameter());
		if (ex.getCause() instanceof InvalidRefNameException name) {
			properties.put("ref", RefName.printable(name.refName()));
			properties.put("rule", name.rule().name());
		}
		return Problems.problem(HttpStatus.BAD_REQUEST, "invalid-parameter",
				Problems.escaped(Redaction.paths(ex.getMessage())), properties);
	}

	/**
	 * A query parameter Tomcat could not decode ({@code %ff} is no UTF-8): named from its
	 * message, which is logged but never shown.
	 */
	@ExceptionHandler
	ProblemDetail undecodableParameter(InvalidParameterException ex) {
		log.info("undecodable request parameter: {}", Problems.printable(ex.getMessage()));
		Matcher name = PARAMETER_NAME.matcher(String.valueOf(ex.getMessage()));
		Map<String, Object> properties = new LinkedHashMap<>();
		String detail = "a query parameter is not valid UTF-8 once percent-decoded";
		if (name.find()) {
			properties.put("parameter", Problems.printable(name.group(1)));
			detail = "the query parameter " + Problems.printable(name.group(1))
					+ " is not valid UTF-8 once percent-decoded";
		}
		return Problems.problem(HttpStatus.BAD_REQUEST, "invalid-parameter", detail, properties);
	}

	@ExceptionHandler
	ProblemDetail jobConflict(JobConflictException ex) {
		Map<String, Object> properties = new LinkedHashMap<>();
		if (ex.executionId() != null) {
			properties.put("execution", ex.executionId());
		}
		return Problems.problem(HttpStatus.CONFLICT, "job-conflict", Problems.escaped(Redaction.paths(ex.getMessage())),
				properties);
	}

	@ExceptionHandler
	ProblemDetail invalidRefName(InvalidRefNameException ex) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("ref", RefName.printable(ex.refName()));
		properties.put("rule", ex.rule().name());
		return Problems.problem(HttpStatus.BAD_REQUEST, "invalid-ref-name", Redaction.paths(ex.getMessage()),
				properties);
	}

	/**
	 * A write that met a store swap (a format migration or rollback) or a bulk run's
	 * chunk (a deletion or restore), by any refstore process, for longer than writers
	 * wait, or a swap twice in a row: nothing was written, and the client may simply
	 * retry.
	 */
	@ExceptionHandler({ StoreBusyException.class, StoreSwappedException.class })
	ResponseEntity<ProblemDetail> storeSwapping(IOException ex) {
		log.info("write refused while a ref store is swapped: {}", ex.getMessage());
		ProblemDetail problem = Problems.problem(HttpStatus.SERVICE_UNAVAILABLE, "store-swapping",
				"the repository's ref store is busy with a format migration, a rollback, or a deletion or restore of"
						+ " refs; nothing was written," + " retry in a few seconds",
				Map.of());
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, Long.toString(RETRY_AFTER_SECONDS))
			.body(problem);
	}

	/**
	 * The repository's {@code reference-transaction} hook refused the write (as git's
	 * hooks let hosting software vote on ref updates): nothing was written.
	 */
	@ExceptionHandler
	ProblemDetail refusedByHook(TransactionAbortedByHookException ex) {
		log.info("write refused by the reference-transaction hook in its '{}' state", ex.state());
		return Problems.problem(HttpStatus.CONFLICT, "refused-by-hook",
				"the repository's reference-transaction hook refused the update in its '" + ex.state()
						+ "' state; nothing was written",
				Map.of("state", ex.state()));
	}

	@ExceptionHandler
	ProblemDetail io(IOException ex) {
		log.error("I/O error while serving a request", ex);
		return Problems.problem(HttpStatus.INTERNAL_SERVER_ERROR, "io-error",
				"the repository could not be read or written; the server log has the details", Map.of());
	}

	@ExceptionHandler
	ProblemDetail unexpected(RuntimeException ex) {
		log.error("unexpected error while serving a request", ex);
		return Problems.problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error",
				"an unexpected error occurred; the server log has the details", Map.of());
	}

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		if (ex.getMostSpecificCause() instanceof BodySizeLimitFilter.BodyTooLargeException tooLarge) {
			ProblemDetail problem = BodySizeLimitFilter.tooLarge(tooLarge.limit);
			return handleExceptionInternal(ex, problem, headers, HttpStatus.CONTENT_TOO_LARGE, request);
		}
		log.info("unreadable request body: {}", Problems.printable(ex.getMessage()));
		Map<String, Object> properties = new LinkedHashMap<>();
		ProblemDetail problem = Problems.problem(HttpStatus.BAD_REQUEST, "malformed-body", notReadable(ex, properties),
				properties);
		return handleExceptionInternal(ex, problem, headers, status, request);
	}

	/**
	 * A query or path parameter that does not convert to its type, or is given more than
	 * once where one value is taken: the one {@code invalid-parameter} problem naming it,
	 * with what it takes in words (never the type's class name, nor the values as Java
	 * prints an array).
	 */
	@Override
	protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
			HttpStatusCode status, WebRequest request) {
		String name = (ex instanceof MethodArgumentTypeMismatchException argument) ? argument.getName()
				: String.valueOf(ex.getPropertyName());
		Object value = ex.getValue();
		String reason;
		String shown;
		if (value instanceof Object[] values && values.length != 1) {
			shown = String.join("', '", Arrays.stream(values).map(String::valueOf).toList());
			reason = "it is given " + values.length + " times; give it once";
		}
		else {
			shown = String.valueOf((value instanceof Object[] values) ? values[0] : value);
			reason = "it must be " + expected(ex.getRequiredType());
		}
		String parameter = Problems.printable(name);
		String detail = "parameter '" + parameter + "' = '" + Problems.printable(shown) + "' is refused: " + reason;
		ProblemDetail problem = Problems.problem(HttpStatus.BAD_REQUEST, "invalid-parameter", detail,
				Map.of("parameter", parameter));
		return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
	}

	/** What a parameter of {@code type} takes, in words. */
	private static String expected(Class<?> type) {
		if (type == null) {
			return "of another form";
		}
		if (type.isEnum()) {
			return "one of " + String.join(", ",
					Arrays.stream(type.getEnumConstants()).map((constant) -> ((Enum<?>) constant).name()).toList());
		}
		if (type == int.class || type == long.class || type == Integer.class || type == Long.class) {
			return "a whole number";
		}
		if (type == boolean.class || type == Boolean.class) {
			return "true or false";
		}
		if (Temporal.class.isAssignableFrom(type)) {
			return "an ISO-8601 date-time, such as 2026-12-03T10:15:30" + ((type == Instant.class) ? "Z" : "");
		}
		return "of another form";
	}

	/**
	 * Spring MVC's own problems (405, 406, 415, missing parameters) carry the correlation
	 * id too, and are bounded as refstore's are.
	 */
	@Override
	protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers, HttpStatusCode statusCode,
			WebRequest request) {
		String correlationId = CorrelationIdFilter.current();
		if (body instanceof ProblemDetail problem) {
			if (correlationId != null && (problem.getProperties() == null
					|| !problem.getProperties().containsKey(CorrelationIdFilter.KEY))) {
				problem.setProperty(CorrelationIdFilter.KEY, correlationId);
			}
			Problems.bounded(problem);
		}
		return super.createResponseEntity(body, headers, statusCode, request);
	}

	/**
	 * What is wrong with an unreadable body, in words, with the JSON position and the
	 * field ({@code updates[0].new}, also put in {@code properties}) but neither the
	 * parser's message (which names classes) nor the input.
	 */
	private static String notReadable(HttpMessageNotReadableException ex, Map<String, Object> properties) {
		if (!(ex.getMostSpecificCause() instanceof JacksonException json)) {
			return "the request body is missing or unreadable";
		}
		String field = field(json);
		StringBuilder detail = new StringBuilder();
		if (json instanceof StreamReadException) {
			detail.append("malformed JSON body: it is not well-formed JSON");
		}
		else if (field.isEmpty()) {
			detail.append("malformed JSON body: it does not have the expected structure");
		}
		else {
			detail.append("malformed JSON body: the field ").append(field).append(" is unknown or has the wrong type");
			properties.put("field", field);
		}
		TokenStreamLocation location = json.getLocation();
		if (location != null && location.getLineNr() > 0) {
			detail.append(" (line ")
				.append(location.getLineNr())
				.append(", column ")
				.append(location.getColumnNr())
				.append(')');
		}
		return detail.toString();
	}

	/** The path to the field a mapping error is at, from property names and indexes. */
	private static String field(JacksonException json) {
		StringBuilder field = new StringBuilder();
		for (JacksonException.Reference reference : json.getPath()) {
			if (reference.getPropertyName() != null) {
				field.append(field.isEmpty() ? "" : ".").append(reference.getPropertyName());
			}
			else if (reference.getIndex() >= 0) {
				field.append('[').append(reference.getIndex()).append(']');
			}
		}
		return Problems.printable(field.toString());
	}

}
