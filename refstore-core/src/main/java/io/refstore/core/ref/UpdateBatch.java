package io.refstore.core.ref;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Many updates of object ids held compactly: names as UTF-8 bytes in one array, ids as
 * raw bytes, a few bytes of flags an update. This is how a transaction of a million
 * updates ({@code update-ref --stdin}) is collected and checked without an object per
 * update; {@link #update(int)} gives one back as a {@link RefUpdate}.
 *
 * <p>
 * Holds updates ({@link RefUpdate.Type#UPDATE}, a zero new id deleting), deletions and
 * verifies, each with an optional expected old value (as {@link RefUpdate#expectedOld()}:
 * absent, zero for "must not exist", or an id) and the no-deref flag. Symbolic updates
 * and per-update messages are not held.
 *
 * <p>
 * Not thread-safe.
 */
public final class UpdateBatch {

	private static final byte TYPE_MASK = 3;

	private static final byte HAS_OLD = 4;

	private static final byte NO_DEREF = 8;

	private static final RefUpdate.Type[] TYPES = RefUpdate.Type.values();

	private final HashAlgorithm hash;

	private final int raw;

	private byte[] names = new byte[1 << 12];

	private int namesLength;

	private int[] starts = new int[65];

	private byte[] flags = new byte[64];

	private byte[] newIds;

	private byte[] oldIds;

	private int size;

	/** An empty batch for ids of {@code hash}. */
	public UpdateBatch(HashAlgorithm hash) {
		this.hash = hash;
		this.raw = hash.rawLength();
		this.newIds = new byte[64 * this.raw];
		this.oldIds = new byte[64 * this.raw];
	}

	/**
	 * Appends an update.
	 * @param name the ref name's UTF-8 bytes in {@code name[offset .. offset + length)}
	 * (copied)
	 * @param type {@link RefUpdate.Type#UPDATE}, {@link RefUpdate.Type#DELETE} or
	 * {@link RefUpdate.Type#VERIFY}
	 * @param newId the new value (required for an update, ignored otherwise)
	 * @param expectedOld the expected old value, or {@code null} for no check
	 * @param noDeref whether a symbolic ref is changed itself
	 * @throws IllegalArgumentException for a symbolic update, a missing new id or an id
	 * of another hash
	 */
	public void add(byte[] name, int offset, int length, RefUpdate.Type type, ObjectId newId, ObjectId expectedOld,
			boolean noDeref) {
		if (type == RefUpdate.Type.SYMREF || (type == RefUpdate.Type.UPDATE && newId == null)) {
			throw new IllegalArgumentException("a batch holds only updates with an id, deletions and verifies");
		}
		grow(length);
		System.arraycopy(name, offset, this.names, this.namesLength, length);
		this.namesLength += length;
		int i = this.size++;
		this.starts[i + 1] = this.namesLength;
		byte f = (byte) type.ordinal();
		if (type == RefUpdate.Type.UPDATE) {
			copyId(newId, this.newIds, i);
		}
		if (expectedOld != null) {
			copyId(expectedOld, this.oldIds, i);
			f |= HAS_OLD;
		}
		this.flags[i] = (byte) (f | (noDeref ? NO_DEREF : 0));
	}

	/**
	 * Appends {@code update}.
	 * @throws IllegalArgumentException if a batch cannot hold it ({@link #canHold})
	 */
	public void add(RefUpdate update) {
		if (!canHold(update)) {
			throw new IllegalArgumentException(
					"a batch holds no symbolic update and no update with its own message: " + update.name());
		}
		byte[] name = update.name().getBytes(StandardCharsets.UTF_8);
		add(name, 0, name.length, update.type(), update.newId(), update.expectedOld(), update.noDeref());
	}

	/**
	 * Whether a batch can hold {@code update}: no symbolic update, no message of its own,
	 * no expected old target.
	 */
	public static boolean canHold(RefUpdate update) {
		return update.type() != RefUpdate.Type.SYMREF && update.message() == null && update.expectedOldTarget() == null;
	}

	private void copyId(ObjectId id, byte[] dst, int i) {
		if (id.algorithm() != this.hash) {
			throw new IllegalArgumentException("id " + id.name() + " is not a " + this.hash.configName() + " id");
		}
		id.copyRawTo(dst, i * this.raw);
	}

	private void grow(int nameLength) {
		if (this.namesLength + nameLength > this.names.length) {
			this.names = Arrays.copyOf(this.names, Math.max(this.names.length * 2, this.namesLength + nameLength));
		}
		if (this.size == this.flags.length) {
			int capacity = this.size * 2;
			this.flags = Arrays.copyOf(this.flags, capacity);
			this.starts = Arrays.copyOf(this.starts, capacity + 1);
			this.newIds = Arrays.copyOf(this.newIds, capacity * this.raw);
			this.oldIds = Arrays.copyOf(this.oldIds, capacity * this.raw);
		}
	}

	/** The number of updates. */
	public int size() {
		return this.size;
	}

	/** The hash of the ids. */
	public HashAlgorithm hashAlgorithm() {
		return this.hash;
	}

	/**
	 * The array holding every name; update {@code i}'s is at
	 * {@link #nameStart}..{@link #nameEnd}.
	 */
	public byte[] nameBuffer() {
		return this.names;
	}

	/** Where update {@code i}'s name starts in {@link #nameBuffer()}. */
	public int nameStart(int i) {
		return this.starts[i];
	}

	/** Where update {@code i}'s name ends (exclusive) in {@link #nameBuffer()}. */
	public int nameEnd(int i) {
		return this.starts[i + 1];
	}

	/** Update {@code i}'s name (allocates). */
	public String name(int i) {
		return new String(this.names, this.starts[i], this.starts[i + 1] - this.starts[i], StandardCharsets.UTF_8);
	}

	/** Update {@code i}'s type. */
	public RefUpdate.Type type(int i) {
		return TYPES[this.flags[i] & TYPE_MASK];
	}

	/**
	 * Whether update {@code i} removes its ref (a deletion, or an update to the zero id).
	 */
	public boolean isDelete(int i) {
		RefUpdate.Type type = type(i);
		return type == RefUpdate.Type.DELETE || (type == RefUpdate.Type.UPDATE && isZero(this.newIds, i));
	}

	/** Whether update {@code i} writes a value: an update that does not delete. */
	public boolean writesValue(int i) {
		return type(i) == RefUpdate.Type.UPDATE && !isZero(this.newIds, i);
	}

	/** Whether update {@code i} has an expected old value. */
	public boolean hasExpectedOld(int i) {
		return (this.flags[i] & HAS_OLD) != 0 || type(i) == RefUpdate.Type.VERIFY;
	}

	/** Whether update {@code i}'s expected old value says the ref must not exist. */
	public boolean expectsMissing(int i) {
		return hasExpectedOld(i) && ((this.flags[i] & HAS_OLD) == 0 || isZero(this.oldIds, i));
	}

	/** Whether update {@code i} changes a symbolic ref itself. */
	public boolean noDeref(int i) {
		return (this.flags[i] & NO_DEREF) != 0;
	}

	/** The raw new ids; update {@code i}'s is at {@code i * rawLength}. */
	public byte[] newIdBuffer() {
		return this.newIds;
	}

	/**
	 * The raw expected old ids; update {@code i}'s is at {@code i * rawLength} (if it has
	 * one).
	 */
	public byte[] expectedOldBuffer() {
		return this.oldIds;
	}

	/** Update {@code i}'s new id ({@code null} unless an update). */
	public ObjectId newId(int i) {
		return (type(i) == RefUpdate.Type.UPDATE) ? ObjectId.fromRaw(this.hash, this.newIds, i * this.raw) : null;
	}

	/** Update {@code i} as a {@link RefUpdate} (allocates). */
	public RefUpdate update(int i) {
		ObjectId old = ((this.flags[i] & HAS_OLD) != 0) ? ObjectId.fromRaw(this.hash, this.oldIds, i * this.raw) : null;
		RefUpdate.Type type = type(i);
		RefUpdate update = switch (type) {
			case UPDATE -> RefUpdate.update(name(i), newId(i), old);
			case DELETE -> RefUpdate.delete(name(i), old);
			default -> RefUpdate.verify(name(i), (old != null) ? old : ObjectId.zero(this.hash));
		};
		return noDeref(i) ? update.withNoDeref() : update;
	}

	private boolean isZero(byte[] ids, int i) {
		for (int at = i * this.raw, end = at + this.raw; at < end; at++) {
			if (ids[at] != 0) {
				return false;
			}
		}
		return true;
	}

	/** Compares the names of updates {@code a} and {@code b} bytewise (git's order). */
	public int compareNames(int a, int b) {
		return Arrays.compareUnsigned(this.names, this.starts[a], this.starts[a + 1], this.names, this.starts[b],
				this.starts[b + 1]);
	}

	/**
	 * The updates' indices in git's name order (stable: equal names keep their order).
	 */
	public int[] sortedOrder() {
		int[] order = new int[this.size];
		boolean sorted = true;
		for (int i = 0; i < this.size; i++) {
			order[i] = i;
			if (sorted && i > 0 && compareNames(i - 1, i) > 0) {
				sorted = false;
			}
		}
		if (!sorted) {
			mergeSort(order, new int[this.size], 0, this.size);
		}
		return order;
	}

	/** Sorts {@code a[from .. to)} by name, stably, using {@code tmp} as scratch. */
	private void mergeSort(int[] a, int[] tmp, int from, int to) {
		if (to - from <= 16) {
			for (int i = from + 1; i < to; i++) {
				int v = a[i];
				int j = i - 1;
				while (j >= from && compareNames(a[j], v) > 0) {
					a[j + 1] = a[j];
					j--;
				}
				a[j + 1] = v;
			}
			return;
		}
		int mid = (from + to) >>> 1;
		mergeSort(a, tmp, from, mid);
		mergeSort(a, tmp, mid, to);
		if (compareNames(a[mid - 1], a[mid]) <= 0) {
			return;
		}
		System.arraycopy(a, from, tmp, from, to - from);
		int i = from;
		int j = mid;
		for (int k = from; k < to; k++) {
			if (j >= to || (i < mid && compareNames(tmp[i], tmp[j]) <= 0)) {
				a[k] = tmp[i++];
			}
			else {
				a[k] = tmp[j++];
			}
		}
	}

}
