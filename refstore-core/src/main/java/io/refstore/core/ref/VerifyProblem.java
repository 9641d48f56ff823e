package io.refstore.core.ref;

import java.util.Objects;

/**
 * One finding of a ref store consistency check ({@code refstore refs verify}).
 *
 * @param error whether it counted as an error (the store is damaged) rather than a
 * warning
 * @param path what the finding is about, as git names it: a ref name, or a file and line
 * ({@code packed-refs line 3}, {@code packed-refs.header}, a table's name)
 * @param check the message id, git's where git makes the check ({@code badRefName},
 * {@code badRefContent}, ...; see {@link RefCheck})
 * @param message what is wrong
 */
public record VerifyProblem(boolean error, String path, String check, String message) {

	public VerifyProblem {
		Objects.requireNonNull(path, "path");
		Objects.requireNonNull(check, "check");
		Objects.requireNonNull(message, "message");
	}

	/**
	 * The line git's {@code refs verify} prints:
	 * {@code error: <path>: <check>: <message>}.
	 */
	public String format() {
		if (this.check.isEmpty()) {
			return (this.error ? "error: " : "warning: ") + this.message;
		}
		return (this.error ? "error: " : "warning: ") + this.path + ": " + this.check + ": " + this.message;
	}

}
