package io.refstore.core.txn;

import java.io.IOException;
import java.util.Arrays;

import io.refstore.core.ref.RefCursor;

/**
 * The refs of a store as a bulk check needs them, compactly: names in one byte array in
 * the cursor's (git's) order, each with its raw id or a symbolic flag. Not thread-safe.
 */
final class RefList {

	private final int raw;

	private byte[] names = new byte[1 << 12];

	private int[] starts = new int[65];

	private byte[] ids;

	private boolean[] symbolic = new boolean[64];

	private int size;

	private RefList(int raw) {
		this.raw = raw;
		this.ids = new byte[64 * raw];
	}

	/**
	 * Copies every ref {@code cursor} yields (in its order, which must be bytewise name
	 * order); the cursor is not closed.
	 */
	static RefList load(RefCursor cursor, int rawLength) throws IOException {
		RefList list = new RefList(rawLength);
		while (cursor.next()) {
			list.add(cursor);
		}
		return list;
	}

	private void add(RefCursor cursor) {
		int length = cursor.nameLength();
		int end = this.starts[this.size];
		if (end + length > this.names.length) {
			this.names = Arrays.copyOf(this.names, Math.max(2 * this.names.length, end + length));
		}
		if (this.size == this.symbolic.length) {
			this.symbolic = Arrays.copyOf(this.symbolic, 2 * this.size);
			this.starts = Arrays.copyOf(this.starts, 2 * this.size + 1);
			this.ids = Arrays.copyOf(this.ids, 2 * this.size * this.raw);
		}
		System.arraycopy(cursor.nameBuffer(), 0, this.names, end, length);
		this.starts[this.size + 1] = end + length;
		this.symbolic[this.size] = cursor.isSymbolic();
		if (!cursor.isSymbolic()) {
			System.arraycopy(cursor.idBuffer(), 0, this.ids, this.size * this.raw, this.raw);
		}
		this.size++;
	}

	int size() {
		return this.size;
	}

	byte[] nameBuffer() {
		return this.names;
	}

	int nameStart(int i) {
		return this.starts[i];
	}

	int nameEnd(int i) {
		return this.starts[i + 1];
	}

	boolean isSymbolic(int i) {
		return this.symbolic[i];
	}

	/** Raw ids; ref {@code i}'s is at {@code i * rawLength} (unless symbolic). */
	byte[] idBuffer() {
		return this.ids;
	}

	String name(int i) {
		return new String(this.names, this.starts[i], this.starts[i + 1] - this.starts[i],
				java.nio.charset.StandardCharsets.UTF_8);
	}

}
