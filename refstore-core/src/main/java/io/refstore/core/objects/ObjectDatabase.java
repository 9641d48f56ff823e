package io.refstore.core.objects;

import java.io.Closeable;
import java.io.IOException;

import io.refstore.core.ref.ObjectId;

/**
 * The few things ref storage needs from the object database: whether an object exists,
 * its type, and what an annotated tag peels to. Safe for use by several threads.
 */
public interface ObjectDatabase extends Closeable {

	/** Object types, named as git names them. */
	enum ObjectType {

		COMMIT, TREE, BLOB, TAG;

		/** The name git prints, such as {@code commit}. */
		public String gitName() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

	/**
	 * The type of an object.
	 * @return the type, or {@code null} if the object does not exist
	 * @throws IOException if the database cannot be read
	 * @throws IllegalArgumentException if {@code id} uses another hash than the database
	 */
	ObjectType type(ObjectId id) throws IOException;

	/**
	 * The types of many objects, as {@link #type(ObjectId)} gives each; a database may
	 * look them up in another order than given, such as the order of its pack indexes,
	 * which a million scattered lookups need.
	 * @param algorithm the hash of the ids
	 * @param ids {@code count} raw ids back to back from offset 0
	 * @param count how many ids
	 * @param types receives the type of id {@code i} at index {@code i}, {@code null} if
	 * the object does not exist
	 * @throws IOException if the database cannot be read
	 * @throws IllegalArgumentException if {@code algorithm} is not the database's hash
	 */
	default void types(io.refstore.core.ref.HashAlgorithm algorithm, byte[] ids, int count, ObjectType[] types)
			throws IOException {
		for (int i = 0; i < count; i++) {
			types[i] = type(ObjectId.fromRaw(algorithm, ids, i * algorithm.rawLength()));
		}
	}

	/** Whether the object exists. */
	default boolean exists(ObjectId id) throws IOException {
		return type(id) != null;
	}

	/**
	 * Follows annotated tags (recursively) to the first object that is not a tag. As in
	 * git, each tag's own {@code type} line decides whether to go on, so the final object
	 * is returned without being opened: it may be missing from the database (git stores
	 * such a peeled value in {@code packed-refs} too).
	 * @return the fully peeled id (a commit, tree or blob), or {@code null} if {@code id}
	 * is not an annotated tag or does not exist, or if a tag on the way names a nested
	 * tag that is missing or is no tag (git then stores no peeled value)
	 * @throws IOException if the database cannot be read or a tag is damaged
	 * @throws IllegalArgumentException if {@code id} uses another hash than the database
	 */
	ObjectId peel(ObjectId id) throws IOException;

	/**
	 * The object an annotated tag names, one level only: for a tag of a tag this is the
	 * inner tag (what {@code git for-each-ref} prints for {@code %(*objectname)}), unlike
	 * {@link #peel(ObjectId)}.
	 * @return the tagged object's id, or {@code null} if {@code id} is not an annotated
	 * tag or does not exist
	 * @throws IOException if the database cannot be read or the tag is damaged
	 */
	ObjectId tagTarget(ObjectId id) throws IOException;

	/**
	 * An object's type and whole content.
	 *
	 * @param type the type
	 * @param content the content, without the loose-object header
	 */
	record StoredObject(ObjectType type, byte[] content) {
	}

	/**
	 * Reads a whole object (for {@code for-each-ref}'s object atoms).
	 * @return the object, or {@code null} if it does not exist
	 * @throws IOException if the database cannot be read
	 */
	default StoredObject read(ObjectId id) throws IOException {
		throw new UnsupportedOperationException("this object database does not read whole objects");
	}

	/**
	 * The content of a commit object, for walking history where no commit-graph covers
	 * it.
	 * @return the commit's bytes (without the object header), or {@code null} if the
	 * object is missing or is no commit
	 * @throws IOException if the database cannot be read
	 */
	default byte[] commitContent(ObjectId id) throws IOException {
		StoredObject object = read(id);
		return (object != null && object.type() == ObjectType.COMMIT) ? object.content() : null;
	}

}
