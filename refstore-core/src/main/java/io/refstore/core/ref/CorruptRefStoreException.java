package io.refstore.core.ref;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A ref store file that cannot be read as its format requires. The message names the file
 * and, where known, the line or byte offset.
 */
public class CorruptRefStoreException extends IOException {

	private static final long serialVersionUID = 1L;

	private final Path file;

	private final long position;

	private String gitMessage;

	/**
	 * @param file the damaged file
	 * @param position line number (text formats) or byte offset (binary formats), or -1
	 * if unknown
	 * @param message what is wrong, already naming the position's kind ("line 3", "offset
	 * 0x1c")
	 */
	public CorruptRefStoreException(Path file, long position, String message) {
		super(file + ": " + message);
		this.file = file;
		this.position = position;
	}

	/** The damaged file. */
	public Path file() {
		return this.file;
	}

	/** The line number or byte offset of the damage, or -1 if unknown. */
	public long position() {
		return this.position;
	}

	/**
	 * Gives the problem git's words too, for the command that must print what git prints.
	 * @return this exception
	 */
	public CorruptRefStoreException withGitMessage(String message) {
		this.gitMessage = message;
		return this;
	}

	/** The problem in git's words, or {@code null} if git has none of its own. */
	public String gitMessage() {
		return this.gitMessage;
	}

}
