package io.refstore.core.journal;

import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Reads a journal file (docs/journal.md) entry by entry, as bytes, holding one line at a
 * time.
 * <p>
 * A last line without its newline is a write still under way, or one a crash cut short:
 * it is not an entry, and is ignored. A complete line that is not an entry (a torn write
 * that a later one was appended to after a crash) is skipped and counted in
 * {@link #skipped()}. Not thread-safe.
 */
public final class JournalReader implements Closeable {

	private static final int FIELDS = 7;

	private final InputStream in;

	private byte[] buf = new byte[64 * 1024];

	private int pos;

	private int limit;

	private boolean eof;

	private long consumed;

	private long skipped;

	/** Reads {@code in}, which the reader closes. */
	public JournalReader(InputStream in) {
		this.in = in;
	}

	/**
	 * Reads the journal file {@code file}.
	 * @return a reader of no entries if there is no such file (nothing was journaled yet)
	 */
	public static JournalReader open(Path file) throws IOException {
		try {
			return new JournalReader(Files.newInputStream(file));
		}
		catch (NoSuchFileException ex) {
			return new JournalReader(InputStream.nullInputStream());
		}
	}

	/**
	 * Reads journal files one after the other, oldest first, as one journal: each up to
	 * its last complete line (a line cut short by a crash would otherwise run into the
	 * next file's first); a missing file counts as empty.
	 */
	public static JournalReader open(List<Path> files) throws IOException {
		List<InputStream> streams = new ArrayList<>();
		try {
			for (Path file : files) {
				long whole = wholeLines(file);
				if (whole > 0) {
					streams.add(new BoundedInputStream(Files.newInputStream(file), whole));
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			for (InputStream stream : streams) {
				stream.close();
			}
			throw ex;
		}
		return new JournalReader(new SequenceInputStream(Collections.enumeration(streams)));
	}

	/** The bytes of {@code file} up to and including its last newline; 0 if none. */
	private static long wholeLines(Path file) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			ByteBuffer block = ByteBuffer.allocate(8192);
			for (long end = channel.size(); end > 0;) {
				long start = Math.max(0, end - block.capacity());
				block.clear().limit((int) (end - start));
				while (block.hasRemaining() && channel.read(block, start + block.position()) >= 0) {
					// until the block is read
				}
				for (int i = block.position() - 1; i >= 0; i--) {
					if (block.get(i) == '\n') {
						return start + i + 1;
					}
				}
				end = start;
			}
			return 0;
		}
		catch (NoSuchFileException ex) {
			return 0;
		}
	}

	/** The first {@code limit} bytes of a stream. */
	private static final class BoundedInputStream extends FilterInputStream {

		private long left;

		BoundedInputStream(InputStream in, long limit) {
			super(in);
			this.left = limit;
		}

		@Override
		public int read() throws IOException {
			if (this.left <= 0) {
				return -1;
			}
			int b = super.read();
			if (b >= 0) {
				this.left--;
			}
			return b;
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			if (this.left <= 0) {
				return -1;
			}
			int n = super.read(b, off, (int) Math.min(len, this.left));
			if (n > 0) {
				this.left -= n;
			}
			return n;
		}

	}

	/**
	 * The next entry.
	 * @return {@code null} after the last complete line
	 */
	public JournalEntry next() throws IOException {
		for (;;) {
			int end = lineEnd();
			if (end < 0) {
				return null;
			}
			int start = this.pos;
			this.pos = end + 1;
			this.consumed += end + 1 - start;
			Optional<JournalEntry> entry = parse(this.buf, start, end);
			if (entry.isPresent()) {
				return entry.get();
			}
			this.skipped++;
		}
	}

	/**
	 * How many complete lines were not entries and were skipped so far.
	 */
	public long skipped() {
		return this.skipped;
	}

	/**
	 * How many bytes of complete lines were read so far: where a later read of the same
	 * file may go on from.
	 */
	public long offset() {
		return this.consumed;
	}

	@Override
	public void close() throws IOException {
		this.in.close();
	}

	/**
	 * The index of the newline ending the next line, reading more as needed.
	 * @return -1 if no complete line is left
	 */
	private int lineEnd() throws IOException {
		int from = this.pos;
		for (;;) {
			for (int i = from; i < this.limit; i++) {
				if (this.buf[i] == '\n') {
					return i;
				}
			}
			if (this.eof) {
				return -1;
			}
			from = this.limit - this.pos;
			fill();
		}
	}

	/** Moves the line begun to the buffer's start and reads more after it. */
	private void fill() throws IOException {
		int kept = this.limit - this.pos;
		if (kept == this.buf.length) {
			this.buf = Arrays.copyOf(this.buf, this.buf.length * 2);
		}
		System.arraycopy(this.buf, this.pos, this.buf, 0, kept);
		this.pos = 0;
		this.limit = kept;
		int n = this.in.read(this.buf, this.limit, this.buf.length - this.limit);
		if (n < 0) {
			this.eof = true;
		}
		else {
			this.limit += n;
		}
	}

	/**
	 * The entry a line holds (without its newline).
	 * @return empty if the line is not one
	 */
	static Optional<JournalEntry> parse(byte[] line, int start, int end) {
		String[] fields = new String[FIELDS];
		int field = 0;
		int from = start;
		for (int i = start; i <= end; i++) {
			if (i == end || line[i] == '\t') {
				if (field == FIELDS) {
					return Optional.empty();
				}
				fields[field++] = new String(line, from, i - from, StandardCharsets.UTF_8);
				from = i + 1;
			}
		}
		if (field != FIELDS) {
			return Optional.empty();
		}
		Instant time = time(fields[1]);
		Optional<WriterKind> writer = WriterKind.of(fields[5]);
		String identity = unescape(fields[6]);
		if (fields[0].isEmpty() || time == null || !isValue(fields[2]) || !isValue(fields[3]) || fields[4].isEmpty()
				|| writer.isEmpty() || identity == null) {
			return Optional.empty();
		}
		return Optional.of(new JournalEntry(fields[0], time, fields[2], fields[3], fields[4], writer.get(), identity));
	}

	/**
	 * {@code <seconds>.<nanoseconds>}, the nanoseconds in nine digits.
	 * @return {@code null} if {@code text} is not such a time
	 */
	private static Instant time(String text) {
		int dot = text.indexOf('.');
		if (dot < 1 || dot > 18 || text.length() - dot - 1 != 9 || !digits(text, 0, dot)
				|| !digits(text, dot + 1, text.length())) {
			return null;
		}
		return Instant.ofEpochSecond(Long.parseLong(text, 0, dot, 10),
				Integer.parseInt(text, dot + 1, text.length(), 10));
	}

	private static boolean digits(String text, int from, int to) {
		for (int i = from; i < to; i++) {
			if (text.charAt(i) < '0' || text.charAt(i) > '9') {
				return false;
			}
		}
		return true;
	}

	/** An object id in hex, or {@code ref:<target>}. */
	private static boolean isValue(String value) {
		if (value.startsWith("ref:")) {
			return value.length() > 4;
		}
		if (value.length() != 40 && value.length() != 64) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The identity field with {@code \\}, {@code \t} and {@code \n} undone.
	 * @return {@code null} for another escape, or a backslash at the end
	 */
	static String unescape(String field) {
		if (field.indexOf('\\') < 0) {
			return field;
		}
		StringBuilder text = new StringBuilder(field.length());
		for (int i = 0; i < field.length(); i++) {
			char c = field.charAt(i);
			if (c != '\\') {
				text.append(c);
				continue;
			}
			if (++i == field.length()) {
				return null;
			}
			switch (field.charAt(i)) {
				case '\\' -> text.append('\\');
				case 't' -> text.append('\t');
				case 'n' -> text.append('\n');
				default -> {
					return null;
				}
			}
		}
		return text.toString();
	}

}
