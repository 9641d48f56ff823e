package io.refstore.core.reftable.format;

import java.util.Arrays;

import io.refstore.core.ref.CorruptRefStoreException;

/**
 * A record of one block type: a key (kept in a reusable buffer so that decoding allocates
 * nothing once the buffer is large enough) and a type-specific value. Keys order records
 * bytewise, unsigned.
 *
 * <p>
 * Not thread-safe: a record belongs to one writer call or one cursor.
 */
abstract sealed class BlockRecord permits RefRecord, LogRecord, IndexRecord, ObjRecord {

	byte[] key = new byte[64];

	int keyLength;

	/** The block type letter this record lives in. */
	abstract byte blockType();

	/** The 3-bit value type stored beside the key's suffix length. */
	abstract int valueType();

	/**
	 * Encodes the value (everything after the key).
	 * @param dst the block buffer
	 * @param pos where to start
	 * @param limit end of the usable space
	 * @param hashSize bytes in an object id
	 * @param updateIndexBase the table's minimum update index (ref records store the
	 * difference)
	 * @return the position after the value, or -1 if it does not fit
	 */
	abstract int encodeValue(byte[] dst, int pos, int limit, int hashSize, long updateIndexBase);

	/**
	 * Decodes the value at the reader's position, after the key has been set.
	 * @throws CorruptRefStoreException if the value is malformed or runs past the records
	 */
	abstract void decodeValue(int valueType, BlockReader in) throws CorruptRefStoreException;

	/** Makes room for a key of {@code length} bytes, keeping the current bytes. */
	final void ensureKeyCapacity(int length) {
		if (this.key.length < length) {
			this.key = Arrays.copyOf(this.key, Math.max(length, 2 * this.key.length));
		}
	}

	/** Sets the key to a copy of {@code src[off, off + len)}. */
	final void setKey(byte[] src, int off, int len) {
		ensureKeyCapacity(len);
		System.arraycopy(src, off, this.key, 0, len);
		this.keyLength = len;
	}

	/**
	 * Compares this record's key with {@code other[0, otherLength)}, bytewise unsigned.
	 */
	final int compareKey(byte[] other, int otherLength) {
		return Arrays.compareUnsigned(this.key, 0, this.keyLength, other, 0, otherLength);
	}

	/** Whether the key starts with {@code prefix[0, prefixLength)}. */
	final boolean keyStartsWith(byte[] prefix, int prefixLength) {
		return this.keyLength >= prefixLength && Arrays.equals(this.key, 0, prefixLength, prefix, 0, prefixLength);
	}

	/** Writes a varint-length-prefixed byte string, or returns -1 if it does not fit. */
	static int encodeString(byte[] value, int valueLength, byte[] dst, int pos, int limit) {
		pos = VarInt.encode(valueLength, dst, pos, limit);
		if (pos < 0 || limit - pos < valueLength) {
			return -1;
		}
		System.arraycopy(value, 0, dst, pos, valueLength);
		return pos + valueLength;
	}

	/** Copies {@code length} raw bytes, or returns -1 if they do not fit. */
	static int encodeRaw(byte[] value, int length, byte[] dst, int pos, int limit) {
		if (limit - pos < length) {
			return -1;
		}
		System.arraycopy(value, 0, dst, pos, length);
		return pos + length;
	}

	/** Grows {@code buf} to at least {@code length} bytes (contents not kept). */
	static byte[] capacity(byte[] buf, int length) {
		return (buf.length >= length) ? buf : new byte[Math.max(length, 2 * buf.length)];
	}

}
