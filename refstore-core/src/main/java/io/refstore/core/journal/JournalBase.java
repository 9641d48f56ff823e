package io.refstore.core.journal;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.refstore.core.io.Fsync;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;

/**
 * The refs a repository held when its journal began: {@code refstore/journal-base},
 * beside the journal, written once when the hook is first installed. The journal records
 * changes; the base is the state they start from, which a point-in-time restore needs
 * where git's report of a change does not say what was there before (a creation and an
 * update that named no old value both report zeros).
 *
 * <h2>Format, version 1</h2> UTF-8 text, lines ending in {@code LF}. The first line is
 * {@code refstore-journal-base 1 <seconds>.<nanoseconds>}: when the listing began (the
 * hook was already installed, so every change after that moment is in the journal). Then
 * one line per ref, in the store's order: {@code <value> <name>}, the value an object id
 * in hex or {@code ref:<target>} for a symbolic ref. The file is written to a temporary
 * name, synced and renamed: it is whole or absent.
 */
public final class JournalBase {

	/** The file's name, in the journal's directory. */
	public static final String FILE = "journal-base";

	private static final String MAGIC = "refstore-journal-base 1 ";

	private final Path file;

	private final Instant time;

	private JournalBase(Path file, Instant time) {
		this.file = file;
		this.time = time;
	}

	/** Where the base of the repository whose common git directory is this lies. */
	public static Path file(Path commonDir) {
		return JournalHook.journalFile(commonDir).resolveSibling(FILE);
	}

	/**
	 * Writes the base from {@code store} unless the repository has one.
	 * @param commonDir the repository's common git directory
	 * @return whether it was written
	 */
	public static boolean writeIfAbsent(Path commonDir, RefStore store) throws IOException {
		Path file = file(commonDir);
		if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
			return false;
		}
		Fsync.createDirectories(file.getParent());
		Path temp = file.resolveSibling(FILE + ".tmp");
		Instant now = Instant.now();
		int raw = store.hashAlgorithm().rawLength();
		byte[] hex = new byte[raw * 2];
		try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.TRUNCATE_EXISTING);
				OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
				RefCursor refs = store.refs(RefQuery.ALL)) {
			out.write((MAGIC + now.getEpochSecond() + "." + String.format("%09d", now.getNano()) + "\n")
				.getBytes(StandardCharsets.US_ASCII));
			while (refs.next()) {
				if (refs.isSymbolic()) {
					out.write("ref:".getBytes(StandardCharsets.US_ASCII));
					out.write(refs.targetBuffer(), 0, refs.targetLength());
				}
				else {
					ObjectId.encodeHex(refs.idBuffer(), 0, raw, hex, 0);
					out.write(hex);
				}
				out.write(' ');
				out.write(refs.nameBuffer(), 0, refs.nameLength());
				out.write('\n');
			}
			out.flush();
			Fsync.force(channel);
		}
		Fsync.rename(temp, file);
		return true;
	}

	/** The repository's base, or empty if it has none. */
	public static Optional<JournalBase> read(Path commonDir) throws IOException {
		Path file = file(commonDir);
		try (BufferedReader reader = reader(file)) {
			String first = reader.readLine();
			if (first == null || !first.startsWith(MAGIC)) {
				throw new IOException("'" + file + "' is not a journal base this refstore reads");
			}
			String[] time = first.substring(MAGIC.length()).split("\\.", 2);
			try {
				return Optional
					.of(new JournalBase(file, Instant.ofEpochSecond(Long.parseLong(time[0]), Long.parseLong(time[1]))));
			}
			catch (RuntimeException ex) {
				throw new IOException("'" + file + "' has no time in its first line", ex);
			}
		}
		catch (NoSuchFileException ex) {
			return Optional.empty();
		}
	}

	/** When the listing began: the base holds the refs as they were then. */
	public Instant time() {
		return this.time;
	}

	/**
	 * The values the base holds of {@code names}, read in one pass: an object id in hex,
	 * or {@code ref:<target>}; a name it lacks did not exist.
	 */
	public Map<String, String> values(Set<String> names) throws IOException {
		Map<String, String> values = new HashMap<>();
		if (names.isEmpty()) {
			return values;
		}
		try (BufferedReader reader = reader(this.file)) {
			reader.readLine();
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				int space = line.indexOf(' ');
				if (space > 0) {
					String name = line.substring(space + 1);
					if (names.contains(name)) {
						values.put(name, line.substring(0, space));
					}
				}
			}
		}
		return values;
	}

	private static BufferedReader reader(Path file) throws IOException {
		InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS);
		return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
	}

}
