package io.refstore.core.objects;

import java.io.IOException;
import java.nio.file.Path;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Opens the object database of a repository. SHA-1 repositories are read through JGit; JGit 7.8 has no
 * SHA-256 support (its object ids are fixed at 20 bytes), so SHA-256 repositories are read by refstore's own
 * reader of loose objects and packs.
 */
public final class ObjectDatabases {

	/** Peeling gives up after this many nested tags: real tag chains are short, a longer one is a loop. */
	static final int MAX_TAG_DEPTH = 64;

	private ObjectDatabases() {
	}

	/**
	 * Opens an object database.
	 * @param objectsDir the {@code objects} directory (in a repository's common directory)
	 * @param algorithm the repository's object hash; ids passed to the database must use it
	 * @return the database, to be closed by the caller
	 * @throws IOException if the directory cannot be opened
	 */
	public static ObjectDatabase open(Path objectsDir, HashAlgorithm algorithm) throws IOException {
		return switch (algorithm) {
			case SHA1 -> new JGitObjectDatabase(objectsDir);
			case SHA256 -> new PackedObjectDatabase(objectsDir, algorithm);
		};
	}

	static CorruptObjectException tooDeep(ObjectId id) {
		return new CorruptObjectException(null,
				"cannot peel " + id + ": more than " + MAX_TAG_DEPTH + " nested tags (a tag loop?)");
	}

}
