package io.refstore.core.ref;

import java.util.Objects;

/**
 * A reference that holds an object id.
 *
 * @param name the full ref name
 * @param id the object the ref points to
 * @param peeled the fully peeled object if {@code id} is an annotated tag and the store
 * knows it, otherwise {@code null} (not a tag, or not known: loose refs carry no peeled
 * value)
 */
public record DirectRef(String name, ObjectId id, ObjectId peeled) implements Ref {

	public DirectRef {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(id, "id");
	}

	/** A ref without a stored peeled value. */
	public DirectRef(String name, ObjectId id) {
		this(name, id, null);
	}

}
