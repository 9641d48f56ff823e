package io.refstore.core.repo;

import java.nio.file.Path;
import java.util.function.Function;

/**
 * A config value that is not the number a setting needs, in git's words:
 * {@code bad numeric config value '<value>' for '<name>' in file <file>: invalid unit}
 * (or {@code out of range}). The file is named as the caller chooses
 * ({@link #message(Function)}): git names it as it opened it, {@code .git/config} from a
 * working tree.
 */
public class ConfigValueException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String value;

	private final String name;

	private final transient Path file;

	private final boolean outOfRange;

	ConfigValueException(String value, String name, Path file, boolean outOfRange) {
		super();
		this.value = (value != null) ? value : "";
		this.name = name;
		this.file = file;
		this.outOfRange = outOfRange;
	}

	/** The config file the value is in, or {@code null} (the command line). */
	public Path file() {
		return this.file;
	}

	@Override
	public String getMessage() {
		return message(Path::toString);
	}

	/** git's message, naming the file as {@code fileName} says. */
	public String message(Function<Path, String> fileName) {
		String in = (this.file != null) ? " in file " + fileName.apply(this.file) : "";
		return "bad numeric config value '" + this.value + "' for '" + this.name + "'" + in + ": "
				+ (this.outOfRange ? "out of range" : "invalid unit");
	}

}
