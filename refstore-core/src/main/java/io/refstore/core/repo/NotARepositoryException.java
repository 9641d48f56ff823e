package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.Path;

/**
 * No git repository was found where one was expected: at or above a start directory, or
 * behind a {@code .git} file or a {@code commondir} link. The message names the path.
 */
public class NotARepositoryException extends IOException {

	private static final long serialVersionUID = 1L;

	private final Path path;

	/**
	 * @param path the directory searched from, or the path that should have been a
	 * repository
	 * @param message what was looked for and not found, without the path
	 */
	public NotARepositoryException(Path path, String message) {
		super(message + ": " + path);
		this.path = path;
	}

	/** The path that is not (in) a repository. */
	public Path path() {
		return this.path;
	}

}
