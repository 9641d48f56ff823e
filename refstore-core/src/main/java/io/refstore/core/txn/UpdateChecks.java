package io.refstore.core.txn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.SymbolicRef;
import io.refstore.core.ref.UpdateResult;

/**
 * The checks of a transaction that do not depend on the storage format, with git's
 * messages: names, duplicates, symbolic refs followed, expected old values, conflicts
 * inside the transaction, and new objects. Both backends call these, so a transaction is
 * judged the same in either format.
 */
public final class UpdateChecks {

	/**
	 * Reads one ref without following symbolic refs; {@code null} if it does not exist
	 * (or is broken).
	 */
	@FunctionalInterface
	public interface RefReader {

		Ref read(String name) throws IOException;

	}

	private UpdateChecks() {
	}

	/** Bytewise order of UTF-8 names: git's order. */
	public static int compareNames(String a, String b) {
		// UTF-8 byte order is code point order; UTF-16 unit order agrees with it except
		// that a supplementary
		// code point (a surrogate pair) sorts after U+E000..U+FFFF: compare units, fixing
		// up that one case,
		// without encoding either string
		int length = Math.min(a.length(), b.length());
		for (int i = 0; i < length; i++) {
			char x = a.charAt(i);
			char y = b.charAt(i);
			if (x != y) {
				boolean xs = Character.isSurrogate(x);
				boolean ys = Character.isSurrogate(y);
				return (xs == ys) ? x - y : (xs ? 1 : -1);
			}
		}
		return a.length() - b.length();
	}

