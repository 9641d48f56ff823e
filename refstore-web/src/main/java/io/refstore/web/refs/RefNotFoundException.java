package io.refstore.web.refs;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import io.refstore.core.ref.RefName;
import io.refstore.web.system.Problems;

/**
 * The named ref (or its log) does not exist in the repository: a 404 problem naming both.
 */
public class RefNotFoundException extends ErrorResponseException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param repo the repository name
	 * @param ref the ref name
	 * @param what what is missing ("ref" or "reflog")
	 */
	public RefNotFoundException(String repo, String ref, String what) {
		super(HttpStatus.NOT_FOUND,
				Problems.problem(HttpStatus.NOT_FOUND, what + "-not-found",
						"no " + what + " '" + RefName.printable(ref) + "' in repository '" + Problems.printable(repo)
								+ "'",
						Map.of("repository", Problems.printable(repo), "ref", RefName.printable(ref))),
				null);
	}

}
