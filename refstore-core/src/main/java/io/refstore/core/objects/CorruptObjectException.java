package io.refstore.core.objects;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An object, pack or pack index that cannot be read as git writes it. The message names
 * the file (or object) and, where known, the byte offset.
 */
public class CorruptObjectException extends IOException {

	private static final long serialVersionUID = 1L;

	private final Path file;

	/**
	 * @param file the damaged file, or {@code null} if the damage is in an object's
	 * content
	 * @param message what is wrong, naming the object id or offset
	 */
	public CorruptObjectException(Path file, String message) {
		super((file != null) ? file + ": " + message : message);
		this.file = file;
	}

	/** The damaged file, or {@code null} if the damage is in an object's content. */
	public Path file() {
		return this.file;
	}

}
