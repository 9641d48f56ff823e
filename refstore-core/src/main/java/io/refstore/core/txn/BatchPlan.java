package io.refstore.core.txn;

import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.ref.Rejection;
import io.refstore.core.ref.UpdateBatch;

/**
 * The checks of {@link UpdateChecks} for a whole {@link UpdateBatch} at once, in sorted
 * passes instead of a lookup per update: names and duplicates in one pass over the sorted
 * names, old values by merging them with the store's refs (read in order under the
 * backend's lock), directory/file conflicts in one pass over both sorted lists, and new
 * objects once each. Rejections carry the same messages, for the same first update in
 * name order, as the per-update checks.
 *
 * <p>
 * A batch is planned here only if no update goes through a symbolic ref: every name is
 * below {@code refs/}, and {@link #check} reports {@link Status#UNSUPPORTED} when a named
 * ref is symbolic (the backend then plans update by update). Not thread-safe.
 */
public final class BatchPlan {

	/** What {@link #check} found. */
	public enum Status {

		/** Every update passed; the plan can be applied. */
		OK,
		/** An update was rejected (recorded in the outcome). */
		REJECTED,
		/** A named ref is symbolic: plan update by update instead. */
		UNSUPPORTED

	}

	private static final int PARENT_EXISTING = 0;

	private static final int CHILD_EXISTING = 1;

	private static final int PARENT_UPDATED = 2;

	private static final int CHILD_UPDATED = 3;

	private final UpdateBatch batch;

	private final int[] order;

	private final int raw;

	private RefList existing;

	/** Per sorted position: the index of the ref in {@link #existing} it names, or -1. */
	private int[] old;

	/**
	 * Per sorted position with a conflict: the conflicting names, by kind (-1 for none).
	 */
	private final Map<Integer, int[]> conflicts = new HashMap<>();

	private byte[] peeled;

	private final BitSet hasPeeled = new BitSet();

	/** Sorts the batch by name. */
	public BatchPlan(UpdateBatch batch) {
		this.batch = batch;
		this.order = batch.sortedOrder();
		this.raw = batch.hashAlgorithm().rawLength();
	}

	/** The batch. */
	public UpdateBatch batch() {
		return this.batch;
	}

	/** The number of updates. */
	public int size() {
		return this.order.length;
	}

	/** The batch index of the {@code k}-th update in name order. */
	public int index(int k) {
		return this.order[k];
	}

