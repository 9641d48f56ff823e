package io.refstore.batch.api;

import io.refstore.core.input.RefusedInputException;

/**
 * A job parameter refused before anything started: missing, malformed, out of range, or
 * naming something that does not exist. The message names the parameter, the value and
 * the reason.
 */
public class InvalidJobParameterException extends RefusedInputException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param parameter the parameter's key ({@link JobParameterNames})
	 * @param value the refused value, possibly {@code null}
	 * @param reason why, phrased to follow "refused: "
	 */
	public InvalidJobParameterException(String parameter, String value, String reason) {
		super(parameter, value, reason);
	}

}
