package io.refstore.core.repo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import io.refstore.core.io.Fsync;

/**
 * A repository's identity as refstore records it in what it writes for later jobs
 * (deletion plans, deletion manifests, migration backups), so that a job refuses an input
 * another repository wrote: a random UUID kept in {@value #FILE} of the common directory,
 * written the first time refstore records it.
 * <p>
 * It stays with the repository when the repository is moved or renamed (its path is no
 * identity), costs one small read, and git ignores the file. A copy of the whole
 * repository keeps it, as it keeps the inputs it may then use. The file is read without
 * following a symbolic link.
 *
 * @param value the identity, a UUID in its canonical text form
 */
public record RepositoryId(String value) {

	/** The file in the common directory that holds the identity. */
	public static final String FILE = "refstore-id";

	private static final Pattern TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

	/**
	 * @throws IllegalArgumentException if {@code value} is not a UUID in canonical
	 * lower-case form
	 */
	public RepositoryId {
		if (value == null || !TEXT.matcher(value).matches()) {
			throw new IllegalArgumentException("not a repository id: '" + value + "'");
		}
	}

	/** The identity {@code text} holds, or empty if it is none. */
	public static Optional<RepositoryId> parse(String text) {
		return (text != null && TEXT.matcher(text).matches()) ? Optional.of(new RepositoryId(text)) : Optional.empty();
	}

	/**
	 * The repository's identity, recorded now if it has none: written to a temporary
	 * file, synced, and linked into place, so that two writers agree on the first one.
	 * @throws IOException if it cannot be read or written, or the file is no identity
	 */
	public static RepositoryId of(Repository repository) throws IOException {
		Optional<RepositoryId> found = find(repository);
		if (found.isPresent()) {
			return found.get();
		}
		Path file = repository.commonDir().resolve(FILE);
		RepositoryId id = new RepositoryId(UUID.randomUUID().toString());
		Path temp = file.resolveSibling(FILE + "." + id.value() + ".tmp");
		try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
			channel.write(java.nio.ByteBuffer.wrap((id.value() + "\n").getBytes(StandardCharsets.US_ASCII)));
			Fsync.force(channel);
		}
		try {
			Files.createLink(file, temp);
			Fsync.parentOf(file);
			return id;
		}
		catch (FileAlreadyExistsException ex) {
			// another writer recorded one first: that one holds
			return find(repository).orElseThrow(() -> new IOException(FILE + " is not a repository id"));
		}
		finally {
			Files.deleteIfExists(temp);
		}
	}

	/**
	 * The repository's identity, or empty if none was recorded yet; never writes.
	 * @throws IOException if the file cannot be read, is a symbolic link, or holds no
	 * identity
	 */
	public static Optional<RepositoryId> find(Repository repository) throws IOException {
		Path file = repository.commonDir().resolve(FILE);
		byte[] bytes;
		try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
			bytes = in.readNBytes(128);
		}
		catch (NoSuchFileException ex) {
			return Optional.empty();
		}
		String text = new String(bytes, StandardCharsets.US_ASCII).strip();
		return Optional.of(parse(text).orElseThrow(() -> new IOException(FILE + " is not a repository id")));
	}

	@Override
	public String toString() {
		return this.value;
	}

	// equals and hashCode written out: a record's own are linked on first use through
	// method handles, about 25 ms of a restore-refs that compares a manifest's owner once

	@Override
	public boolean equals(Object other) {
		return other instanceof RepositoryId id && this.value.equals(id.value);
	}

	@Override
	public int hashCode() {
		return this.value.hashCode();
	}

}
