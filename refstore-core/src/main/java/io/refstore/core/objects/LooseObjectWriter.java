package io.refstore.core.objects;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Set;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Writes SHA-1 loose objects, as git does: the id is the SHA-1 of
 * {@code <type> SP <size> NUL <content>}, the file {@code objects/<2 hex>/<38 hex>} a
 * zlib stream of the same bytes, written under a temporary name and then renamed, so that
 * a reader never sees half an object. An object already present is left as it is. For the
 * few objects of a demo repository, not for bulk writes (one file per object). Not
 * thread-safe.
 */
public final class LooseObjectWriter {

	private static final Set<PosixFilePermission> READ_ONLY = PosixFilePermissions.fromString("r--r--r--");

	private final Path objectsDir;

	private final MessageDigest sha1;

	/**
	 * Writes into {@code objectsDir}, the {@code objects} directory of a SHA-1
	 * repository.
	 */
	public LooseObjectWriter(Path objectsDir) {
		this.objectsDir = objectsDir;
		try {
			this.sha1 = MessageDigest.getInstance("SHA-1");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("this Java has no SHA-1", ex);
		}
	}

	/**
	 * Writes an object unless it exists.
	 * @return its id
	 * @throws IOException if the file cannot be written
	 */
	public ObjectId write(ObjectDatabase.ObjectType type, byte[] content) throws IOException {
		byte[] header = (type.gitName() + ' ' + content.length + '\0').getBytes(StandardCharsets.US_ASCII);
		this.sha1.update(header);
		ObjectId id = ObjectId.fromRaw(HashAlgorithm.SHA1, this.sha1.digest(content), 0);
		String hex = id.name();
		Path dir = this.objectsDir.resolve(hex.substring(0, 2));
		Path file = dir.resolve(hex.substring(2));
		if (Files.exists(file)) {
			return id;
		}
		Files.createDirectories(dir);
		Path partial = Files.createTempFile(dir, "tmp_obj_", "");
		try {
			// git's default core.looseCompression: the fastest level
			Deflater deflater = new Deflater(Deflater.BEST_SPEED);
			try (OutputStream out = new DeflaterOutputStream(Files.newOutputStream(partial), deflater)) {
				out.write(header);
				out.write(content);
			}
			finally {
				deflater.end();
			}
			// read-only for all, as git leaves its objects (a temporary file is private
			// to its owner)
			Files.setPosixFilePermissions(partial, READ_ONLY);
			// a rename over the same object another writer stored meanwhile replaces it
			// with the same bytes
			Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
		}
		finally {
			Files.deleteIfExists(partial);
		}
		return id;
	}

}
