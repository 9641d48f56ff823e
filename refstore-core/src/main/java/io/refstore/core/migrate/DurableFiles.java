package io.refstore.core.migrate;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;

import io.refstore.core.io.Fsync;

/**
 * Files of a staged migration that must survive a crash once written: content synced
 * before the rename that publishes it, and the directory synced after, so a reader after
 * a power loss finds the whole file or none.
 */
final class DurableFiles {

	private DurableFiles() {
	}

	/** Writes {@code content} to {@code file} durably, replacing it. */
	static void write(Path file, byte[] content) throws IOException {
		write(file, content, content.length);
	}

	/**
	 * Writes the first {@code length} bytes of {@code content} to {@code file} durably,
	 * replacing it.
	 */
	static void write(Path file, byte[] content, int length) throws IOException {
		Fsync.writeAtomically(file, content, length, file.resolveSibling(file.getFileName() + ".tmp"));
	}

	/**
	 * Renames a synced {@code temp} to {@code file} and syncs the directory; a failed
	 * sync is an error.
	 */
	static void publish(Path temp, Path file) throws IOException {
		Fsync.rename(temp, file);
	}

	/** Writes properties durably. */
	static void writeProperties(Path file, Properties properties) throws IOException {
		StringWriter text = new StringWriter();
		properties.store(text, null);
		write(file, text.toString().getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Reads properties, or returns {@code null} if the file does not exist. A symbolic
	 * link is not followed: it is refused.
	 */
	static Properties readProperties(Path file) throws IOException {
		String text;
		try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
			text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		Properties properties = new Properties();
		properties.load(new StringReader(text));
		return properties;
	}

}
