package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefTransaction;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.ReflogPolicy;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.TransactionResult;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * Brings a rollback's copy of a backup up to date with the store it replaces: every ref
 * written, moved or deleted since the migration (by anyone: the API, a job, git) is
 * written into the copy, so that a write that was confirmed survives the rollback (issue
 * 14). The backup gives the restored store its layout and its reflogs; the current store
 * gives every value.
 *
 * <p>
 * Both stores are read once, side by side in git's order, and what differs is applied to
 * the copy in one transaction, whose reflog entries say where the change came from; a
 * changed ref that has a log in the current store is written on its own with the entries
 * the copy lacks ({@link CarryOver#carry}). A files copy is then packed. Run once before
 * the swap's locks for the bulk of the changes, and again under them only if the current
 * store changed meanwhile. Its read of the current store, logs included, is the record of
 * the store the swap retires.
 */
final class CatchUp {

	/** The reflog message of the changes written into the restored store. */
	static final String MESSAGE = "refstore rollback: kept a change made since the migration";

	/** How many refs of the copy are compared between two progress updates. */
	private static final int UPDATE_EVERY = 1024;

	private CatchUp() {
	}

	/**
	 * Makes the store of {@code format} staged in {@code staged} hold exactly the refs of
	 * {@code source}, telling {@code progress} how far each phase has come: the
	 * comparison counts the copy's refs ({@code stagedRefs} in all), the reading of the
	 * source's logs its logs, writing and packing count the changed refs.
	 * @param read receives every ref and log of {@code source} as read (the record of the
	 * store the swap retires, which is then not read again)
	 * @return the names of the refs it changed
	 * @throws MigrationException if the staged store refuses a change
	 */
	static List<String> apply(Repository repository, RefStore source, RefFormat format, Path staged, long stagedRefs,
			RefDigest read, MigrationProgress progress) throws IOException {
		List<RefUpdate> updates = new ArrayList<>();
		List<Ref> logged = new ArrayList<>();
		try (RefStore target = RefStores.openAt(repository, format, staged)) {
			progress.start("Comparing with the backup", stagedRefs);
			long compared = 0;
			try (RefCursor from = source.refs(RefQuery.ALL.withRootRefs());
					RefCursor to = target.refs(RefQuery.ALL.withRootRefs())) {
				boolean inFrom = from.next();
				boolean inTo = to.next();
				while (inFrom || inTo) {
					int order = !inFrom ? 1 : !inTo ? -1 : Arrays.compareUnsigned(from.nameBuffer(), 0,
							from.nameLength(), to.nameBuffer(), 0, to.nameLength());
					if (order > 0) {
						// deleted since the migration
						updates.add(RefUpdate.delete(to.name(), null).withNoDeref());
					}
					else if (order < 0 || !sameValue(from, to)) {
						Ref ref = from.ref();
						if (source.hasReflog(ref.name())) {
							logged.add(ref);
						}
						else {
							updates.add(set(ref));
						}
					}
					if (order <= 0) {
						read.addRef(from);
						inFrom = from.next();
					}
					if (order >= 0) {
						inTo = to.next();
						if (++compared % UPDATE_EVERY == 0) {
							progress.update(compared);
						}
					}
				}
			}
			progress.update(compared);
			progress.stop();
			// the logs for the record, a phase of their own: a store with a log per ref
			// takes seconds to read them
			List<String> logNames = source.reflogNames();
			progress.start("Reading reflogs", logNames.size());
			long[] logs = { 0 };
			source.forEachReflog(logNames, (name, entries) -> {
				read.addReflog(name, entries);
				if (++logs[0] % UPDATE_EVERY == 0) {
					progress.update(logs[0]);
				}
			});
			progress.update(logs[0]);
			progress.stop();
			if (updates.isEmpty() && logged.isEmpty()) {
				return List.of();
			}
			progress.start("Keeping changes since the migration", updates.size() + logged.size());
			if (!updates.isEmpty()) {
				try (RefTransaction transaction = target.newTransaction()) {
					for (RefUpdate update : updates) {
						transaction.add(update);
					}
					TransactionResult result = transaction.message(MESSAGE).commit();
					if (!result.committed()) {
						throw new MigrationException("could not write the changes made since the migration into the"
								+ " restored store: " + result.firstRejection().map(Object::toString).orElse("rejected")
								+ "; the repository is unchanged");
					}
				}
				progress.update(updates.size());
			}
		}
		if (!logged.isEmpty()) {
			// a ref with a log gets the entries logged since the migration too, its own
			// update's last
			long kept = updates.size();
			try (RefStore target = RefStores.openAt(repository, format, staged, ReflogPolicy.ALWAYS)) {
				for (Ref ref : logged) {
					CarryOver.carry(ref.name(), ref, source.reflog(ref.name()), target, MESSAGE);
					progress.update(++kept);
				}
			}
		}
		progress.stop();
		if (format == RefFormat.FILES) {
			// what the catch-up wrote is loose, a file per ref: packed, as git's
			// migration to files writes its refs, so that refs written since the
			// migration do not stay loose round after round (a rollback of a busy
			// repository left every ref loose, and the next migration read them one file
			// at a time)
			progress.start("Packing refs", updates.size() + logged.size());
			try (RefStore target = RefStores.openAt(repository, format, staged)) {
				target.packRefs(new RefStore.PackOptions(true, true));
			}
			progress.update(updates.size() + logged.size());
			progress.stop();
		}
		List<String> names = new ArrayList<>(updates.stream().map(RefUpdate::name).toList());
		logged.forEach((ref) -> names.add(ref.name()));
		return names;
	}

	/**
	 * The update that gives {@code ref}'s name its value, whatever the name holds now.
	 */
	private static RefUpdate set(Ref ref) {
		if (ref instanceof DirectRef direct) {
			return RefUpdate.update(direct.name(), direct.id(), null).withNoDeref();
		}
		return RefUpdate.symref(ref.name(), ((SymbolicRef) ref).target());
	}

	/**
	 * Whether the two cursors' current refs (of one name) hold the same value: target, or
	 * object id.
	 */
	private static boolean sameValue(RefCursor from, RefCursor to) {
		if (from.isSymbolic() != to.isSymbolic()) {
			return false;
		}
		if (from.isSymbolic()) {
			return Arrays.equals(from.targetBuffer(), 0, from.targetLength(), to.targetBuffer(), 0, to.targetLength());
		}
		int length = from.hashAlgorithm().rawLength();
		return Arrays.equals(from.idBuffer(), 0, length, to.idBuffer(), 0, length);
	}

}
