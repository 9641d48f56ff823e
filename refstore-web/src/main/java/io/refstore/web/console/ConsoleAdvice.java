package io.refstore.web.console;

import java.io.IOException;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.PropertyAccessException;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.ui.Model;
import org.springframework.util.ObjectUtils;
import org.springframework.util.StringUtils;
import org.springframework.validation.BindingResult;
import org.springframework.validation.DefaultBindingErrorProcessor;
import org.springframework.validation.FieldError;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

import io.refstore.batch.api.JobConflictException;
import io.refstore.core.ref.InvalidRefNameException;
import io.refstore.core.repo.InvalidRepositoryNameException;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.PassesSecurityExceptions;
import io.refstore.web.system.Redaction;
import jakarta.servlet.http.HttpServletResponse;

/**
 * What every console page shares: the {@code consoleUser} model attribute the layout and
 * the pages use to show only the controls the role allows, and errors as the console's
 * error page instead of the API's problem details. Refused input (a repository or ref
 * name, a parameter) is a 400 whose page names the culprit; a missing repository or ref
 * is a 404; anything unexpected is a 500 whose page says only that the log has the
 * details. Security refusals go on to Spring Security (login for anonymous users, the 403
 * page otherwise).
 */
@ControllerAdvice(annotations = ConsoleController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleAdvice implements PassesSecurityExceptions {

	private static final Logger log = LoggerFactory.getLogger(ConsoleAdvice.class);

	private final RoleHierarchy hierarchy;

	ConsoleAdvice(RoleHierarchy hierarchy) {
		this.hierarchy = hierarchy;
	}

	/**
	 * A form field whose text is not of its type ({@code concurrency=abc}) is the form's
	 * error in words, as its other errors are: Spring's own message names the Java types
	 * and quotes the converter.
	 */
	@InitBinder
	void bindingErrorsInWords(WebDataBinder binder) {
		binder.setBindingErrorProcessor(new FieldTypeErrors());
	}

	@ModelAttribute("consoleUser")
	ConsoleUser consoleUser() {
		return ConsoleUser.of(SecurityContextHolder.getContext().getAuthentication(), this.hierarchy);
	}

	@ExceptionHandler
	String errorResponse(ErrorResponseException ex, HttpServletResponse response, Model model) {
		HttpStatusCode code = ex.getStatusCode();
		HttpStatus status = HttpStatus.resolve(code.value());
		if (status == null || status.is5xxServerError()) {
			log.error("error while serving a console page", ex);
			status = HttpStatus.INTERNAL_SERVER_ERROR;
		}
		return page(response, model, status, ex.getBody().getDetail());
	}

	/**
	 * Refused input: a repository or ref name, a field; the message names it and says
	 * why.
	 */
	@ExceptionHandler({ InvalidRepositoryNameException.class, InvalidRefNameException.class,
			InvalidRequestException.class })
	String refusedInput(IllegalArgumentException ex, HttpServletResponse response, Model model) {
		return page(response, model, HttpStatus.BAD_REQUEST, Redaction.paths(ex.getMessage()));
	}

	@ExceptionHandler
	String missingParameter(MissingServletRequestParameterException ex, HttpServletResponse response, Model model) {
		return page(response, model, HttpStatus.BAD_REQUEST,
				"The parameter '" + ex.getParameterName() + "' is missing.");
	}

	@ExceptionHandler
	String mistypedParameter(MethodArgumentTypeMismatchException ex, HttpServletResponse response, Model model) {
		return page(response, model, HttpStatus.BAD_REQUEST,
				"The parameter '" + ex.getName() + "' has a value of the wrong kind.");
	}

	/** A query parameter Tomcat could not decode ({@code %}, {@code %ff}). */
	@ExceptionHandler
	String undecodableParameter(InvalidParameterException ex, HttpServletResponse response, Model model) {
		return page(response, model, HttpStatus.BAD_REQUEST,
				"A query parameter is not valid once percent-decoded: write % as %25.");
	}

	@ExceptionHandler
	String jobConflict(JobConflictException ex, HttpServletResponse response, Model model) {
		return page(response, model, HttpStatus.CONFLICT, ConsoleFormat.busyRepository(null, ex.executionId(), null));
	}

	@ExceptionHandler
	String io(IOException ex, HttpServletResponse response, Model model) {
		log.error("I/O error while serving a console page", ex);
		return page(response, model, HttpStatus.INTERNAL_SERVER_ERROR, null);
	}

	@ExceptionHandler
	String unexpected(RuntimeException ex, HttpServletResponse response, Model model) {
		log.error("unexpected error while serving a console page", ex);
		return page(response, model, HttpStatus.INTERNAL_SERVER_ERROR, null);
	}

	/**
	 * Records a field that could not be converted with a message in words (what the field
	 * takes), keeping Spring's codes so that a message source can still word it.
	 */
	static final class FieldTypeErrors extends DefaultBindingErrorProcessor {

		@Override
		public void processPropertyAccessException(PropertyAccessException ex, BindingResult result) {
			String field = ex.getPropertyName();
			String objectName = result.getObjectName();
			Object rejected = ex.getValue();
			if (ObjectUtils.isArray(rejected)) {
				rejected = StringUtils.arrayToCommaDelimitedString(ObjectUtils.toObjectArray(rejected));
			}
			FieldError error = new FieldError(objectName, field, rejected, true,
					result.resolveMessageCodes(ex.getErrorCode(), field), getArgumentsForBindError(objectName, field),
					expected((ex instanceof TypeMismatchException mismatch) ? mismatch.getRequiredType() : null));
			result.addError(error);
		}

		private static String expected(Class<?> type) {
			if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
				return "This must be a whole number.";
			}
			if (type == boolean.class || type == Boolean.class) {
				return "This must be true or false.";
			}
			return "This value is not of the right kind.";
		}

	}

	private String page(HttpServletResponse response, Model model, HttpStatus status, String detail) {
		response.setStatus(status.value());
		model.addAttribute("consoleUser", consoleUser());
		return ErrorPages.fill(model, status, detail);
	}

}
