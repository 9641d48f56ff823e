package io.refstore.core.files;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.io.FileBytes;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.ReflogEntry;

/**
 * Reflog files under {@code logs/}: one line per update, oldest first,
 * {@code <old> SP <new> SP <name> SP <<email>> SP <seconds> SP <tz> [TAB <message>] LF}.
 */
final class FilesReflog {

	private FilesReflog() {
	}

	/** The line git appends for {@code entry} (no TAB when the message is empty). */
	static byte[] format(ReflogEntry entry) {
		StringBuilder line = new StringBuilder(160);
		line.append(entry.oldId().name()).append(' ').append(entry.newId().name()).append(' ');
		PersonIdent who = entry.who();
		line.append(who.name()).append(" <").append(who.email()).append("> ").append(who.epochSeconds()).append(' ');
		line.append(who.tzText());
		String message = ReflogEntry.normalizeMessage(entry.message());
		if (!message.isEmpty()) {
			line.append('\t').append(message);
		}
		line.append('\n');
		return line.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Appends one line to {@code file}, creating it (and its directories) if
	 * {@code create} is set.
	 * @return whether the line was written (false: no log and {@code create} not set)
	 */
	static boolean append(Path file, ReflogEntry entry, boolean create) throws IOException {
		if (!create && !Files.isRegularFile(file)) {
			return false;
		}
		append(file, List.of(entry));
		return true;
	}

	/**
	 * Appends a line per entry to {@code file} in one write, creating it and its
	 * directories if needed.
	 */
	static void append(Path file, List<ReflogEntry> entries) throws IOException {
		FilesRefStore.createParentDirectories(file);
		ByteArrayOutputStream lines = new ByteArrayOutputStream(160 * entries.size());
		for (ReflogEntry entry : entries) {
			lines.writeBytes(format(entry));
		}
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
				StandardOpenOption.WRITE)) {
			ByteBuffer bytes = ByteBuffer.wrap(lines.toByteArray());
			while (bytes.hasRemaining()) {
				channel.write(bytes);
			}
		}
	}

	/**
	 * Reads every well-formed entry of {@code file}, oldest first; malformed lines are
	 * skipped as git skips them. A missing file has no entries.
	 */
	static List<ReflogEntry> read(Path file, HashAlgorithm hash) throws IOException {
		byte[] buf;
		try {
			buf = FileBytes.read(file);
		}
		catch (NoSuchFileException | NotDirectoryException ex) {
			return List.of();
		}
		List<ReflogEntry> entries = new ArrayList<>();
		int pos = 0;
		while (pos < buf.length) {
			int eol = PackedRefs.indexOf(buf, pos, (byte) '\n');
			if (eol == buf.length) {
				break;
			}
			ReflogEntry entry = parseLine(buf, pos, eol, hash);
			if (entry != null) {
				entries.add(entry);
			}
			pos = eol + 1;
		}
		return entries;
	}

	private static ReflogEntry parseLine(byte[] buf, int start, int eol, HashAlgorithm hash) {
		int hexLength = hash.hexLength();
		int identStart = start + 2 * hexLength + 2;
		if (identStart > eol || buf[start + hexLength] != ' ' || buf[identStart - 1] != ' ') {
			return null;
		}
		ObjectId oldId = ObjectId.tryParseHex(hash, buf, start);
		ObjectId newId = ObjectId.tryParseHex(hash, buf, start + hexLength + 1);
		int tab = PackedRefs.indexOf(buf, identStart, (byte) '\t');
		int identEnd = Math.min(tab, eol);
		String ident = new String(buf, identStart, identEnd - identStart, StandardCharsets.UTF_8);
		int lt = ident.indexOf('<');
		int gt = ident.lastIndexOf('>');
		if (oldId == null || newId == null || lt < 0 || gt < lt || gt + 1 >= ident.length()
				|| ident.charAt(gt + 1) != ' ') {
			return null;
		}
		String[] when = ident.substring(gt + 2).split(" ");
		if (when.length != 2 || !when[0].matches("[0-9]+") || !when[1].matches("[+-][0-9]{4}")) {
			return null;
		}
		String name = ident.substring(0, lt).strip();
		String email = ident.substring(lt + 1, gt);
		PersonIdent who = new PersonIdent(name, email, Long.parseLong(when[0]), PersonIdent.parseTz(when[1]));
		String message = (tab < eol) ? new String(buf, tab + 1, eol - tab - 1, StandardCharsets.UTF_8) : "";
		return new ReflogEntry(oldId, newId, who, message);
	}

}
