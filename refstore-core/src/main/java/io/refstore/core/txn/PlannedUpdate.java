package io.refstore.core.txn;

import java.util.ArrayList;
import java.util.List;

import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefUpdate;

/**
 * One ref a transaction will change, after symbolic refs were followed: the backends'
 * shared view of an update between planning and commit.
 */
public final class PlannedUpdate {

	private final RefUpdate update;

	private final String name;

	private final List<String> logOnly = new ArrayList<>(1);

	private Ref old;

	private ObjectId resolvedOld;

	private ObjectType newType;

	private final int submitted;

	PlannedUpdate(RefUpdate update, String name) {
		this(update, name, 0);
	}

	PlannedUpdate(RefUpdate update, String name, int submitted) {
		this.update = update;
		this.name = name;
		this.submitted = submitted;
	}

	/** The update's position in the transaction as submitted (git's order of locking). */
	public int submitted() {
		return this.submitted;
	}

	/** The update as submitted. */
	public RefUpdate update() {
		return this.update;
	}

	/**
	 * The ref actually changed: the submitted name, or the end of its symbolic ref chain.
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Symbolic refs whose logs also record this change without changing them: the symref
	 * the update went through, and {@code HEAD} when it points at the changed branch.
	 */
	public List<String> logOnly() {
		return this.logOnly;
	}

	/** The ref's value read under the lock, or {@code null} if it does not exist. */
	public Ref old() {
		return this.old;
	}

	/** The old object id ({@code null} if the ref is missing or symbolic). */
	public ObjectId oldId() {
		return (this.old instanceof DirectRef direct) ? direct.id() : null;
	}

	/**
	 * The id the old value resolves to: the old id itself, or for a symbolic ref (changed
	 * without dereferencing) the id at the end of its chain; {@code null} if the ref is
	 * missing or dangling. Expected old values are compared with this, as git compares
	 * them.
	 */
	public ObjectId resolvedOld() {
		return this.resolvedOld;
	}

	/**
	 * Records the value read under the lock, resolving a symbolic one through
	 * {@code reader}.
	 */
	public void setOld(Ref old, UpdateChecks.RefReader reader) throws java.io.IOException {
		this.old = old;
		this.resolvedOld = ReflogEntries.resolve(old, reader);
	}

	/**
	 * The type of the new object, once {@link UpdateChecks#checkObject} found it;
	 * {@code null} before. A backend that stores peeled values peels only a tag, rather
	 * than look the object up a second time.
	 */
	public ObjectType newType() {
		return this.newType;
	}

	void setNewType(ObjectType type) {
		this.newType = type;
	}

	/** Whether this update removes a ref that exists. */
	public boolean deletesExisting() {
		return this.update.isDelete() && this.old != null;
	}

	/** Whether this update writes a new value (not a verify, not a delete). */
	public boolean writesValue() {
		return !this.update.isDelete() && this.update.type() != RefUpdate.Type.VERIFY;
	}

	/**
	 * Whether the new value equals the old one, so nothing needs to be written for the
	 * ref itself.
	 */
	public boolean isNoOp() {
		return this.update.type() == RefUpdate.Type.UPDATE && !this.update.isDelete()
				&& this.update.newId().equals(oldId());
	}

}
