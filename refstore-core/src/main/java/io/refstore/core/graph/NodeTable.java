package io.refstore.core.graph;

import java.util.Arrays;

/**
 * Raw object ids numbered in the order they are added, found again by open addressing
 * over the ids' own leading bytes (hash output, already uniform). A walk over a hundred
 * thousand commits meets each id several times; keeping them in one array avoids an
 * object and a boxed number per id. Not thread-safe.
 */
final class NodeTable {

	private final int rawLength;

	/** Id {@code i} at {@code i * rawLength}. */
	private byte[] ids;

	/** Index + 1 of the id in each slot, 0 where free; a power of two long. */
	private int[] slots;

	private int count;

	NodeTable(int rawLength) {
		this.rawLength = rawLength;
		this.ids = new byte[64 * rawLength];
		this.slots = new int[128];
	}

	/** How many ids were added. */
	int size() {
		return this.count;
	}

	/** The index of the id at {@code raw[at]}, or -1 if it was never added. */
	int find(byte[] raw, int at) {
		int mask = this.slots.length - 1;
		for (int slot = hash(raw, at) & mask;; slot = (slot + 1) & mask) {
			int entry = this.slots[slot];
			if (entry == 0) {
				return -1;
			}
			if (Arrays.equals(this.ids, (entry - 1) * this.rawLength, entry * this.rawLength, raw, at,
					at + this.rawLength)) {
				return entry - 1;
			}
		}
	}

	/**
	 * Adds the id at {@code raw[at]}, which must not be in the table yet.
	 * @return its index
	 */
	int add(byte[] raw, int at) {
		if ((this.count + 1) * 2 > this.slots.length) {
			rehash(this.slots.length * 2);
		}
		if ((this.count + 1) * this.rawLength > this.ids.length) {
			this.ids = Arrays.copyOf(this.ids, this.ids.length * 2);
		}
		int index = this.count++;
		System.arraycopy(raw, at, this.ids, index * this.rawLength, this.rawLength);
		place(index);
		return index;
	}

	/** Copies id {@code index} into {@code out} from offset 0. */
	void copy(int index, byte[] out) {
		System.arraycopy(this.ids, index * this.rawLength, out, 0, this.rawLength);
	}

	private void rehash(int length) {
		this.slots = new int[length];
		for (int i = 0; i < this.count; i++) {
			place(i);
		}
	}

	private void place(int index) {
		int mask = this.slots.length - 1;
		int slot = hash(this.ids, index * this.rawLength) & mask;
		while (this.slots[slot] != 0) {
			slot = (slot + 1) & mask;
		}
		this.slots[slot] = index + 1;
	}

	private static int hash(byte[] raw, int at) {
		return (raw[at] & 0xff) << 24 | (raw[at + 1] & 0xff) << 16 | (raw[at + 2] & 0xff) << 8 | (raw[at + 3] & 0xff);
	}

}
