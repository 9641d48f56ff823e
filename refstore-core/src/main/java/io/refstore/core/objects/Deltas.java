package io.refstore.core.objects;

import java.nio.file.Path;

/**
 * Applies a git delta (the inflated data of an {@code OFS_DELTA} or {@code REF_DELTA}
 * pack entry) to its base. Stateless.
 * <p>
 * Format: the base's size and the result's size as little-endian base-128 numbers, then
 * instructions. An instruction byte with the high bit set copies from the base: its low
 * four bits say which offset bytes follow, the next three which size bytes follow (a size
 * of 0 means 0x10000). A byte 1-127 inserts that many literal bytes that follow it. The
 * byte 0 is reserved.
 */
final class Deltas {

	private Deltas() {
	}

	/**
	 * @param base the base object's content
	 * @param delta the inflated delta
	 * @param file the pack, for messages
	 * @param at the delta's data offset in the pack, for messages
	 * @return the rebuilt content
	 * @throws CorruptObjectException if the delta does not fit the base or is malformed
	 */
	static byte[] apply(byte[] base, byte[] delta, Path file, long at) throws CorruptObjectException {
		int[] pos = { 0 };
		long baseSize = varint(delta, pos, file, at);
		long resultSize = varint(delta, pos, file, at);
		if (baseSize != base.length) {
			throw corrupt(file, at, "delta expects a base of " + baseSize + " bytes, the base has " + base.length);
		}
		if (resultSize > Integer.MAX_VALUE - 16) {
			throw corrupt(file, at, "delta result of " + resultSize + " bytes is too large to load");
		}
		byte[] out = new byte[(int) resultSize];
		int done = 0;
		int i = pos[0];
		while (i < delta.length) {
			int op = delta[i++] & 0xff;
			if ((op & 0x80) != 0) {
				long offset = 0;
				long size = 0;
				for (int b = 0; b < 4; b++) {
					if ((op & (1 << b)) != 0) {
						offset |= (long) (byteAt(delta, i++, file, at)) << (8 * b);
					}
				}
				for (int b = 0; b < 3; b++) {
					if ((op & (0x10 << b)) != 0) {
						size |= (long) (byteAt(delta, i++, file, at)) << (8 * b);
					}
				}
				size = (size == 0) ? 0x10000 : size;
				if (offset + size > base.length || done + size > out.length) {
					throw corrupt(file, at, "delta copies outside its base or result");
				}
				System.arraycopy(base, (int) offset, out, done, (int) size);
				done += (int) size;
			}
			else if (op != 0) {
				if (i + op > delta.length || done + op > out.length) {
					throw corrupt(file, at, "delta inserts past its end");
				}
				System.arraycopy(delta, i, out, done, op);
				i += op;
				done += op;
			}
			else {
				throw corrupt(file, at, "delta has the reserved instruction 0");
			}
		}
		if (done != out.length) {
			throw corrupt(file, at, "delta produced " + done + " bytes, its header says " + out.length);
		}
		return out;
	}

	private static long varint(byte[] delta, int[] pos, Path file, long at) throws CorruptObjectException {
		long value = 0;
		int shift = 0;
		int c;
		do {
			if (shift > 56) {
				throw corrupt(file, at, "delta size does not end");
			}
			c = byteAt(delta, pos[0]++, file, at);
			value |= (long) (c & 0x7f) << shift;
			shift += 7;
		}
		while ((c & 0x80) != 0);
		return value;
	}

	private static int byteAt(byte[] delta, int i, Path file, long at) throws CorruptObjectException {
		if (i >= delta.length) {
			throw corrupt(file, at, "delta is cut off");
		}
		return delta[i] & 0xff;
	}

	private static CorruptObjectException corrupt(Path file, long at, String message) {
		return new CorruptObjectException(file, "offset " + at + ": " + message);
	}

}
