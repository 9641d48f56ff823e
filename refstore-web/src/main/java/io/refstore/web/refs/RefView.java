package io.refstore.web.refs;

/**
 * One ref as the API shows it: {@code {"ref", "object": {"sha", "type"}, "peeled",
 * "symref"}}.
 *
 * @param ref the full name
 * @param object the object the ref finally points to (through a symbolic ref, its
 * target's object); {@code null} for a symbolic ref whose target does not exist (an
 * unborn branch)
 * @param peeled for an annotated tag, the object it peels to (recursively); else
 * {@code null}
 * @param symref for a symbolic ref, the name it points to; else {@code null}
 */
public record RefView(String ref, ObjectView object, String peeled, String symref) {

	/**
	 * An object and its type.
	 *
	 * @param sha the object id in hex
	 * @param type {@code commit}, {@code tree}, {@code blob} or {@code tag}; {@code null}
	 * if the object is missing from the repository
	 */
	public record ObjectView(String sha, String type) {
	}

}