	/**
	 * Whether every name is below {@code refs/}, so that no update can name a root or
	 * pseudo ref.
	 */
	boolean eligible() {
		byte[] names = this.batch.nameBuffer();
		for (int i = 0; i < this.order.length; i++) {
			int at = this.batch.nameStart(i);
			if (!startsWithRefs(names, at, this.batch.nameEnd(i) - at)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether the name in {@code names[start .. start + length)} is {@code refs/} and
	 * more.
	 */
	private static boolean startsWithRefs(byte[] names, int start, int length) {
		return length > 5 && names[start] == 'r' && names[start + 1] == 'e' && names[start + 2] == 'f'
				&& names[start + 3] == 's' && names[start + 4] == '/';
	}

	/** The position in name order of the update that names {@code name}, or -1. */
	public int find(String name) {
		byte[] key = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
		byte[] names = this.batch.nameBuffer();
		int low = 0;
		int high = this.order.length - 1;
		while (low <= high) {
			int mid = (low + high) >>> 1;
			int i = this.order[mid];
			int c = Arrays.compareUnsigned(names, this.batch.nameStart(i), this.batch.nameEnd(i), key, 0, key.length);
			if (c == 0) {
				return mid;
			}
			if (c < 0) {
				low = mid + 1;
			}
			else {
				high = mid - 1;
			}
		}
		return -1;
	}

	/**
	 * The checks before any lock: duplicates and names, as {@link UpdateChecks#plan}
	 * makes them.
	 * @return {@code false} if an update was rejected (recorded in {@code outcome})
	 */
	boolean checkNames(Outcome outcome) {
		byte[] names = this.batch.nameBuffer();
		for (int k = 0; k < this.order.length; k++) {
			int i = this.order[k];
			if (k > 0 && this.batch.compareNames(this.order[k - 1], i) == 0) {
				String name = this.batch.name(i);
				outcome.reject(i, this.batch.update(i), Rejection.DUPLICATE_UPDATE,
						"multiple updates for ref '" + name + "' not allowed");
				return false;
			}
			int start = this.batch.nameStart(i);
			int length = this.batch.nameEnd(i) - start;
			boolean removesOrVerifies = this.batch.isDelete(i) || this.batch.type(i) == RefUpdate.Type.VERIFY;
			// the common case, a valid name under refs/, is decided on the bytes without
			// making a String
			if (removesOrVerifies || !startsWithRefs(names, start, length)
					|| RefName.violation(names, start, length, true) != null) {
				String refusal = UpdateChecks.nameRefusal(this.batch.name(i), removesOrVerifies);
				if (refusal != null) {
					outcome.reject(i, this.batch.update(i), Rejection.INVALID_NAME, RefName.printable(refusal));
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * The checks under the backend's lock, in {@link UpdateChecks}' order for each update
	 * in name order: expected old value, name conflicts (for a ref that does not exist),
	 * new object.
	 * @param refs every ref of the store, in name order, as it is under the lock (not
	 * closed here)
	 * @param objects the object database
	 * @param outcome collects the first rejection
	 */
	public Status check(RefCursor refs, ObjectDatabase objects, Outcome outcome) throws IOException {
		this.existing = RefList.load(refs, this.raw);
		if (!mergeOldValues()) {
			return Status.UNSUPPORTED;
		}
		findConflicts();
		ObjectId zero = ObjectId.zero(this.batch.hashAlgorithm());
		for (int k = 0; k < this.order.length; k++) {
			int i = this.order[k];
			if (!checkExpected(k, i)) {
				UpdateChecks.checkExpected(planned(k), zero, outcome);
				outcome.markBatchIndex(i);
				return Status.REJECTED;
			}
			if (this.old[k] < 0 && this.conflicts.containsKey(k)) {
				outcome.reject(i, this.batch.update(i), Rejection.NAME_CONFLICT,
						"cannot lock ref '" + this.batch.name(i) + "': " + conflictMessage(k));
				return Status.REJECTED;
			}
			if (writes(k) && !checkObject(k, objects)) {
				UpdateChecks.checkObject(planned(k), objects, outcome);
				outcome.markBatchIndex(i);
				return Status.REJECTED;
			}
		}
		return Status.OK;
	}

	/**
	 * Merges the sorted names with the store's; {@code false} if a named ref is symbolic.
	 */
	private boolean mergeOldValues() {
		this.old = new int[this.order.length];
		byte[] names = this.batch.nameBuffer();
		RefList refs = this.existing;
		int e = 0;
		for (int k = 0; k < this.order.length; k++) {
			int i = this.order[k];
			int c = 1;
			while (e < refs.size() && (c = Arrays.compareUnsigned(refs.nameBuffer(), refs.nameStart(e), refs.nameEnd(e),
					names, this.batch.nameStart(i), this.batch.nameEnd(i))) < 0) {
				e++;
			}
			if (e < refs.size() && c == 0) {
				if (refs.isSymbolic(e)) {
					return false;
				}
				this.old[k] = e;
			}
			else {
				this.old[k] = -1;
			}
		}
		return true;
	}

	private boolean checkExpected(int k, int i) {
		if (!this.batch.hasExpectedOld(i)) {
			return true;
		}
		if (this.batch.expectsMissing(i)) {
			return this.old[k] < 0;
		}
		return this.old[k] >= 0 && Arrays.equals(this.batch.expectedOldBuffer(), i * this.raw, (i + 1) * this.raw,
				this.existing.idBuffer(), this.old[k] * this.raw, (this.old[k] + 1) * this.raw);
	}

	/**
	 * Checks the new object, remembering a tag's peeled value; {@code false} if it is
	 * refused.
	 */
	private boolean checkObject(int k, ObjectDatabase objects) throws IOException {
		int i = this.order[k];
		ObjectId id = this.batch.newId(i);
		ObjectType type = objects.type(id);
		if (type == null) {
			return false;
		}
		if (type == ObjectType.TAG) {
			ObjectId peel = objects.peel(id);
			if (peel != null) {
				if (this.peeled == null) {
					this.peeled = new byte[this.order.length * this.raw];
				}
				peel.copyRawTo(this.peeled, k * this.raw);
				this.hasPeeled.set(k);
			}
		}
		return type == ObjectType.COMMIT
				|| !UpdateChecks.isBranch(this.batch.nameBuffer(), this.batch.nameStart(i), this.batch.nameEnd(i));
	}

	/** The update as the per-update checks see it, to word a rejection as they do. */
	private PlannedUpdate planned(int k) throws IOException {
		int i = this.order[k];
		PlannedUpdate item = new PlannedUpdate(this.batch.update(i), this.batch.name(i));
		item.setOld((this.old[k] < 0) ? null : new DirectRef(item.name(), oldId(k)), (name) -> null);
		return item;
	}

	/**
	 * One pass over the union of both sorted name lists, keeping the names that are
	 * prefixes of the current one on a stack: a name below another ({@code a/b} below
	 * {@code a}) always comes after it with only names starting with it in between, so
	 * every parent of a name is on the stack when the name is reached.
	 */
	private void findConflicts() {
		RefList refs = this.existing;
		byte[] names = this.batch.nameBuffer();
		int[] stackK = new int[16];
		int[] stackE = new int[16];
		int depth = 0;
		int k = 0;
		int e = 0;
		while (k < this.order.length || e < refs.size()) {
			int c;
			if (k == this.order.length) {
				c = 1;
			}
			else if (e == refs.size()) {
				c = -1;
			}
			else {
				int i = this.order[k];
				c = Arrays.compareUnsigned(names, this.batch.nameStart(i), this.batch.nameEnd(i), refs.nameBuffer(),
						refs.nameStart(e), refs.nameEnd(e));
			}
			int nodeK = (c <= 0) ? k++ : -1;
			int nodeE = (c >= 0) ? e++ : -1;
			byte[] buf = (nodeK >= 0) ? names : refs.nameBuffer();
			int start = (nodeK >= 0) ? this.batch.nameStart(this.order[nodeK]) : refs.nameStart(nodeE);
			int end = (nodeK >= 0) ? this.batch.nameEnd(this.order[nodeK]) : refs.nameEnd(nodeE);
			while (depth > 0 && !isParentOrPrefix(stackK[depth - 1], stackE[depth - 1], buf, start, end, false)) {
				depth--;
			}
			for (int s = 0; s < depth; s++) {
				if (isParentOrPrefix(stackK[s], stackE[s], buf, start, end, true)) {
					recordConflict(stackK[s], stackE[s], nodeK, nodeE);
				}
			}
			if (depth == stackK.length) {
				stackK = Arrays.copyOf(stackK, 2 * depth);
				stackE = Arrays.copyOf(stackE, 2 * depth);
			}
			stackK[depth] = nodeK;
			stackE[depth] = nodeE;
			depth++;
		}
	}

	/**
	 * Whether the node's name is a proper prefix of {@code buf[start .. end)} (followed
	 * by '/' if asked).
	 */
	private boolean isParentOrPrefix(int nodeK, int nodeE, byte[] buf, int start, int end, boolean slash) {
		byte[] own = (nodeK >= 0) ? this.batch.nameBuffer() : this.existing.nameBuffer();
		int from = (nodeK >= 0) ? this.batch.nameStart(this.order[nodeK]) : this.existing.nameStart(nodeE);
		int to = (nodeK >= 0) ? this.batch.nameEnd(this.order[nodeK]) : this.existing.nameEnd(nodeE);
		int length = to - from;
		if (length >= end - start || (slash && buf[start + length] != '/')) {
			return false;
		}
		return Arrays.equals(own, from, to, buf, start, start + length);
	}

	/**
	 * Records that the parent node has the child node below it; first (shortest,
	 * smallest) wins.
	 */
	private void recordConflict(int parentK, int parentE, int childK, int childE) {
		if (childK >= 0) {
			int[] found = this.conflicts.computeIfAbsent(childK, (key) -> new int[] { -1, -1, -1, -1 });
			if (parentE >= 0 && found[PARENT_EXISTING] < 0) {
				found[PARENT_EXISTING] = parentE;
			}
			if (parentK >= 0 && found[PARENT_UPDATED] < 0) {
				found[PARENT_UPDATED] = parentK;
			}
		}
		if (parentK >= 0) {
			int[] found = this.conflicts.computeIfAbsent(parentK, (key) -> new int[] { -1, -1, -1, -1 });
			if (childE >= 0 && found[CHILD_EXISTING] < 0) {
				found[CHILD_EXISTING] = childE;
			}
			if (childK >= 0 && found[CHILD_UPDATED] < 0) {
				found[CHILD_UPDATED] = childK;
			}
		}
	}

	/**
	 * git's words for the first conflict of the update at {@code k}, in the per-update
	 * checks' order.
	 */
	private String conflictMessage(int k) {
		int[] found = this.conflicts.get(k);
		String name = this.batch.name(this.order[k]);
		if (found[PARENT_EXISTING] >= 0) {
			return "'" + this.existing.name(found[PARENT_EXISTING]) + "' exists; cannot create '" + name + "'";
		}
		if (found[CHILD_EXISTING] >= 0) {
			return "'" + this.existing.name(found[CHILD_EXISTING]) + "' exists; cannot create '" + name + "'";
		}
		if (found[PARENT_UPDATED] >= 0) {
			return "cannot process '" + this.batch.name(this.order[found[PARENT_UPDATED]]) + "' and '" + name
					+ "' at the same time";
		}
		return "cannot process '" + name + "' and '" + this.batch.name(this.order[found[CHILD_UPDATED]])
				+ "' at the same time";
	}

	/** Whether the {@code k}-th update's ref exists (under the lock). */
	public boolean exists(int k) {
		return this.old[k] >= 0;
	}

	/**
	 * The {@code k}-th update's old id, or {@code null} if its ref does not exist
	 * (allocates).
	 */
	public ObjectId oldId(int k) {
		return (this.old[k] < 0) ? null
				: ObjectId.fromRaw(this.batch.hashAlgorithm(), this.existing.idBuffer(), this.old[k] * this.raw);
	}

	/**
	 * Whether the {@code k}-th update writes a new value (an update that neither deletes
	 * nor keeps the value).
	 */
	public boolean writes(int k) {
		int i = this.order[k];
		if (!this.batch.writesValue(i)) {
			return false;
		}
		// an update to the value the ref already has writes nothing (as
		// PlannedUpdate#isNoOp)
		return this.old[k] < 0 || !Arrays.equals(this.batch.newIdBuffer(), i * this.raw, (i + 1) * this.raw,
				this.existing.idBuffer(), this.old[k] * this.raw, (this.old[k] + 1) * this.raw);
	}

	/** Whether the {@code k}-th update removes a ref that exists. */
	public boolean deletesExisting(int k) {
		return this.old[k] >= 0 && this.batch.isDelete(this.order[k]);
	}

	/**
	 * Whether the {@code k}-th update's new object is a tag with a peeled value
	 * ({@link #peeledBuffer()}).
	 */
	public boolean hasPeeled(int k) {
		return this.hasPeeled.get(k);
	}

	/**
	 * The peeled ids of new tags; the {@code k}-th update's is at {@code k * rawLength}.
	 */
	public byte[] peeledBuffer() {
		return this.peeled;
	}

}
