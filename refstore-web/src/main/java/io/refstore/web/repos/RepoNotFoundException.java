package io.refstore.web.repos;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import io.refstore.web.system.Problems;

/**
 * No repository of the given name exists under the configured roots: a 404 problem naming
 * it.
 */
public class RepoNotFoundException extends ErrorResponseException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param name the repository name as the client gave it
	 */
	public RepoNotFoundException(String name) {
		super(HttpStatus.NOT_FOUND,
				Problems.problem(HttpStatus.NOT_FOUND, "repository-not-found",
						"no repository '" + Problems.printable(name) + "' under the configured roots",
						Map.of("repository", Problems.printable(name))),
				null);
	}

}
