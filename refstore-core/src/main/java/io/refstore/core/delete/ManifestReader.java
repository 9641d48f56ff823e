package io.refstore.core.delete;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.delete.Manifest.ChunkState;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.repo.RepositoryId;

/**
 * Reads a {@link Manifest} one chunk at a time, so that memory holds one chunk, never the
 * whole deletion. Every line is checked; anything unexpected is refused with the file,
 * line number and what is wrong. Not thread-safe.
 */
final class ManifestReader implements Closeable {

	/** A ref of the manifest with its reflog, oldest entry first. */
	record SavedRef(Ref ref, List<ReflogEntry> log) {
	}

	/**
	 * One chunk as the manifest records it.
	 *
	 * @param number the chunk's number, from 1
	 * @param refs its refs, in the order they were written
	 * @param state what its last line says
	 * @param outcome the failure message of a failed or in-doubt chunk, else {@code null}
	 */
	record Chunk(int number, List<SavedRef> refs, ChunkState state, String outcome) {
	}

	private final Path path;

	private final InputStream in;

	private HashAlgorithm hash;

	private RepositoryId repositoryId;

	private int lineNumber;

	private String pushedBack;

	/** Bytes read and not yet returned as lines: {@code [position, limit)}. */
	private byte[] buffer = new byte[1 << 16];

	private int position;

	private int limit;

	private int lastChunk;

	private boolean done;

	private ManifestReader(Path path, InputStream in) {
		this.path = path;
		this.in = in;
	}

	/**
	 * Opens a manifest and reads its header. A symbolic link is not followed: it is
	 * refused.
	 * @throws IOException if it cannot be read, is a symbolic link, is not a manifest, or
	 * has another version
	 */
	static ManifestReader open(Path path) throws IOException {
		ManifestReader reader = new ManifestReader(path, Files.newInputStream(path, LinkOption.NOFOLLOW_LINKS));
		try {
			reader.readHeader();
			return reader;
		}
		catch (IOException | RuntimeException ex) {
			reader.close();
			throw ex;
		}
	}

	/** The object hash of the manifest's ids. */
	HashAlgorithm hash() {
		return this.hash;
	}

	/**
	 * The identity of the repository the manifest was written in, or {@code null} if it
	 * does not record one (written before identities were recorded).
	 */
	RepositoryId repositoryId() {
		return this.repositoryId;
	}

	/**
	 * Whether the run that wrote the manifest ended without a failure (its {@code done}
	 * line was read).
	 */
	boolean done() {
		return this.done;
	}

	private void readHeader() throws IOException {
		String first = nextLine();
		String[] magic = (first != null) ? first.split(" ", -1) : new String[0];
		if (magic.length != 2 || !magic[0].equals(Manifest.MAGIC)) {
			throw bad("not a refstore deletion manifest (it must start with '" + Manifest.MAGIC + " " + Manifest.VERSION
					+ "')");
		}
		if (!magic[1].equals(String.valueOf(Manifest.VERSION))) {
			throw bad("manifest version " + magic[1] + " is not supported (this refstore reads version "
					+ Manifest.VERSION + ")");
		}
		for (String line = nextLine(); line != null; line = nextLine()) {
			String[] fields = line.split(" ", -1);
			switch (fields[0]) {
				case "hash" -> this.hash = hashOf(fields);
				case "repository" -> this.repositoryId = (fields.length > 2)
						? RepositoryId.parse(fields[2]).orElseThrow(() -> bad("bad repository id '" + fields[2] + "'"))
						: null;
				case "format", "created", "select" -> {
					// informative only
				}
				default -> {
					this.pushedBack = line;
					if (this.hash == null) {
						throw bad("the 'hash' line is missing before '" + fields[0] + "'");
					}
					return;
				}
			}
		}
		if (this.hash == null) {
			throw bad("the 'hash' line is missing");
		}
	}

	private HashAlgorithm hashOf(String[] fields) throws IOException {
		try {
			fieldCount(fields, 2);
			return HashAlgorithm.fromConfigName(fields[1]);
		}
		catch (IllegalArgumentException ex) {
			throw bad("unknown hash '" + fields[fields.length - 1] + "'");
		}
	}

	/**
	 * Reads the next chunk.
	 * @return the chunk, or {@code null} after the last one
	 * @throws IOException if the manifest cannot be read or a line is malformed
	 */
	Chunk next() throws IOException {
		String line = nextLine();
		if (line == null) {
			return null;
		}
		String[] fields = line.split(" ", -1);
		if (fields[0].equals("done")) {
			fieldCount(fields, 3);
			this.done = true;
			if (nextLine() != null) {
				throw bad("nothing may follow the 'done' line");
			}
			return null;
		}
		if (!fields[0].equals("chunk") || fields.length != 2) {
			throw bad("expected 'chunk <n>' or 'done', found '" + fields[0] + "'");
		}
		int number = number(fields[1]);
		if (number != this.lastChunk + 1) {
			throw bad("chunk " + number + " follows chunk " + this.lastChunk);
		}
		this.lastChunk = number;
		return readChunk(number);
	}

