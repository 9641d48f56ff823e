package io.refstore.core.ref;

import java.util.Objects;

/**
 * One change in a {@link RefTransaction}: what a command of
 * {@code git update-ref --stdin} asks for.
 *
 * <p>
 * The expected old value follows git: {@code null} means "do not check", the all-zero id
 * means "must not exist", any other id means "must currently be exactly this".
 *
 * @param name the ref to change
 * @param type what to do
 * @param newId the new value for {@link Type#UPDATE} (all-zero deletes, as in git), else
 * {@code null}
 * @param newTarget the target for {@link Type#SYMREF}, else {@code null}
 * @param expectedOld the expected old value, or {@code null} for no check
 * @param noDeref whether a symbolic ref named by {@code name} is changed itself instead
 * of the ref it points to
 * @param message the reflog message, or {@code null} for the transaction's message
 * @param expectedOldTarget the symbolic ref's expected current target, or {@code null}
 * for no such check ({@code symref-verify}, {@code symref-delete}, {@code symref-update}
 * of {@code update-ref --stdin}); the ref must then be symbolic and point there
 */
public record RefUpdate(String name, Type type, ObjectId newId, String newTarget, ObjectId expectedOld, boolean noDeref,
		String message, String expectedOldTarget) {

	/** The kinds of change. */
	public enum Type {

		/** Set to {@code newId}; an all-zero {@code newId} deletes. */
		UPDATE,
		/** Remove the ref. */
		DELETE,
		/** Change nothing, but require the expected old value. */
		VERIFY,
		/** Make the ref symbolic, pointing at {@code newTarget}. */
		SYMREF

	}

	public RefUpdate {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(type, "type");
		if (type == Type.UPDATE) {
			Objects.requireNonNull(newId, "newId");
		}
		if (type == Type.SYMREF) {
			Objects.requireNonNull(newTarget, "newTarget");
		}
	}

	/** An update without an expected old target. */
	public RefUpdate(String name, Type type, ObjectId newId, String newTarget, ObjectId expectedOld, boolean noDeref,
			String message) {
		this(name, type, newId, newTarget, expectedOld, noDeref, message, null);
	}

	/** {@code update <ref> <new> [<old>]}. */
	public static RefUpdate update(String name, ObjectId newId, ObjectId expectedOld) {
		return new RefUpdate(name, Type.UPDATE, newId, null, expectedOld, false, null);
	}

	/** {@code create <ref> <new>}: the ref must not exist yet. */
	public static RefUpdate create(String name, ObjectId newId) {
		return new RefUpdate(name, Type.UPDATE, newId, null, ObjectId.zero(newId.algorithm()), false, null);
	}

	/** {@code delete <ref> [<old>]}. */
	public static RefUpdate delete(String name, ObjectId expectedOld) {
		return new RefUpdate(name, Type.DELETE, null, null, expectedOld, false, null);
	}

	/**
	 * {@code verify <ref> <old>}: an all-zero {@code expectedOld} requires that the ref
	 * does not exist.
	 */
	public static RefUpdate verify(String name, ObjectId expectedOld) {
		Objects.requireNonNull(expectedOld, "expectedOld");
		return new RefUpdate(name, Type.VERIFY, null, null, expectedOld, false, null);
	}

	/**
	 * Make {@code name} a symbolic ref to {@code target} (as {@code git symbolic-ref}).
	 */
	public static RefUpdate symref(String name, String target) {
		return new RefUpdate(name, Type.SYMREF, null, target, null, true, null);
	}

	/** This update, changing a symbolic ref itself rather than the ref it points to. */
	public RefUpdate withNoDeref() {
		return new RefUpdate(this.name, this.type, this.newId, this.newTarget, this.expectedOld, true, this.message,
				this.expectedOldTarget);
	}

	/** This update with its own reflog message. */
	public RefUpdate withMessage(String message) {
		return new RefUpdate(this.name, this.type, this.newId, this.newTarget, this.expectedOld, this.noDeref, message,
				this.expectedOldTarget);
	}

	/** Whether this update removes the ref. */
	public boolean isDelete() {
		return this.type == Type.DELETE || (this.type == Type.UPDATE && this.newId.isZero());
	}

}
