package io.refstore.core.repo;

/**
 * A repository name given by a user that {@link RepositoryPaths} refuses, because it is malformed or would
 * lead outside the configured roots. The message names the parameter, the value and the reason.
 */
public class InvalidRepositoryNameException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String parameter;

	private final String value;

	private final String reason;

	/**
	 * @param parameter the name of the parameter that carried the value (a job parameter or form field)
	 * @param value the refused value as given, possibly {@code null}
	 * @param reason why it is refused, phrased to follow "refused: "
	 */
	public InvalidRepositoryNameException(String parameter, String value, String reason) {
		super("parameter '" + parameter + "' = " + quote(value) + " is refused: " + reason);
		this.parameter = parameter;
		this.value = value;
		this.reason = reason;
	}

	private static String quote(String value) {
		if (value == null) {
			return "null";
		}
		StringBuilder out = new StringBuilder(value.length() + 2).append('\'');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			// control characters would garble a log line or a page: show them as escapes
			if (c < 0x20 || c == 0x7f) {
				out.append(String.format("\\x%02x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		return out.append('\'').toString();
	}

	/** The parameter that carried the value. */
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
