package io.refstore.web.schedules;

import java.util.Map;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.refstore.batch.support.InvalidJobParameterException;
import io.refstore.web.system.Problems;

/**
 * The schedule API's refusals as problem+json: a refused field is a 400 whose {@code parameter} names it, an
 * unknown schedule a 404, a taken name a 409. Ordered before the application-wide handler so that these win.
 */
@RestControllerAdvice(assignableTypes = ScheduleApiController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ScheduleApiAdvice {

	@ExceptionHandler
	ProblemDetail invalid(InvalidJobParameterException ex) {
		return Problems.problem(HttpStatus.BAD_REQUEST, "invalid-parameter", Problems.printable(ex.getMessage()),
				Map.of("parameter", ex.parameter()));
	}

	@ExceptionHandler
	ProblemDetail notFound(ScheduleNotFoundException ex) {
		return Problems.problem(HttpStatus.NOT_FOUND, "schedule-not-found", Problems.printable(ex.getMessage()),
				Map.of());
	}

	@ExceptionHandler
	ProblemDetail conflict(ScheduleConflictException ex) {
		return Problems.problem(HttpStatus.CONFLICT, "schedule-exists", Problems.printable(ex.getMessage()), Map.of());
	}

}