	private Chunk readChunk(int number) throws IOException {
		List<SavedRef> refs = new ArrayList<>();
		ChunkState state = ChunkState.INCOMPLETE;
		String outcome = null;
		for (String line = nextLine(); line != null; line = nextLine()) {
			String[] fields = line.split(" ", -1);
			String keyword = fields[0];
			if (keyword.equals("chunk") || keyword.equals("done")) {
				this.pushedBack = line;
				break;
			}
			boolean body = keyword.equals("ref") || keyword.equals("symref") || keyword.equals("log")
					|| keyword.equals("ready");
			if (body != (state == ChunkState.INCOMPLETE) || (!body && outcome != null)) {
				throw bad("'" + keyword + "' is out of place in chunk " + number);
			}
			switch (keyword) {
				case "ref", "symref" -> refs.add(new SavedRef(ref(fields), new ArrayList<>()));
				case "log" -> {
					if (refs.isEmpty()) {
						throw bad("a 'log' line must follow its ref");
					}
					refs.get(refs.size() - 1).log().add(logEntry(fields));
				}
				case "ready" -> {
					fieldCount(fields, 3);
					if (number(fields[1]) != number || number(fields[2]) != refs.size()) {
						throw bad("'ready' does not match chunk " + number + " of " + refs.size() + " refs");
					}
					state = ChunkState.IN_DOUBT;
				}
				case "committed", "failed", "in-doubt" -> {
					fieldCount(fields, keyword.equals("committed") ? 2 : keyword.equals("failed") ? 5 : 3);
					if (number(fields[1]) != number) {
						throw bad("'" + keyword + "' does not name chunk " + number);
					}
					state = keyword.equals("committed") ? ChunkState.COMMITTED
							: keyword.equals("failed") ? ChunkState.FAILED : ChunkState.IN_DOUBT;
					outcome = keyword.equals("committed") ? "" : text(fields[fields.length - 1]);
				}
				default -> throw bad("unknown record '" + keyword + "'");
			}
		}
		return new Chunk(number, refs, state, (outcome == null || outcome.isEmpty()) ? null : outcome);
	}

	private Ref ref(String[] fields) throws IOException {
		fieldCount(fields, fields[0].equals("ref") ? 4 : 3);
		String name = refName(fields[1], true);
		if (fields[0].equals("symref")) {
			return new SymbolicRef(name, refName(fields[2], false));
		}
		ObjectId id = id(fields[2]);
		ObjectId peeled = fields[3].equals("-") ? null : id(fields[3]);
		return new DirectRef(name, id, peeled);
	}

	private ReflogEntry logEntry(String[] fields) throws IOException {
		fieldCount(fields, 8);
		long epoch;
		int tz;
		try {
			epoch = Long.parseLong(fields[3]);
			tz = PersonIdent.parseTz(fields[4]);
		}
		catch (IllegalArgumentException ex) {
			throw bad("bad time '" + fields[3] + " " + fields[4] + "'");
		}
		PersonIdent who = new PersonIdent(text(fields[5]), text(fields[6]), epoch, tz);
		return new ReflogEntry(id(fields[1]), id(fields[2]), who, text(fields[7]));
	}

	/**
	 * A ref name of the manifest; one that a restore writes ({@code written}) follows the
	 * rule for names from outside, so that a manifest edited by hand cannot name a file
	 * such as {@code objects/..}. A symbolic ref's target is only text in its file:
	 * check-ref-format is enough, as for git.
	 */
	private String refName(String field, boolean written) throws IOException {
		String name = text(field);
		RefName.Rule rule = written ? RefName.writableViolation(name) : RefName.violation(name, true);
		if (rule != null) {
			throw bad("bad ref name '" + RefName.printable(name) + "': " + rule.description());
		}
		return name;
	}

	private ObjectId id(String hex) throws IOException {
		ObjectId id = (hex.length() == this.hash.hexLength()) ? ObjectId.tryParse(this.hash, hex) : null;
		if (id == null) {
			throw bad("'" + hex + "' is not a " + this.hash.configName() + " object id");
		}
		return id;
	}

	private String text(String field) throws IOException {
		try {
			return Manifest.decodeText(field);
		}
		catch (IllegalArgumentException ex) {
			throw bad(ex.getMessage());
		}
	}

	private int number(String field) throws IOException {
		try {
			int n = Integer.parseInt(field);
			if (n >= 0) {
				return n;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw bad("'" + field + "' is not a number");
	}

	private void fieldCount(String[] fields, int expected) throws IOException {
		if (fields.length != expected) {
			throw bad("'" + fields[0] + "' needs " + (expected - 1) + " fields, found " + (fields.length - 1));
		}
	}

	/**
	 * The next line that is not a comment, or {@code null} at the end (a last line
	 * without LF is ignored).
	 */
	private String nextLine() throws IOException {
		if (this.pushedBack != null) {
			String line = this.pushedBack;
			this.pushedBack = null;
			return line;
		}
		while (true) {
			int length = lineLength();
			if (length < 0) {
				return null;
			}
			this.lineNumber++;
			int start = this.position;
			this.position += length + 1;
			if (length > 0 && this.buffer[start] != '#') {
				try {
					return Manifest.utf8(this.buffer, start, length);
				}
				catch (IllegalArgumentException ex) {
					throw bad(ex.getMessage());
				}
			}
		}
	}

	/**
	 * The length of the next line in {@link #buffer} from {@link #position}, reading more
	 * as needed; -1 at the end (a last line without LF is ignored).
	 */
	private int lineLength() throws IOException {
		int scanned = this.position;
		while (true) {
			for (int i = scanned; i < this.limit; i++) {
				if (this.buffer[i] == '\n') {
					return i - this.position;
				}
			}
			scanned = this.limit - this.position;
			if (this.position > 0) {
				System.arraycopy(this.buffer, this.position, this.buffer, 0, scanned);
				this.limit = scanned;
				this.position = 0;
			}
			if (this.limit == this.buffer.length) {
				this.buffer = Arrays.copyOf(this.buffer, 2 * this.buffer.length);
			}
			int read = this.in.read(this.buffer, this.limit, this.buffer.length - this.limit);
			if (read < 0) {
				return -1;
			}
			this.limit += read;
		}
	}

	private IOException bad(String problem) {
		return new IOException(this.path + ":" + this.lineNumber + ": " + problem);
	}

	@Override
	public void close() throws IOException {
		this.in.close();
	}

}
