package io.refstore.core.txn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeMap;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;

/**
 * The checks of a transaction that do not depend on the storage format, with git's messages: names,
 * duplicates, symbolic refs followed, expected old values, conflicts inside the transaction, and new
 * objects. Both backends call these, so a transaction is judged the same in either format.
 */
public final class UpdateChecks {

	/** Reads one ref without following symbolic refs; {@code null} if it does not exist (or is broken). */
	@FunctionalInterface
	public interface RefReader {

		Ref read(String name) throws IOException;

	}

	private UpdateChecks() {
	}

	/** {@link #compareNames} as a comparator: the order of {@link #plan}'s map. */
	static final Comparator<String> NAME_ORDER = UpdateChecks::compareNames;

	/** Bytewise order of UTF-8 names: git's order. */
	public static int compareNames(String a, String b) {
		return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Plans a transaction: rejects bad names and duplicates, follows symbolic refs of dereferencing updates,
	 * and adds {@code HEAD}'s log to the update of the branch it points at.
	 * @param updates the submitted updates
	 * @param reader reads current values (without locks: the backends re-read under their locks)
	 * @param outcome collects rejections; on the first one, planning stops
	 * @return the planned updates by changed ref name, in git's name order (empty if rejected)
	 */
	public static TreeMap<String, PlannedUpdate> plan(List<RefUpdate> updates, RefReader reader, Outcome outcome)
			throws IOException {
		TreeMap<String, PlannedUpdate> planned = new TreeMap<>(NAME_ORDER);
		List<RefUpdate> sorted = new ArrayList<>(updates);
		sorted.sort(Comparator.comparing(RefUpdate::name, UpdateChecks::compareNames));
		for (int i = 0; i < sorted.size(); i++) {
			RefUpdate update = sorted.get(i);
			if (i > 0 && sorted.get(i - 1).name().equals(update.name())) {
				outcome.reject(update, Rejection.DUPLICATE_UPDATE,
						"multiple updates for ref '" + update.name() + "' not allowed");
				return planned;
			}
			if (!nameAllowed(update)) {
				outcome.reject(update, Rejection.INVALID_NAME,
						"refusing to update ref with bad name '" + RefName.printable(update.name()) + "'");
				return planned;
			}
		}
		for (RefUpdate update : sorted) {
			String target = update.name();
			String via = null;
			if (!update.noDeref()) {
				Ref ref = reader.read(update.name());
				int depth = 0;
				while (ref instanceof SymbolicRef symbolic && depth++ < RefStore.MAX_SYMREF_DEPTH) {
					via = update.name();
					target = symbolic.target();
					ref = reader.read(target);
				}
			}
			if (planned.containsKey(target)) {
				outcome.reject(update, Rejection.DUPLICATE_UPDATE, (via != null)
						? "multiple updates for '" + target + "' (including one via symref '" + via + "') are not allowed"
						: "multiple updates for ref '" + target + "' not allowed");
				return planned;
			}
			PlannedUpdate item = new PlannedUpdate(update, target);
			if (via != null) {
				item.logOnly().add(via);
			}
			planned.put(target, item);
		}
		Ref head = reader.read("HEAD");
		if (head instanceof SymbolicRef symbolicHead) {
			PlannedUpdate item = planned.get(symbolicHead.target());
			if (item != null && !item.logOnly().contains("HEAD")) {
				if (planned.containsKey("HEAD")) {
					outcome.reject(item.update(), Rejection.DUPLICATE_UPDATE, "multiple updates for 'HEAD' (including"
							+ " one via its referent '" + symbolicHead.target() + "') are not allowed");
					return planned;
				}
				item.logOnly().add("HEAD");
			}
		}
		return planned;
	}

	private static boolean nameAllowed(RefUpdate update) {
		if (update.isDelete() || update.type() == RefUpdate.Type.VERIFY) {
			return RefName.isSafe(update.name()) || RefName.isValid(update.name(), true);
		}
		return RefName.isValid(update.name(), true);
	}

	/**
	 * Checks the expected old value against the value read under the lock.
	 * @return {@code true} if it holds; otherwise the rejection is recorded in {@code outcome}
	 */
	public static boolean checkExpected(PlannedUpdate item, ObjectId zero, Outcome outcome) {
		RefUpdate update = item.update();
		ObjectId expected = update.expectedOld();
		if (update.type() == RefUpdate.Type.VERIFY && expected == null) {
			expected = zero;
		}
		if (expected == null) {
			return true;
		}
		String lock = "cannot lock ref '" + item.name() + "': ";
		if (expected.isZero() && item.old() != null) {
			outcome.reject(update, Rejection.CREATE_EXISTS, lock + "reference already exists");
			return false;
		}
		if (!expected.isZero() && item.old() == null) {
			outcome.reject(update, Rejection.NONEXISTENT_REF, lock + "unable to resolve reference '" + item.name() + "'");
			return false;
		}
		if (!expected.isZero() && !expected.equals(item.oldId())) {
			String actual = (item.oldId() != null) ? item.oldId().name() : "a symbolic ref";
			outcome.reject(update, Rejection.INCORRECT_OLD_VALUE,
					lock + "is at " + actual + " but expected " + expected.name());
			return false;
		}
		return true;
	}

	/**
	 * A conflict of a new ref with another ref of the same transaction ({@code a} and {@code a/b}), as git
	 * words it, or {@code null}.
	 */
	public static String conflictInTransaction(String name, Collection<String> names) {
		if (names instanceof NavigableSet<String> sorted
				&& (sorted.comparator() == null || sorted.comparator() == NAME_ORDER)) {
			return conflictInSorted(name, sorted);
		}
		for (String other : names) {
			if (!other.equals(name) && (other.startsWith(name + "/") || name.startsWith(other + "/"))) {
				return conflictMessage(name, other);
			}
		}
		return null;
	}

	/**
	 * The same answer from names in a lexicographic order, without visiting them all (a transaction creating
	 * a million refs asks once per ref): the conflicting names are the parents of {@code name}, which sort
	 * first and shortest first, then the names under {@code name/}, which sort together right after it.
	 */
	private static String conflictInSorted(String name, NavigableSet<String> names) {
		for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
			String parent = name.substring(0, slash);
			if (names.contains(parent)) {
				return conflictMessage(name, parent);
			}
		}
		String below = names.ceiling(name + "/");
		return (below != null && below.startsWith(name + "/")) ? conflictMessage(name, below) : null;
	}

	private static String conflictMessage(String name, String other) {
		String first = (compareNames(name, other) < 0) ? name : other;
		String second = first.equals(name) ? other : name;
		return "cannot process '" + first + "' and '" + second + "' at the same time";
	}

	/**
	 * Checks that a new value names an existing object, and a commit for a branch, as git does before
	 * writing a ref.
	 * @return {@code true} if it passes; otherwise the rejection is recorded in {@code outcome}
	 */
	public static boolean checkObject(PlannedUpdate item, ObjectDatabase objects, Outcome outcome) throws IOException {
		ObjectId id = item.update().newId();
		ObjectType type = objects.type(id);
		String prefix = "cannot update ref '" + item.name() + "': ";
		if (type == null) {
			outcome.reject(item.update(), Rejection.MISSING_OBJECT,
					prefix + "trying to write ref '" + item.name() + "' with nonexistent object " + id.name());
			return false;
		}
		if (type != ObjectType.COMMIT && item.name().startsWith("refs/heads/")) {
			outcome.reject(item.update(), Rejection.MISSING_OBJECT,
					prefix + "trying to write non-commit object " + id.name() + " to branch '" + item.name() + "'");
			return false;
		}
		return true;
	}

}
