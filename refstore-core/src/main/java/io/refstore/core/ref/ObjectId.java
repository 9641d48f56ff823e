package io.refstore.core.ref;

import java.util.Arrays;

/**
 * An immutable object id (SHA-1 or SHA-256), compared bytewise.
 */
public final class ObjectId implements Comparable<ObjectId> {

	private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

	private static final ObjectId SHA1_ZERO = new ObjectId(HashAlgorithm.SHA1, new byte[20]);

	private static final ObjectId SHA256_ZERO = new ObjectId(HashAlgorithm.SHA256, new byte[32]);

	private final HashAlgorithm algorithm;

	private final byte[] raw;

	private ObjectId(HashAlgorithm algorithm, byte[] raw) {
		this.algorithm = algorithm;
		this.raw = raw;
	}

	/** The all-zero id of {@code algorithm}. */
	public static ObjectId zero(HashAlgorithm algorithm) {
		return (algorithm == HashAlgorithm.SHA1) ? SHA1_ZERO : SHA256_ZERO;
	}

	/**
	 * Copies an id from raw bytes.
	 * @param algorithm the hash, which fixes the length
	 * @param buf the bytes
	 * @param offset where the id starts in {@code buf}
	 * @return the id
	 */
	public static ObjectId fromRaw(HashAlgorithm algorithm, byte[] buf, int offset) {
		return new ObjectId(algorithm, Arrays.copyOfRange(buf, offset, offset + algorithm.rawLength()));
	}

	/**
	 * Parses exactly {@code algorithm.hexLength()} hex digits (either case).
	 * @param algorithm the hash
	 * @param hex the text
	 * @return the id
	 * @throws IllegalArgumentException if the text is not a full-length hex id
	 */
	public static ObjectId fromHex(HashAlgorithm algorithm, CharSequence hex) {
		ObjectId id = tryParse(algorithm, hex);
		if (id == null) {
			throw new IllegalArgumentException("not a " + algorithm.configName() + " object id: '" + hex + "'");
		}
		return id;
	}

	/**
	 * Parses a full-length hex id, or returns {@code null} if {@code hex} is not one.
	 * @param algorithm the hash
	 * @param hex the text
	 * @return the id, or {@code null}
	 */
	public static ObjectId tryParse(HashAlgorithm algorithm, CharSequence hex) {
		if (hex.length() != algorithm.hexLength()) {
			return null;
		}
		byte[] raw = new byte[algorithm.rawLength()];
		for (int i = 0; i < raw.length; i++) {
			int hi = digit(hex.charAt(2 * i));
			int lo = digit(hex.charAt(2 * i + 1));
			if ((hi | lo) < 0) {
				return null;
			}
			raw[i] = (byte) ((hi << 4) | lo);
		}
		return new ObjectId(algorithm, raw);
	}

	/**
	 * Parses {@code algorithm.hexLength()} ASCII hex digits from a byte buffer.
	 * @param algorithm the hash
	 * @param buf the bytes
	 * @param offset where the digits start
	 * @return the id, or {@code null} if the bytes are not all hex digits or too few
	 */
	public static ObjectId tryParseHex(HashAlgorithm algorithm, byte[] buf, int offset) {
		if (offset < 0 || buf.length - offset < algorithm.hexLength()) {
			return null;
		}
		byte[] raw = new byte[algorithm.rawLength()];
		if (!decodeHex(buf, offset, raw, 0, raw.length)) {
			return null;
		}
		return new ObjectId(algorithm, raw);
	}

	/**
	 * Decodes {@code 2 * length} ASCII hex digits into {@code length} raw bytes.
	 * @return {@code false} if a byte is not a hex digit (the destination is then
	 * undefined)
	 */
	public static boolean decodeHex(byte[] src, int srcOffset, byte[] dst, int dstOffset, int length) {
		for (int i = 0; i < length; i++) {
			int hi = digit(src[srcOffset + 2 * i]);
			int lo = digit(src[srcOffset + 2 * i + 1]);
			if ((hi | lo) < 0) {
				return false;
			}
			dst[dstOffset + i] = (byte) ((hi << 4) | lo);
		}
		return true;
	}

	/**
	 * Writes {@code length} raw bytes as lowercase hex, two digits a byte.
	 */
	public static void encodeHex(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
		for (int i = 0; i < length; i++) {
			int b = src[srcOffset + i] & 0xff;
			dst[dstOffset + 2 * i] = HEX[b >>> 4];
			dst[dstOffset + 2 * i + 1] = HEX[b & 0xf];
		}
	}

	/**
	 * The value of each byte as a hex digit, or -1: one load instead of three range tests
	 * per digit.
	 */
	private static final byte[] DIGITS = digits();

	private static byte[] digits() {
		byte[] digits = new byte[256];
		java.util.Arrays.fill(digits, (byte) -1);
		for (int i = 0; i < 10; i++) {
			digits['0' + i] = (byte) i;
		}
		for (int i = 0; i < 6; i++) {
			digits['a' + i] = (byte) (10 + i);
			digits['A' + i] = (byte) (10 + i);
		}
		return digits;
	}

	/** A char or a (sign-extended) byte as a hex digit's value, or -1. */
	private static int digit(int c) {
		return ((c >>> 8) == 0) ? DIGITS[c] : -1;
	}

	/** Whether {@code b} is an ASCII hex digit (either case). */
	public static boolean isHexDigit(byte b) {
		return DIGITS[b & 0xff] >= 0;
	}

	/** The hash this id belongs to. */
	public HashAlgorithm algorithm() {
		return this.algorithm;
	}

	/** Whether this is the all-zero id ("does not exist"). */
	public boolean isZero() {
		for (byte b : this.raw) {
			if (b != 0) {
				return false;
			}
		}
		return true;
	}

	/** A copy of the raw bytes. */
	public byte[] toRaw() {
		return this.raw.clone();
	}

	/**
	 * One byte of the raw id, unsigned, for comparing with ids stored elsewhere without
	 * copying.
	 * @param index 0 to {@code algorithm().rawLength() - 1}
	 * @return the byte's value, 0-255
	 */
	public int rawByte(int index) {
		return this.raw[index] & 0xff;
	}

	/** Copies the raw bytes into {@code dst} at {@code offset}. */
	public void copyRawTo(byte[] dst, int offset) {
		System.arraycopy(this.raw, 0, dst, offset, this.raw.length);
	}

	/** Writes the lowercase hex form into {@code dst} at {@code offset}. */
	public void copyHexTo(byte[] dst, int offset) {
		encodeHex(this.raw, 0, this.raw.length, dst, offset);
	}

	/** Whether the raw bytes equal {@code buf[offset .. offset + rawLength)}. */
	public boolean rawEquals(byte[] buf, int offset) {
		return Arrays.equals(this.raw, 0, this.raw.length, buf, offset, offset + this.raw.length);
	}

	/** The lowercase hex form, as git writes it. */
	public String name() {
		byte[] hex = new byte[this.raw.length * 2];
		copyHexTo(hex, 0);
		return new String(hex, java.nio.charset.StandardCharsets.US_ASCII);
	}

	@Override
	public int compareTo(ObjectId other) {
		return Arrays.compareUnsigned(this.raw, other.raw);
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof ObjectId other) && this.algorithm == other.algorithm
				&& Arrays.equals(this.raw, other.raw);
	}

	@Override
	public int hashCode() {
		return ((this.raw[0] & 0xff) << 24) | ((this.raw[1] & 0xff) << 16) | ((this.raw[2] & 0xff) << 8)
				| (this.raw[3] & 0xff);
	}

	@Override
	public String toString() {
		return name();
	}

}
