package io.refstore.core.migrate;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;

import io.refstore.core.io.FileMoves;
import io.refstore.core.io.Fsync;
import io.refstore.core.ref.RefFormat;

/**
 * The record a migration or rollback leaves just before it switches the configuration:
 * where it comes from, where it goes, where the old store is to be kept, and for a
 * rollback which backup it restores. Found by a later run, it says how to finish, and
 * whose swap it finishes: a rollback must not take another run's swap for its own.
 *
 * @param from the old format
 * @param to the new format
 * @param backup where the old store goes
 * @param restores the backup a rollback restores, absolute, or {@code null} for a
 * migration (and for a journal that an earlier version wrote, which did not say)
 */
record Journal(RefFormat from, RefFormat to, Path backup, Path restores) {

	static final String FILE = "journal";

	/**
	 * Writes the journal atomically and durably into {@code work}: forced with its
	 * directory and the git directory naming {@code work}, so that no power cut after the
	 * configuration switch finds a switched repository without the journal that says how
	 * to finish.
	 */
	void write(Path work) throws IOException {
		String text = "from=" + this.from.configName() + "\nto=" + this.to.configName() + "\nbackup=" + this.backup
				+ "\n" + ((this.restores != null) ? "restores=" + this.restores + "\n" : "");
		FileMoves.writeAtomically(work.resolve(FILE), text.getBytes(StandardCharsets.UTF_8));
		Fsync.parentOf(work);
	}

	/**
	 * Whether this is the journal of a rollback of {@code backup} (as the rollback was
	 * given it, resolved to an absolute path).
	 */
	boolean restores(Path backup) {
		return this.restores != null && this.restores.equals(absolute(backup));
	}

	/** {@code path} absolute and normalized, as a journal records a restored backup. */
	static Path absolute(Path path) {
		return path.toAbsolutePath().normalize();
	}

	/** Removes the journal from {@code work}: the switch it announced did not happen. */
	static void delete(Path work) throws IOException {
		Files.deleteIfExists(work.resolve(FILE));
	}

	/**
	 * The journal in {@code work}, or {@code null} if there is none (or it is unreadable:
	 * start over).
	 */
	static Journal read(Path work) throws IOException {
		String text;
		try {
			text = Files.readString(work.resolve(FILE), StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		Properties properties = new Properties();
		properties.load(new StringReader(text));
		try {
			String restores = properties.getProperty("restores");
			return new Journal(RefFormat.fromConfigName(properties.getProperty("from")),
					RefFormat.fromConfigName(properties.getProperty("to")), Path.of(properties.getProperty("backup")),
					(restores != null) ? Path.of(restores) : null);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

}
