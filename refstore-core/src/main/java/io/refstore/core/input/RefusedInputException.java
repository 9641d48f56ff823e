package io.refstore.core.input;

/**
 * A value a user gave that is refused before anything changed: the input that carried it
 * (a job parameter, a request field, a part of a selection), the value as given and the
 * reason in words. Each source of refusals has its own subclass, so that handlers tell
 * them apart by type.
 */
public abstract class RefusedInputException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String parameter;

	private final String value;

	private final String reason;

	/**
	 * With the message {@code parameter '<parameter>' = '<value>' is refused: <reason>}
	 * and no cause.
	 */
	protected RefusedInputException(String parameter, String value, String reason) {
		this(parameter, value, reason, (Throwable) null);
	}

	/**
	 * With the message {@code parameter '<parameter>' = '<value>' is refused: <reason>},
	 * the value printable and cut to an excerpt ({@link Printable#excerpt}).
	 * @param parameter the name of the input that carried the value
	 * @param value the refused value as given, possibly {@code null}
	 * @param reason why it is refused, phrased to follow "refused: "
	 * @param cause what the refusal was found by, possibly {@code null}
	 */
	protected RefusedInputException(String parameter, String value, String reason, Throwable cause) {
		this("parameter '" + parameter + "' = " + ((value == null) ? "null" : "'" + Printable.excerpt(value) + "'")
				+ " is refused: " + reason, parameter, value, reason);
		if (cause != null) {
			initCause(cause);
		}
	}

	/**
	 * With a message in the subclass's own words (which must name the parameter, the
	 * value and the reason).
	 */
	protected RefusedInputException(String message, String parameter, String value, String reason) {
		super(message);
		this.parameter = parameter;
		this.value = value;
		this.reason = reason;
	}

	/** The name of the input that carried the value. */
	public String parameter() {
		return this.parameter;
	}

	/** The refused value as given ({@code null} if it was missing). */
	public String value() {
		return this.value;
	}

	/** Why the value is refused, without the parameter and value. */
	public String reason() {
		return this.reason;
	}

}
