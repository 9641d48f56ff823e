package io.refstore.core.ref;

import java.util.Objects;

/**
 * One finding of a ref store consistency check ({@code refstore refs verify}).
 *
 * @param error whether it is an error (the store is damaged) rather than a warning (git
 * reads it, but would not have written it so)
 * @param where the file (relative to the git directory) or ref the finding is about
 * @param position line number (text files) or byte offset (binary files) in that file, or
 * -1
 * @param check the name of the check, in git's fsck style where git has one
 * ({@code badRefName}, {@code badRefContent}, ...)
 * @param message what is wrong
 */
public record VerifyProblem(boolean error, String where, long position, String check, String message) {

	public VerifyProblem {
		Objects.requireNonNull(where, "where");
		Objects.requireNonNull(check, "check");
		Objects.requireNonNull(message, "message");
	}

	/**
	 * The line git's {@code refs verify} prints:
	 * {@code error: <where>: <check>: <message>}.
	 */
	public String format() {
		String at = (this.position >= 0) ? this.where + ":" + this.position : this.where;
		return (this.error ? "error: " : "warning: ") + at + ": " + this.check + ": " + this.message;
	}

}
