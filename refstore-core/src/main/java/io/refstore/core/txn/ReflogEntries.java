package io.refstore.core.txn;

import java.io.IOException;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogEntry;
import io.refstore.core.ref.SymbolicRef;

/**
 * The reflog entry git records for a planned update, shared by both backends.
 */
public final class ReflogEntries {

	private ReflogEntries() {
	}

	/**
	 * The entry for {@code item}: old and new values as resolved ids (the all-zero id
	 * where there is none), the update's own message or else the transaction's,
	 * normalised ({@link ReflogEntry#normalizeMessage}).
	 * @return the entry, or {@code null} when git records nothing: a verify, the deletion
	 * of a ref that does not exist, or a symbolic ref whose new target does not resolve
	 */
	public static ReflogEntry forUpdate(PlannedUpdate item, PersonIdent who, String transactionMessage,
			UpdateChecks.RefReader reader, ObjectId zero) throws IOException {
		RefUpdate update = item.update();
		if (update.type() == RefUpdate.Type.VERIFY || (update.isDelete() && item.old() == null)) {
			return null;
		}
		ObjectId newId;
		if (update.type() == RefUpdate.Type.SYMREF) {
			newId = resolve(reader.read(update.newTarget()), reader);
			if (newId == null) {
				return null;
			}
		}
		else {
			newId = update.isDelete() ? zero : update.newId();
		}
		ObjectId oldId = resolve(item.old(), reader);
		String message = (update.message() != null) ? update.message() : transactionMessage;
		// git normalises the message for every backend before it reaches one (reftable
		// stores it as it comes)
		return new ReflogEntry((oldId != null) ? oldId : zero, newId, who, ReflogEntry.normalizeMessage(message));
	}

	/** Follows symbolic refs from {@code ref} to an id, or {@code null}. */
	public static ObjectId resolve(Ref ref, UpdateChecks.RefReader reader) throws IOException {
		int depth = 0;
		while (ref instanceof SymbolicRef symbolic && depth++ < RefStore.MAX_SYMREF_DEPTH) {
			ref = reader.read(symbolic.target());
		}
		return (ref instanceof DirectRef direct) ? direct.id() : null;
	}

}