	/**
	 * Plans a transaction: rejects bad names and duplicates, follows symbolic refs of
	 * dereferencing updates, and adds {@code HEAD}'s log to the update of the branch it
	 * points at.
	 * @param updates the submitted updates
	 * @param reader reads current values (without locks: the backends re-read under their
	 * locks)
	 * @param outcome collects rejections; on the first one, planning stops
	 * @return the planned updates by changed ref name, in git's name order (empty if
	 * rejected)
	 */
	public static TreeMap<String, PlannedUpdate> plan(List<RefUpdate> updates, RefReader reader, Outcome outcome)
			throws IOException {
		TreeMap<String, PlannedUpdate> planned = new TreeMap<>(UpdateChecks::compareNames);
		Integer[] order = new Integer[updates.size()];
		for (int i = 0; i < order.length; i++) {
			order[i] = i;
		}
		java.util.Arrays.sort(order,
				Comparator.comparing((Integer i) -> updates.get(i).name(), UpdateChecks::compareNames));
		List<RefUpdate> sorted = new ArrayList<>(updates.size());
		for (Integer i : order) {
			sorted.add(updates.get(i));
		}
		for (int i = 0; i < sorted.size(); i++) {
			RefUpdate update = sorted.get(i);
			if (i > 0 && sorted.get(i - 1).name().equals(update.name())) {
				outcome.reject(update, Rejection.DUPLICATE_UPDATE,
						"multiple updates for ref '" + update.name() + "' not allowed");
				return planned;
			}
			// as git: a deletion, a verify or a symbolic ref's write checks only that the
			// name is safe as a path (git's symbolic-ref writes refs/heads/a..b)
			String refusal = nameRefusal(update.name(), update.isDelete() || update.type() == RefUpdate.Type.VERIFY
					|| update.type() == RefUpdate.Type.SYMREF);
			if (refusal != null) {
				outcome.reject(update, Rejection.INVALID_NAME, RefName.printable(refusal));
				return planned;
			}
		}
		for (int k = 0; k < sorted.size(); k++) {
			RefUpdate update = sorted.get(k);
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
			PlannedUpdate earlier = planned.get(target);
			// a symbolic ref that points at itself: git's update of its referent meets
			// the
			// update through it
			boolean selfReferent = via != null && target.equals(update.name());
			if (earlier != null || selfReferent) {
				// either update may be the one through a symbolic ref: git names it
				if (via == null && !earlier.update().name().equals(target)) {
					via = earlier.update().name();
				}
				if (via != null) {
					outcome.reject(
							update, Rejection.DUPLICATE_UPDATE, "multiple updates for '" + target
									+ "' (including one via symref '" + via + "') are not allowed",
							UpdateResult.Detail.VIA_SYMREF);
				}
				else {
					outcome.reject(update, Rejection.DUPLICATE_UPDATE,
							"multiple updates for ref '" + target + "' not allowed");
				}
				return planned;
			}
			PlannedUpdate item = new PlannedUpdate(update, target, order[k]);
			if (via != null) {
				item.logOnly().add(via);
			}
			planned.put(target, item);
		}
		Ref head = reader.read("HEAD");
		if (head instanceof SymbolicRef symbolicHead) {
			PlannedUpdate item = planned.get(symbolicHead.target());
			// git logs HEAD when its branch moves, not when the branch is turned into a
			// symbolic ref
			if (item != null && !item.logOnly().contains("HEAD") && item.update().type() != RefUpdate.Type.SYMREF) {
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

	/**
	 * Why git 2.55 refuses to touch {@code name} in a transaction, in its words with the
	 * name as given (a rejection's message escapes it: {@link RefName#printable}), or
	 * {@code null}: a bad name (only safety is checked for a deletion, a verify or a
	 * symbolic ref's write, so a valid one-level name such as "foo" is still refused
	 * there), then a pseudoref, which no transaction writes.
	 * @param removesOrVerifies whether the update deletes, verifies or writes a symbolic
	 * ref
	 */
	public static String nameRefusal(String name, boolean removesOrVerifies) {
		if (removesOrVerifies ? !RefName.isSafe(name) : !RefName.isValid(name, true)) {
			return "refusing to update ref with bad name '" + name + "'";
		}
		if (RefName.isPseudoRef(name)) {
			return "refusing to update pseudoref '" + name + "'";
		}
		return null;
	}

	/**
	 * Checks the expected old value against the value read under the lock.
	 * @return {@code true} if it holds; otherwise the rejection is recorded in
	 * {@code outcome}
	 */
	public static boolean checkExpected(PlannedUpdate item, ObjectId zero, Outcome outcome) {
		RefUpdate update = item.update();
		if (update.expectedOldTarget() != null) {
			return checkExpectedTarget(item, update.expectedOldTarget(), outcome);
		}
		ObjectId expected = update.expectedOld();
		if (update.type() == RefUpdate.Type.VERIFY && expected == null) {
			expected = zero;
		}
		if (expected == null) {
			return true;
		}
		// git names the ref as given, the one the lock is taken through (a symbolic ref
		// followed), and the ref it found missing
		String lock = "cannot lock ref '" + update.name() + "': ";
		// a symbolic ref changed without dereferencing is judged by what it resolves to;
		// dangling means missing
		ObjectId actual = item.resolvedOld();
		if (expected.isZero() && actual == null && item.old() instanceof SymbolicRef) {
			// a creation without dereferencing does not replace a symbolic ref, dangling
			// or not
			outcome.reject(update, Rejection.CREATE_EXISTS, lock + "dangling symref already exists");
			return false;
		}
		if (expected.isZero() && actual != null) {
			outcome.reject(update, Rejection.CREATE_EXISTS, lock + "reference already exists");
			return false;
		}
		if (!expected.isZero() && actual == null) {
			outcome.reject(update, Rejection.NONEXISTENT_REF,
					(item.old() instanceof SymbolicRef) ? lock + "reference is missing but expected " + expected.name()
							: lock + "unable to resolve reference '" + item.name() + "'");
			return false;
		}
		if (!expected.isZero() && !expected.equals(actual)) {
			outcome.reject(update, Rejection.INCORRECT_OLD_VALUE,
					lock + "is at " + actual.name() + " but expected " + expected.name());
			return false;
		}
		return true;
	}

	/**
	 * Checks that the ref read under the lock is symbolic and points at {@code expected},
	 * in git's words otherwise.
	 */
	private static boolean checkExpectedTarget(PlannedUpdate item, String expected, Outcome outcome) {
		RefUpdate update = item.update();
		String lock = "cannot lock ref '" + update.name() + "': ";
		Ref old = item.old();
		if (old == null) {
			outcome.reject(update, Rejection.NONEXISTENT_REF,
					lock + "unable to resolve reference '" + item.name() + "'");
			return false;
		}
		if (!(old instanceof SymbolicRef symbolic)) {
			outcome.reject(update, Rejection.INCORRECT_OLD_VALUE,
					lock + "expected symref with target '" + expected + "': but is a regular ref",
					UpdateResult.Detail.REGULAR_WHERE_SYMREF_EXPECTED);
			return false;
		}
		if (!symbolic.target().equals(expected)) {
			outcome.reject(update, Rejection.INCORRECT_OLD_VALUE, "verifying symref target: '" + item.name()
					+ "': is at " + symbolic.target() + " but expected " + expected);
			return false;
		}
		return true;
	}

	/**
	 * Whether a duplicate update was refused because one of the two goes through a
	 * symbolic ref: git's {@code --batch-updates} leaves that one out as a refname
	 * conflict.
	 * @param result a refused update
	 */
	public static boolean isDuplicateViaSymref(UpdateResult result) {
		return result.detail() == UpdateResult.Detail.VIA_SYMREF;
	}

	/**
	 * Whether {@code result} refuses an update that expected a symbolic ref's target
	 * where a regular ref is: git 2.55 gives it a reason of its own
	 * ({@code update-ref --batch-updates}), though it is an incorrect old value.
	 */
	public static boolean isRegularWhereSymrefExpected(UpdateResult result) {
		return result.detail() == UpdateResult.Detail.REGULAR_WHERE_SYMREF_EXPECTED;
	}

	/**
	 * A conflict of a new ref with another ref of the same transaction ({@code a} and
	 * {@code a/b}) below it, as git words it, or {@code null}. Looks only at the names
	 * right after it in {@code names}' order, so a transaction of a million creates is
	 * not quadratic.
	 * @param names the transaction's ref names, in git's order (as {@link #plan} returns
	 * them)
	 */
	public static String conflictInTransaction(String name, NavigableMap<String, ?> names) {
		// only refs below: git blames a conflict on the shorter name, whose check finds
		// the longer one (a parent that exists is found by the store's own checks)
		String child = names.ceilingKey(name + "/");
		if (child != null && child.startsWith(name + "/")) {
			return "cannot process '" + name + "' and '" + child + "' at the same time";
		}
		return null;
	}

	/**
	 * Whether git treats {@code name} as a branch, which only commits may be written to:
	 * HEAD too.
	 */
	private static boolean isBranch(String name) {
		return name.equals("HEAD") || name.startsWith("refs/heads/");
	}

	/** {@link #isBranch(String)} for the UTF-8 name in {@code buf[start .. end)}. */
	static boolean isBranch(byte[] buf, int start, int end) {
		byte[] head = HEAD;
		if (end - start == head.length && java.util.Arrays.equals(buf, start, end, head, 0, head.length)) {
			return true;
		}
		byte[] heads = HEADS;
		return end - start >= heads.length
				&& java.util.Arrays.equals(buf, start, start + heads.length, heads, 0, heads.length);
	}

	private static final byte[] HEAD = { 'H', 'E', 'A', 'D' };

	private static final byte[] HEADS = "refs/heads/".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

	/**
	 * Checks that a new value names an existing object, and a commit for a branch, as git
	 * does before writing a ref (with git 2.55's messages, which no longer start with
	 * {@code cannot update ref}).
	 * @return {@code true} if it passes; otherwise the rejection is recorded in
	 * {@code outcome}
	 */
	public static boolean checkObject(PlannedUpdate item, ObjectDatabase objects, Outcome outcome) throws IOException {
		ObjectId id = item.update().newId();
		ObjectType type = objects.type(id);
		item.setNewType(type);
		if (type == null) {
			outcome.reject(item.update(), Rejection.MISSING_OBJECT,
					"trying to write ref '" + item.name() + "' with nonexistent object " + id.name());
			return false;
		}
		if (type != ObjectType.COMMIT && isBranch(item.name())) {
			outcome.reject(item.update(), Rejection.MISSING_OBJECT,
					"trying to write non-commit object " + id.name() + " to branch '" + item.name() + "'");
			return false;
		}
		return true;
	}

}
