package io.refstore.core.txn;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.UpdateBatch;

/**
 * The standard input of the {@code reference-transaction} hook: a line per update,
 * {@code <old> SP <new> SP <ref-name>}, where an old value not given and the new value of
 * a deletion or a verification (which sets none) are all zeros, and a symbolic ref's new
 * value is {@code ref:<target>}.
 */
final class HookLines {

	private HookLines() {
	}

	/** The lines of the updates as submitted, in their order. */
	static List<String> submitted(List<RefUpdate> updates, UpdateBatch batch, HashAlgorithm hash) {
		List<String> lines = new ArrayList<>();
		if (batch != null) {
			for (int i = 0; i < batch.size(); i++) {
				RefUpdate update = batch.update(i);
				lines.add(line(update, update.name(), hash));
			}
		}
		for (RefUpdate update : updates) {
			lines.add(line(update, update.name(), hash));
		}
		return lines;
	}

	/**
	 * The lines of the planned updates, in the order submitted: an update through a
	 * symbolic ref names the ref it changes (the symbolic ref only gets a reflog entry,
	 * which the hook is not told of).
	 */
	static List<String> planned(Collection<PlannedUpdate> planned, HashAlgorithm hash) {
		List<PlannedUpdate> ordered = new ArrayList<>(planned);
		ordered.sort(Comparator.comparingInt(PlannedUpdate::submitted));
		List<String> lines = new ArrayList<>(ordered.size());
		for (PlannedUpdate update : ordered) {
			lines.add(line(update.update(), update.name(), hash));
		}
		return lines;
	}

	/**
	 * The lines of the transaction git's files backend runs on {@code packed-refs} for
	 * the deletions among {@code inOrder}: every deletion, nothing expected, in the order
	 * submitted.
	 */
	static List<String> packedDeletions(List<PlannedUpdate> inOrder, HashAlgorithm hash) {
		String zero = ObjectId.zero(hash).name();
		List<String> lines = new ArrayList<>();
		for (PlannedUpdate item : inOrder) {
			if (item.update().isDelete()) {
				lines.add(zero + " " + zero + " " + item.name());
			}
		}
		return lines;
	}

	private static String line(RefUpdate update, String name, HashAlgorithm hash) {
		String zero = ObjectId.zero(hash).name();
		// an expected target is told as git tells a symbolic ref's value
		String old = (update.expectedOldTarget() != null) ? "ref:" + update.expectedOldTarget()
				: (update.expectedOld() != null) ? update.expectedOld().name() : zero;
		String value = switch (update.type()) {
			case DELETE, VERIFY -> zero;
			case SYMREF -> "ref:" + update.newTarget();
			case UPDATE -> update.newId().name();
		};
		return old + " " + value + " " + name;
	}

}
