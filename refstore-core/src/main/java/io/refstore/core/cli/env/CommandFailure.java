package io.refstore.core.cli.env;

/**
 * Ends a command with an exit code and, usually, a message for standard error, the way
 * git's {@code die()}, {@code error()} and {@code usage_with_options()} end a builtin.
 * Thrown anywhere below {@code Refstore.run}; never escapes it.
 */
public final class CommandFailure extends Exception {

	private static final long serialVersionUID = 1L;

	/** git's exit code for {@code die()}. */
	public static final int FATAL = 128;

	/** git's exit code for a usage error. */
	public static final int USAGE = 129;

	private final int exitCode;

	private final String text;

	private final boolean usageOnStdout;

	private CommandFailure(int exitCode, String text, boolean usageOnStdout) {
		super(text, null, false, false);
		this.exitCode = exitCode;
		this.text = text;
		this.usageOnStdout = usageOnStdout;
	}

	/** {@code fatal: <message>}, exit 128. */
	public static CommandFailure fatal(String message) {
		return new CommandFailure(FATAL, "fatal: " + sanitized(message) + "\n", false);
	}

	/**
	 * {@code error: <line>} for each of {@code errors}, then {@code fatal: <message>},
	 * exit 128: git's account of a failure found deep down and given up on above.
	 */
	public static CommandFailure fatal(String message, String... errors) {
		StringBuilder text = new StringBuilder();
		for (String error : errors) {
			text.append("error: ").append(sanitized(error)).append('\n');
		}
		text.append("fatal: ").append(sanitized(message)).append('\n');
		return new CommandFailure(FATAL, text.toString(), false);
	}

	/** {@code error: <message>} with the given exit code. */
	public static CommandFailure error(String message, int exitCode) {
		return new CommandFailure(exitCode, "error: " + sanitized(message) + "\n", false);
	}

	/**
	 * The message as git prints it: every control character but tab and newline (DEL
	 * included) becomes {@code ?}, so that a name from the command line cannot drive the
	 * terminal.
	 */
	static String sanitized(String message) {
		char[] chars = null;
		for (int i = 0; i < message.length(); i++) {
			char c = message.charAt(i);
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
				chars = (chars != null) ? chars : message.toCharArray();
				chars[i] = '?';
			}
		}
		return (chars != null) ? new String(chars) : message;
	}

	/** An exit code without any message, as {@code --quiet} asks. */
	public static CommandFailure silent(int exitCode) {
		return new CommandFailure(exitCode, "", false);
	}

	/**
	 * A usage error, exit 129.
	 * @param error the {@code error:} line naming the culprit, or {@code null} for the
	 * usage text alone
	 * @param usage the command's usage text, ending in a newline
	 */
	public static CommandFailure usage(String error, String usage) {
		String text = (error != null) ? "error: " + error + "\n" + usage : usage;
		return new CommandFailure(USAGE, text, false);
	}

	/** {@code -h}: the usage text on standard output, exit 129 as git does. */
	public static CommandFailure help(String usage) {
		return new CommandFailure(USAGE, usage, true);
	}

	/** The process exit code. */
	public int exitCode() {
		return this.exitCode;
	}

	/** What to print, possibly empty; each line ends in a newline. */
	public String text() {
		return this.text;
	}

	/** Whether {@link #text()} goes to standard output instead of standard error. */
	public boolean toStdout() {
		return this.usageOnStdout;
	}

}
