package io.refstore.core.migrate;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.io.Fsync;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;

/**
 * The reflogs of a staged migration, copied from the source into one file
 * ({@code reflogs}) and read back log by log when the new store is assembled, so that no
 * more than one log is ever in memory.
 *
 * <h2>Format</h2> <pre>
 * "RLG1" u8(raw hash length) log* u8(0)
 * log:   u8(1) text(name) u32(entry count) entry*
 * entry: old-id new-id text(name) text(email) i64(epoch seconds) i32(tz offset) text(message)
 * text:  u32(byte length) UTF-8 bytes
 * </pre> Written to a temporary file, synced and renamed, so the file is whole or absent.
 */
final class StagedReflogs {

	static final String FILE = "reflogs";

	private static final int MAGIC = ('R' << 24) | ('L' << 16) | ('G' << 8) | '1';

	private StagedReflogs() {
	}

	/** What was copied. */
	record Counts(long logs, long entries, long maxEntries) {

	}

	/** Receives the logs in name order. */
	interface LogConsumer {

		void accept(String name, List<ReflogEntry> entries) throws IOException;

	}

	/**
	 * Copies every log of {@code source} into {@code work/reflogs}, durably.
	 * @param also also receives each log as it is copied, or {@code null}
	 */
	static Counts copy(RefStore source, Path work, LogConsumer also) throws IOException {
		Path file = work.resolve(FILE);
		Path temp = work.resolve(FILE + ".tmp");
		long logs = 0;
		long entries = 0;
		long max = 0;
		try (FileOutputStream stream = new FileOutputStream(temp.toFile());
				DataOutputStream out = new DataOutputStream(new BufferedOutputStream(stream, 1 << 16))) {
			out.writeInt(MAGIC);
			out.writeByte(source.hashAlgorithm().rawLength());
			for (String name : source.reflogNames()) {
				List<ReflogEntry> log = source.reflog(name);
				out.writeByte(1);
				writeText(out, name);
				out.writeInt(log.size());
				for (ReflogEntry entry : log) {
					out.write(entry.oldId().toRaw());
					out.write(entry.newId().toRaw());
					writeText(out, entry.who().name());
					writeText(out, entry.who().email());
					out.writeLong(entry.who().epochSeconds());
					out.writeInt(entry.who().tzOffset());
					writeText(out, entry.message());
				}
				if (also != null) {
					also.accept(name, log);
				}
				logs++;
				entries += log.size();
				max = Math.max(max, log.size());
			}
			out.writeByte(0);
			out.flush();
			Fsync.force(stream.getChannel());
		}
		DurableFiles.publish(temp, file);
		return new Counts(logs, entries, max);
	}

	/** Hands every staged log to {@code consumer}, in the order copied. */
	static void forEach(Path work, HashAlgorithm hash, LogConsumer consumer) throws IOException {
		Path file = work.resolve(FILE);
		try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
			if (in.readInt() != MAGIC || in.readUnsignedByte() != hash.rawLength()) {
				throw new MigrationException("staged reflogs '" + file + "' are damaged or of another hash");
			}
			byte[] raw = new byte[hash.rawLength()];
			while (in.readUnsignedByte() == 1) {
				String name = readText(in);
				int count = in.readInt();
				List<ReflogEntry> log = new ArrayList<>(Math.min(count, 1 << 16));
				for (int i = 0; i < count; i++) {
					in.readFully(raw);
					ObjectId oldId = ObjectId.fromRaw(hash, raw, 0);
					in.readFully(raw);
					ObjectId newId = ObjectId.fromRaw(hash, raw, 0);
					PersonIdent who = new PersonIdent(readText(in), readText(in), in.readLong(), in.readInt());
					log.add(new ReflogEntry(oldId, newId, who, readText(in)));
				}
				consumer.accept(name, log);
			}
		}
		catch (EOFException ex) {
			throw new MigrationException("staged reflogs '" + file + "' are cut short");
		}
	}

	private static void writeText(DataOutputStream out, String text) throws IOException {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		out.writeInt(bytes.length);
		out.write(bytes);
	}

	private static String readText(DataInputStream in) throws IOException {
		int length = in.readInt();
		if (length < 0 || length > (1 << 26)) {
			throw new MigrationException("staged reflogs are damaged: a text of " + length + " bytes");
		}
		byte[] bytes = new byte[length];
		in.readFully(bytes);
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
