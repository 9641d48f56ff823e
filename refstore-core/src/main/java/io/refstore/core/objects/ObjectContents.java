package io.refstore.core.objects;

import java.io.IOException;

import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.ObjectId;

/**
 * Whole objects of a repository's database, for the few commands that walk from one
 * object to another (revision expressions such as {@code main~1} or {@code main:path}).
 */
public final class ObjectContents {

	/**
	 * One object.
	 *
	 * @param type its type
	 * @param content its content, without the loose-object header
	 */
	public record Content(ObjectType type, byte[] content) {
	}

	private ObjectContents() {
	}

	/**
	 * Reads a whole object.
	 * @param objects a database opened by {@link ObjectDatabases#open}
	 * @return the object, or {@code null} if the database does not have it
	 * @throws IOException if the database cannot be read
	 * @throws IllegalArgumentException if the database is of another kind
	 */
	public static Content read(ObjectDatabase objects, ObjectId id) throws IOException {
		if (!(objects instanceof PackedObjectDatabase packed)) {
			throw new IllegalArgumentException("cannot read whole objects from " + objects);
		}
		RawObject raw = packed.load(id);
		return (raw != null) ? new Content(RawObject.publicType(raw.type()), raw.content()) : null;
	}

}
