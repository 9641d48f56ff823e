package io.refstore.core.objects;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.internal.storage.file.ObjectDirectory;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.util.FS;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * The object database of a SHA-1 repository, read through JGit's object directory (loose objects, packs,
 * alternates). Only JGit's object storage is opened, never its ref database or repository. Safe for use by
 * several threads: each thread reuses its own JGit reader (with its pack windows and inflater), so a
 * command that looks up a million objects does not set up a reader a million times.
 */
final class JGitObjectDatabase implements ObjectDatabase {

	private final ObjectDirectory directory;

	private final Queue<ObjectReader> openReaders = new ConcurrentLinkedQueue<>();

	private final ThreadLocal<ObjectReader> readers;

	JGitObjectDatabase(Path objectsDir) throws IOException {
		// an empty Config gives JGit's defaults for pack windows; the repository's config is not JGit's to read
		this.directory = new ObjectDirectory(new Config(), objectsDir.toFile(), null, FS.DETECTED, null);
		this.readers = ThreadLocal.withInitial(() -> {
			ObjectReader reader = this.directory.newReader();
			this.openReaders.add(reader);
			return reader;
		});
	}

	private ObjectReader reader() {
		return this.readers.get();
	}

	@Override
	public ObjectType type(ObjectId id) throws IOException {
		try {
			return typeOf(reader().open(toJGit(id)).getType(), id);
		}
		catch (MissingObjectException ex) {
			return null;
		}
	}

	@Override
	public boolean exists(ObjectId id) throws IOException {
		return reader().has(toJGit(id));
	}

	@Override
	public ObjectId peel(ObjectId id) throws IOException {
		ObjectReader reader = reader();
		ObjectLoader first = open(reader, id);
		if (first == null || first.getType() != Constants.OBJ_TAG) {
			return null;
		}
		ObjectLoader loader = first;
		ObjectId current = id;
		for (int depth = 0; depth <= ObjectDatabases.MAX_TAG_DEPTH; depth++) {
			TagObjects.Target target = TagObjects.target(current, loader.getCachedBytes());
			if (!target.targetIsTag()) {
				return target.object();
			}
			loader = open(reader, target.object());
			if (loader == null || loader.getType() != Constants.OBJ_TAG) {
				// a nested tag is missing, or is not the tag its parent claims: git stores no peeled value
				return null;
			}
			current = target.object();
		}
		throw ObjectDatabases.tooDeep(id);
	}

	@Override
	public ObjectId tagTarget(ObjectId id) throws IOException {
		ObjectReader reader = reader();
		ObjectLoader loader = open(reader, id);
		if (loader == null || loader.getType() != Constants.OBJ_TAG) {
			return null;
		}
		byte[] content = loader.getCachedBytes();
		return TagObjects.target(id, content).object();
	}

	private static ObjectLoader open(ObjectReader reader, ObjectId id) throws IOException {
		try {
			return reader.open(toJGit(id));
		}
		catch (MissingObjectException ex) {
			return null;
		}
	}

	private static org.eclipse.jgit.lib.ObjectId toJGit(ObjectId id) {
		if (id.algorithm() != HashAlgorithm.SHA1) {
			throw new IllegalArgumentException("object id " + id + " is a " + id.algorithm().configName()
					+ " id, but this is a sha1 object database");
		}
		return org.eclipse.jgit.lib.ObjectId.fromRaw(id.toRaw());
	}

	private static ObjectType typeOf(int jgitType, ObjectId id) throws CorruptObjectException {
		return switch (jgitType) {
			case Constants.OBJ_COMMIT -> ObjectType.COMMIT;
			case Constants.OBJ_TREE -> ObjectType.TREE;
			case Constants.OBJ_BLOB -> ObjectType.BLOB;
			case Constants.OBJ_TAG -> ObjectType.TAG;
			default -> throw new CorruptObjectException(null, "object " + id + " has unknown type " + jgitType);
		};
	}

	@Override
	public void close() {
		for (ObjectReader reader = this.openReaders.poll(); reader != null; reader = this.openReaders.poll()) {
			reader.close();
		}
		this.directory.close();
	}

	@Override
	public String toString() {
		return "JGitObjectDatabase[" + this.directory.getDirectory() + "]";
	}

}
