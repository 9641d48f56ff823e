package io.refstore.core.delete;

import io.refstore.core.input.Printable;
import io.refstore.core.input.RefusedInputException;

/**
 * A part of a {@link RefSelection} that cannot be used: a malformed glob, an invalid ref
 * name, a prefix outside {@code refs/}. Names the parameter, the value and what is wrong
 * with it; nothing has been changed.
 */
public class InvalidSelectionException extends RefusedInputException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param parameter what the value was given as, such as {@code glob},
	 * {@code exclude}, {@code prefix} or {@code name} (a caller may use its own word,
	 * such as {@code stdin line 3})
	 * @param value the offending value, quoted in the message whole up to
	 * {@value Printable#EXCERPT} characters and as its excerpt beyond
	 * @param problem what is wrong with it
	 */
	public InvalidSelectionException(String parameter, String value, String problem) {
		super(parameter + " '"
				+ ((value != null && value.length() > Printable.EXCERPT) ? Printable.excerpt(value) : value) + "': "
				+ problem, parameter, value, problem);
	}

	/**
	 * A ref name that breaks {@code rule}
	 * ({@link io.refstore.core.ref.RefName#checkWritable}), as the cause, so that a
	 * caller can tell the rule apart from the text.
	 */
	public InvalidSelectionException(String parameter, io.refstore.core.ref.InvalidRefNameException cause) {
		this(parameter, io.refstore.core.ref.RefName.printable(cause.refName()),
				"not a valid ref name: " + cause.rule().description());
		initCause(cause);
	}

	/** What is wrong with the value: its {@link #reason()}. */
	public String problem() {
		return reason();
	}

}
