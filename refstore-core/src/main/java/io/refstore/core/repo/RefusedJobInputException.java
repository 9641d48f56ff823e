package io.refstore.core.repo;

import io.refstore.core.input.RefusedInputException;

/**
 * A job input named by a user (a deletion plan, a manifest, a backup) that
 * {@link RepositoryInputs} refuses before anything reads it: outside its directory in the
 * repository, missing, of the wrong kind, reached through a symbolic link, or written by
 * another repository. The reason names the input relative to the repository, never by its
 * server path.
 */
public class RefusedJobInputException extends RefusedInputException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param parameter the parameter that named the input ({@code plan},
	 * {@code manifest}, {@code backup})
	 * @param value the input as given, possibly {@code null}
	 * @param reason why it is refused, phrased to follow "refused: "
	 */
	public RefusedJobInputException(String parameter, String value, String reason) {
		super(parameter, value, reason);
	}

}
