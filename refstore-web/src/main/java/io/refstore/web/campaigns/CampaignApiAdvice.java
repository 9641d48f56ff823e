package io.refstore.web.campaigns;

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
 * The campaign API's refusals as problem+json: a refused field is a 400 whose {@code parameter} names it, an
 * unknown campaign a 404. Ordered before the application-wide handler so that these win.
 */
@RestControllerAdvice(assignableTypes = CampaignApiController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class CampaignApiAdvice {

	@ExceptionHandler
	ProblemDetail invalid(InvalidJobParameterException ex) {
		return Problems.problem(HttpStatus.BAD_REQUEST, "invalid-parameter", Problems.printable(ex.getMessage()),
				Map.of("parameter", ex.parameter()));
	}

	@ExceptionHandler
	ProblemDetail notFound(CampaignNotFoundException ex) {
		return Problems.problem(HttpStatus.NOT_FOUND, "campaign-not-found", Problems.printable(ex.getMessage()),
				Map.of());
	}

}
