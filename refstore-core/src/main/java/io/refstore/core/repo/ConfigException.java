package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A git config file that cannot be parsed, or a config value that the caller needs and
 * that is malformed. The message names the file and the line.
 */
public class ConfigException extends IOException {

	private static final long serialVersionUID = 1L;

	private final Path file;

	private final int line;

	/**
	 * @param file the config file (may be {@code null} for text that came from no file)
	 * @param line the 1-based line number, or 0 if unknown
	 * @param message what is wrong
	 */
	public ConfigException(Path file, int line, String message) {
		super(message + " (" + where(file, line) + ")");
		this.file = file;
		this.line = line;
	}

	static String where(Path file, int line) {
		String name = (file != null) ? "file " + file : "config text";
		return (line > 0) ? name + ", line " + line : name;
	}

	/** The config file, or {@code null} for text that came from no file. */
	public Path file() {
		return this.file;
	}

	/** The 1-based line number of the problem, or 0 if unknown. */
	public int line() {
		return this.line;
	}

}
