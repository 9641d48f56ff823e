package io.refstore.core.migrate;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

import io.refstore.core.io.FileBytes;

/**
 * Files of a staged migration that must survive a crash once written: content synced before the rename that
 * publishes it, and the directory synced after, so a reader after a power loss finds the whole file or none.
 */
final class DurableFiles {

	private DurableFiles() {
	}

	/** Writes {@code content} to {@code file} durably, replacing it. */
	static void write(Path file, byte[] content) throws IOException {
		write(file, content, content.length);
	}

	/** Writes the first {@code length} bytes of {@code content} to {@code file} durably, replacing it. */
	static void write(Path file, byte[] content, int length) throws IOException {
		Path temp = file.resolveSibling(file.getFileName() + ".tmp");
		try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			FileBytes.write(channel, content, length);
			channel.force(true);
		}
		publish(temp, file);
	}

	/** Renames a synced {@code temp} to {@code file} and syncs the directory. */
	static void publish(Path temp, Path file) throws IOException {
		Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		syncDirectory(file.getParent());
	}

	private static void syncDirectory(Path dir) {
		try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
			channel.force(true);
		}
		catch (IOException ex) {
			// some platforms cannot open a directory; the rename is then as durable as they make it
		}
	}

	/** Writes properties durably. */
	static void writeProperties(Path file, Properties properties) throws IOException {
		StringWriter text = new StringWriter();
		properties.store(text, null);
		write(file, text.toString().getBytes(StandardCharsets.UTF_8));
	}

	/** Reads properties, or returns {@code null} if the file does not exist. */
	static Properties readProperties(Path file) throws IOException {
		String text;
		try {
			text = Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		Properties properties = new Properties();
		properties.load(new StringReader(text));
		return properties;
	}

}
