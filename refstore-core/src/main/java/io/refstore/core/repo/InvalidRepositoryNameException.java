package io.refstore.core.repo;

import io.refstore.core.input.RefusedInputException;

/**
 * A repository name given by a user that {@link RepositoryPaths} refuses, because it is
 * malformed or would lead outside the configured roots. The message names the parameter,
 * the value and the reason.
 */
public class InvalidRepositoryNameException extends RefusedInputException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param parameter the name of the parameter that carried the value (a job parameter
	 * or form field)
	 * @param value the refused value as given, possibly {@code null}
	 * @param reason why it is refused, phrased to follow "refused: "
	 */
	public InvalidRepositoryNameException(String parameter, String value, String reason) {
		super(parameter, value, reason);
	}

}
