package io.refstore.core.objects;

import java.io.IOException;
import java.nio.file.Path;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Opens the object database of a repository with refstore's own reader of loose objects
 * and packs, for both hashes. (JGit served SHA-1 until its reader proved the hot path's
 * cost: it inflates an object to report its type, where the pack entry's header already
 * says it; and JGit 7.8 cannot read SHA-256 at all.)
 */
public final class ObjectDatabases {

	/**
	 * Peeling gives up after this many nested tags: real tag chains are short, a longer
	 * one is a loop.
	 */
	static final int MAX_TAG_DEPTH = 64;

	private ObjectDatabases() {
	}

	/**
	 * Opens an object database.
	 * @param objectsDir the {@code objects} directory (in a repository's common
	 * directory)
	 * @param algorithm the repository's object hash; ids passed to the database must use
	 * it
	 * @return the database, to be closed by the caller
	 * @throws IOException if the directory cannot be opened
	 */
	public static ObjectDatabase open(Path objectsDir, HashAlgorithm algorithm) throws IOException {
		return new PackedObjectDatabase(objectsDir, algorithm);
	}

	static CorruptObjectException tooDeep(ObjectId id) {
		return new CorruptObjectException(null,
				"cannot peel " + id + ": more than " + MAX_TAG_DEPTH + " nested tags (a tag loop?)");
	}

}
