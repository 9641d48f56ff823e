package io.refstore.core.reftable.format;

import java.util.Arrays;

/**
 * Collects, while refs are written, which ref blocks hold each object id (as value or
 * peeled value), for the object index. Ids live in one flat array with an open-addressing
 * hash table over it, so a million ids cost a few tens of megabytes instead of a million
 * objects.
 *
 * <p>
 * Not thread-safe.
 */
final class ObjIndexBuilder {

	private final int hashSize;

	private byte[] ids;

	/** The first block position of each id. */
	private long[] first;

	/**
	 * Further positions of ids found in more than one block; {@code null} for most ids.
	 */
	private long[][] more;

	private int[] moreCount;

	/** Slot {@code i} holds id number + 1, or 0 if free. */
	private int[] slots;

	private int count;

	ObjIndexBuilder(int hashSize) {
		this.hashSize = hashSize;
		this.ids = new byte[64 * hashSize];
		this.first = new long[64];
		this.more = new long[64][];
		this.moreCount = new int[64];
		this.slots = new int[128];
	}

	/** Number of distinct ids. */
	int size() {
		return this.count;
	}

	/**
	 * Records that the ref block at {@code position} holds {@code id[0, hashSize)}.
	 * Positions arrive in ascending order; a block is listed once per id.
	 */
	void add(byte[] id, long position) {
		int mask = this.slots.length - 1;
		for (int slot = hash(id) & mask;; slot = (slot + 1) & mask) {
			int entry = this.slots[slot];
			if (entry == 0) {
				insert(slot, id, position);
				return;
			}
			if (Arrays.equals(this.ids, (entry - 1) * this.hashSize, entry * this.hashSize, id, 0, this.hashSize)) {
				addPosition(entry - 1, position);
				return;
			}
		}
	}

	private static int hash(byte[] id) {
		int h = ((id[0] & 0xff) << 24) | ((id[1] & 0xff) << 16) | ((id[2] & 0xff) << 8) | (id[3] & 0xff);
		return h * 0x9E3779B9 ^ (h >>> 16);
	}

	private void insert(int slot, byte[] id, long position) {
		int n = this.count;
		if (n == this.first.length) {
			int capacity = 2 * n;
			this.ids = Arrays.copyOf(this.ids, capacity * this.hashSize);
			this.first = Arrays.copyOf(this.first, capacity);
			this.more = Arrays.copyOf(this.more, capacity);
			this.moreCount = Arrays.copyOf(this.moreCount, capacity);
		}
		System.arraycopy(id, 0, this.ids, n * this.hashSize, this.hashSize);
		this.first[n] = position;
		this.slots[slot] = n + 1;
		this.count = n + 1;
		if (2 * this.count > this.slots.length) {
			rehash();
		}
	}

	private void rehash() {
		int[] old = this.slots;
		this.slots = new int[2 * old.length];
		int mask = this.slots.length - 1;
		byte[] id = new byte[this.hashSize];
		for (int entry : old) {
			if (entry != 0) {
				System.arraycopy(this.ids, (entry - 1) * this.hashSize, id, 0, this.hashSize);
				int slot = hash(id) & mask;
				while (this.slots[slot] != 0) {
					slot = (slot + 1) & mask;
				}
				this.slots[slot] = entry;
			}
		}
	}

	private void addPosition(int n, long position) {
		int extra = this.moreCount[n];
		long last = (extra == 0) ? this.first[n] : this.more[n][extra - 1];
		if (last == position) {
			return;
		}
		if (this.more[n] == null) {
			this.more[n] = new long[4];
		}
		else if (extra == this.more[n].length) {
			this.more[n] = Arrays.copyOf(this.more[n], 2 * extra);
		}
		this.more[n][extra] = position;
		this.moreCount[n] = extra + 1;
	}

	/**
	 * The ids' numbers in ascending id order. Sorts primitive keys, each an id's leading
	 * bits with its number in the low bits, so that no comparison reads the ids
	 * themselves; ids whose leading bits are equal (rare for hashes) are then ordered by
	 * their whole bytes.
	 */
	int[] sortedOrder() {
		int n = this.count;
		int bits = 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1));
		long[] keyed = new long[n];
		for (int i = 0; i < n; i++) {
			// one bit less than the rest keeps the key non-negative, so that signed order
			// is unsigned order
			long leading = leading(i);
			keyed[i] = ((leading >>> (bits + 1)) << bits) | i;
		}
		Arrays.sort(keyed);
		int[] order = new int[n];
		long mask = (1L << bits) - 1;
		for (int i = 0; i < n; i++) {
			order[i] = (int) (keyed[i] & mask);
		}
		for (int start = 0, end; start < n; start = end) {
			end = start + 1;
			while (end < n && (keyed[end] >>> bits) == (keyed[start] >>> bits)) {
				end++;
			}
			if (end - start > 1) {
				insertionSort(order, start, end);
			}
		}
		return order;
	}

	/**
	 * The first eight bytes of id {@code n}, big-endian. Shifts, not a byte-array view
	 * handle: a handle runs through the interpreter's method-handle path until it is
	 * compiled, which cost a restore of 45,000 refs as much as the rest of this class.
	 */
	private long leading(int n) {
		int at = n * this.hashSize;
		long value = 0;
		for (int k = 0; k < 8; k++) {
			value = (value << 8) | (this.ids[at + k] & 0xff);
		}
		return value;
	}

	private void insertionSort(int[] a, int from, int to) {
		for (int i = from + 1; i < to; i++) {
			int value = a[i];
			int j = i - 1;
			while (j >= from && compare(a[j], value) > 0) {
				a[j + 1] = a[j];
				j--;
			}
			a[j + 1] = value;
		}
	}

	/** Compares the ids numbered {@code a} and {@code b}, bytewise unsigned. */
	int compare(int a, int b) {
		return Arrays.compareUnsigned(this.ids, a * this.hashSize, (a + 1) * this.hashSize, this.ids, b * this.hashSize,
				(b + 1) * this.hashSize);
	}

	/** Number of leading bytes the ids numbered {@code a} and {@code b} share. */
	int commonPrefix(int a, int b) {
		int n = Arrays.mismatch(this.ids, a * this.hashSize, (a + 1) * this.hashSize, this.ids, b * this.hashSize,
				(b + 1) * this.hashSize);
		return (n < 0) ? this.hashSize : n;
	}

	/**
	 * Fills {@code rec} with the first {@code idLength} bytes of id {@code n} and all its
	 * positions.
	 */
	void fill(int n, int idLength, ObjRecord rec) {
		rec.setKey(this.ids, n * this.hashSize, idLength);
		int total = 1 + this.moreCount[n];
		if (rec.positions.length < total) {
			rec.positions = new long[Math.max(total, 2 * rec.positions.length)];
		}
		rec.positions[0] = this.first[n];
		if (total > 1) {
			System.arraycopy(this.more[n], 0, rec.positions, 1, total - 1);
		}
		rec.count = total;
	}

}
