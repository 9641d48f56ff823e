package io.refstore.core.reftable.format;

/**
 * The reftable varint (the same as git's pack offset encoding, not LEB128): big end
 * first, seven bits a byte, the high bit meaning "more follows", and each continuation
 * adding one before the shift so that every value has exactly one encoding. Values are
 * unsigned 64-bit numbers held in a {@code long}.
 *
 * <p>
 * Stateless and thread-safe. Decoding lives in {@link BlockReader}, which bounds it by
 * the block.
 */
final class VarInt {

	/** The longest encoding, that of 2<sup>64</sup>-1. */
	static final int MAX_LENGTH = 10;

	/**
	 * Largest value that may still be followed by a continuation byte without overflowing
	 * 64 bits.
	 */
	static final long MAX_BEFORE_SHIFT = (1L << 57) - 2;

	private VarInt() {
	}

	/** Number of bytes {@link #encode} writes for {@code value}. */
	static int length(long value) {
		int n = 1;
		for (long v = value >>> 7; v != 0; v = (v - 1) >>> 7) {
			n++;
		}
		return n;
	}

	/**
	 * Writes {@code value} at {@code dst[pos]}.
	 * @return the position after the last byte written, or -1 (nothing written) if it
	 * does not fit before {@code limit}
	 */
	static int encode(long value, byte[] dst, int pos, int limit) {
		int n = length(value);
		if (limit - pos < n) {
			return -1;
		}
		int i = pos + n - 1;
		dst[i] = (byte) (value & 0x7f);
		for (long v = value >>> 7; v != 0; v = (v - 1) >>> 7) {
			dst[--i] = (byte) (0x80 | ((v - 1) & 0x7f));
		}
		return pos + n;
	}

	/**
	 * Decodes one varint from a trusted, sufficiently long buffer (tests and the writer's
	 * own bytes).
	 * @return the value
	 */
	static long decode(byte[] src, int pos) {
		int b = src[pos++] & 0xff;
		long v = b & 0x7f;
		while ((b & 0x80) != 0) {
			b = src[pos++] & 0xff;
			v = ((v + 1) << 7) | (b & 0x7f);
		}
		return v;
	}

}
