package io.refstore.batch.support;

/**
 * A job parameter refused before anything started: missing, malformed, out of range, or naming something that
 * does not exist. The message names the parameter, the value and the reason.
 */
public class InvalidJobParameterException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String parameter;

	private final String value;

	private final String reason;

	/**
	 * @param parameter the parameter's key ({@link JobParameterNames})
	 * @param value the refused value, possibly {@code null}
	 * @param reason why, phrased to follow "refused: "
	 */
	public InvalidJobParameterException(String parameter, String value, String reason) {
		super("parameter '" + parameter + "' = " + ((value == null) ? "null" : "'" + value + "'") + " is refused: "
				+ reason);
		this.parameter = parameter;
		this.value = value;
		this.reason = reason;
	}

	/** The parameter's key. */
	public String parameter() {
		return this.parameter;
	}

	/** The refused value. */
	public String value() {
		return this.value;
	}

	/** Why the value is refused, phrased to follow "refused: ". */
	public String reason() {
		return this.reason;
	}

}
