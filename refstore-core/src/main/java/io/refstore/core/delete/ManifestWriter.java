package io.refstore.core.delete;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import io.refstore.core.io.Fsync;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.repo.RepositoryId;

/**
 * Writes a {@link Manifest} as a deletion goes: every record that a restore depends on
 * reaches the disk ({@code fsync}) before the step it describes is taken. Not
 * thread-safe.
 */
final class ManifestWriter implements Closeable {

	private final Path path;

	private final FileChannel channel;

	private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);

	private ManifestWriter(Path path, FileChannel channel) {
		this.path = path;
		this.channel = channel;
	}

	/**
	 * Creates the file (never replacing one) and writes the header.
	 * @param repository the git directory, or {@code null} to leave it out
	 * @param id the repository's identity, or {@code null} to leave it out
	 * @throws FileAlreadyExistsException if the file exists
	 */
	static ManifestWriter create(Path path, HashAlgorithm hash, RefFormat format, Path repository, RepositoryId id,
			RefSelection selection, long createdEpochSeconds) throws IOException {
		Path parent = path.toAbsolutePath().getParent();
		if (parent != null) {
			Fsync.createDirectories(parent);
		}
		FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
		ManifestWriter writer = new ManifestWriter(path, channel);
		try {
			writer.header(hash, format, repository, id, selection, createdEpochSeconds);
			// once: the file's name, so that the records forced into it later are found
			// after a power cut
			Fsync.parentOf(path);
			return writer;
		}
		catch (IOException | RuntimeException ex) {
			writer.close();
			throw ex;
		}
	}

	/** The file. */
	Path path() {
		return this.path;
	}

	private void header(HashAlgorithm hash, RefFormat format, Path repository, RepositoryId id, RefSelection selection,
			long created) throws IOException {
		ascii(Manifest.MAGIC + " " + Manifest.VERSION).newline();
		ascii("hash " + hash.configName()).newline();
		ascii("format " + format.configName()).newline();
		if (repository != null || id != null) {
			// the identity as a second field: readers before it ignore the line's fields
			ascii("repository ").text((repository != null) ? repository.toString() : "");
			if (id != null) {
				ascii(" " + id.value());
			}
			newline();
		}
		ascii("created " + created).newline();
		for (String prefix : selection.prefixes()) {
			ascii("select prefix ").text(prefix).newline();
		}
		for (String glob : selection.globs()) {
			ascii("select glob ").text(glob).newline();
		}
		for (String exclusion : selection.exclusions()) {
			ascii("select exclude ").text(exclusion).newline();
		}
		if (selection.nameCount() > 0) {
			ascii("select names " + selection.nameCount()).newline();
		}
		for (String entry : selection.protection().entries()) {
			ascii("select protect ").text(entry).newline();
		}
		sync();
	}

	/**
	 * Writes a chunk's refs with their reflogs and its {@code ready} line, and syncs.
	 * @param logs the reflog of each ref, in the order of {@code refs}
	 */
	void chunk(int chunk, List<Ref> refs, List<List<ReflogEntry>> logs) throws IOException {
		ascii("chunk " + chunk).newline();
		for (int i = 0; i < refs.size(); i++) {
			Ref ref = refs.get(i);
			if (ref instanceof SymbolicRef symbolic) {
				ascii("symref ").text(symbolic.name()).ascii(" ").text(symbolic.target()).newline();
			}
			else {
				DirectRef direct = (DirectRef) ref;
				ascii("ref ").text(direct.name())
					.ascii(" " + direct.id().name() + " ")
					.ascii((direct.peeled() != null) ? direct.peeled().name() : "-")
					.newline();
			}
			for (ReflogEntry entry : logs.get(i)) {
				log(entry);
			}
		}
		ascii("ready " + chunk + " " + refs.size()).newline();
		sync();
	}

	private void log(ReflogEntry entry) {
		PersonIdent who = entry.who();
		ascii("log " + entry.oldId().name() + " " + entry.newId().name() + " " + who.epochSeconds() + " " + who.tzText()
				+ " ")
			.text(who.name())
			.ascii(" ")
			.text(who.email())
			.ascii(" ")
			.text(entry.message())
			.newline();
	}

	/** Records that chunk {@code chunk} committed, and syncs. */
	void committed(int chunk) throws IOException {
		ascii("committed " + chunk).newline();
		sync();
	}

	/** Records a failed or in-doubt chunk, and syncs. */
	void failed(ChunkFailure failure) throws IOException {
		if (failure.inDoubt()) {
			ascii("in-doubt " + failure.chunk() + " ");
		}
		else {
			ascii("failed " + failure.chunk() + " ").text((failure.ref() != null) ? failure.ref() : "")
				.ascii(" " + failure.rejection().name() + " ");
		}
		text(failure.message()).newline();
		sync();
	}

	/** Records the end of a run without failures, and syncs. */
	void done(long deleted, int chunks) throws IOException {
		ascii("done " + deleted + " " + chunks).newline();
		sync();
	}

	private ManifestWriter ascii(String s) {
		this.buffer.writeBytes(s.getBytes(StandardCharsets.UTF_8));
		return this;
	}

	private ManifestWriter text(String s) {
		Manifest.appendText(this.buffer, s);
		return this;
	}

	private ManifestWriter newline() {
		this.buffer.write('\n');
		return this;
	}

	private void sync() throws IOException {
		ByteBuffer bytes = ByteBuffer.wrap(this.buffer.toByteArray());
		this.buffer.reset();
		while (bytes.hasRemaining()) {
			this.channel.write(bytes);
		}
		this.channel.force(false);
	}

	@Override
	public void close() throws IOException {
		this.channel.close();
	}

}
