package io.refstore.web.system;

import java.util.function.Function;

import org.springframework.validation.Errors;

import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.core.input.RefusedInputException;

/**
 * A request field or parameter refused before anything happened: missing, malformed, out
 * of range, or naming something that does not exist. The API answers it as one kind of
 * problem ({@code invalid-parameter}) whose {@code parameter} names the field; the
 * console shows it beside the field. The message names the field, the value and the
 * reason in words.
 */
public class InvalidRequestException extends RefusedInputException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param parameter the field's name as the caller sent it ({@code confirmCount},
	 * {@code parameters.repository})
	 * @param value the refused value, possibly {@code null}
	 * @param reason why, phrased to follow "refused: "
	 */
	public InvalidRequestException(String parameter, String value, String reason) {
		this(parameter, value, reason, null);
	}

	private InvalidRequestException(String parameter, String value, String reason, Throwable cause) {
		super(parameter, value, reason, cause);
	}

	/**
	 * A job parameter the batch module refused, as this request's: the field, value and
	 * reason stay, and so does the cause (a ref name's rule, which the API names).
	 */
	public static InvalidRequestException of(InvalidJobParameterException ex) {
		return new InvalidRequestException(ex.parameter(), ex.value(), ex.reason(), ex.getCause());
	}

	/**
	 * Shows this refusal in a console form: beside the form's field that {@code fieldOf}
	 * gives for the refused parameter, or above the form when it gives {@code null}.
	 */
	public void rejectIn(Errors errors, Function<String, String> fieldOf) {
		String field = fieldOf.apply(parameter());
		if (field != null) {
			errors.rejectValue(field, "invalid", getMessage());
		}
		else {
			errors.reject("invalid", getMessage());
		}
	}

}
