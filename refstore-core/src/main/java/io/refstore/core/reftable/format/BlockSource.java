package io.refstore.core.reftable.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Random read access to the bytes of one table: an in-memory array, or a file (the file
 * storage's source, outside this package). A table is immutable once written, so
 * implementations may hand out views of shared memory.
 *
 * <p>
 * Implementations are thread-safe: several cursors may read at once.
 */
public interface BlockSource extends Closeable {

	/**
	 * The name used in error messages (the file, or a made-up path for in-memory tables).
	 */
	Path name();

	/** The total size in bytes. */
	long size();

	/**
	 * Reads bytes.
	 * @param offset where to start, {@code 0 <= offset <= size()}
	 * @param length how many bytes are wanted
	 * @return a buffer from position 0 holding {@code min(length, size() - offset)}
	 * bytes; the caller must not write to it
	 * @throws IOException if the bytes cannot be read
	 */
	ByteBuffer read(long offset, int length) throws IOException;

	/**
	 * A source over an array, which is not copied (the caller must not change it).
	 * @param data the table bytes
	 * @param name the name for error messages
	 */
	static BlockSource of(byte[] data, Path name) {
		return new ByteArrayBlockSource(data, name);
	}

	/** A source over an array, named {@code (memory)} in error messages. */
	static BlockSource of(byte[] data) {
		return of(data, Path.of("(memory)"));
	}

}
