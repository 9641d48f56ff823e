package io.refstore.core.reftable.format;

/**
 * Fixed numbers of the reftable format (git's {@code Documentation/technical/reftable}
 * and what git's writer does where the two differ).
 */
public final class ReftableConstants {

	/** {@code REFT}: the first four bytes of the header and of the footer. */
	static final byte[] MAGIC = { 'R', 'E', 'F', 'T' };

	static final byte BLOCK_TYPE_REF = 'r';

	static final byte BLOCK_TYPE_LOG = 'g';

	static final byte BLOCK_TYPE_OBJ = 'o';

	static final byte BLOCK_TYPE_INDEX = 'i';

	/** Size of the block header: type byte and 24-bit length. */
	static final int BLOCK_HEADER_SIZE = 4;

	/** Largest block size a 24-bit field can hold. */
	static final int MAX_BLOCK_SIZE = (1 << 24) - 1;

	/** A block's restart count is a u16. */
	static final int MAX_RESTARTS = 65535;

	/** A footer field keeps the object id prefix length in 5 bits. */
	static final int MAX_OBJ_ID_LEN = 31;

	/** git's writer indexes a section only when it produced more blocks than this. */
	static final int INDEX_THRESHOLD = 3;

	/** Log keys end with a NUL and the reversed update index. */
	static final int LOG_KEY_SUFFIX = 9;

	private ReftableConstants() {
	}

	public static int headerSize(int version) {
		return (version == 1) ? 24 : 28;
	}

	public static int footerSize(int version) {
		return (version == 1) ? 68 : 72;
	}

	static boolean isBlockType(int type) {
		return type == BLOCK_TYPE_REF || type == BLOCK_TYPE_LOG || type == BLOCK_TYPE_OBJ || type == BLOCK_TYPE_INDEX;
	}

	static String typeName(int type) {
		return switch (type) {
			case BLOCK_TYPE_REF -> "ref";
			case BLOCK_TYPE_LOG -> "log";
			case BLOCK_TYPE_OBJ -> "obj";
			case BLOCK_TYPE_INDEX -> "index";
			default -> String.format("unknown (0x%02x)", type & 0xff);
		};
	}

	static int getU24(byte[] buf, int off) {
		return ((buf[off] & 0xff) << 16) | ((buf[off + 1] & 0xff) << 8) | (buf[off + 2] & 0xff);
	}

	static void putU24(byte[] buf, int off, int value) {
		buf[off] = (byte) (value >>> 16);
		buf[off + 1] = (byte) (value >>> 8);
		buf[off + 2] = (byte) value;
	}

	static int getU16(byte[] buf, int off) {
		return ((buf[off] & 0xff) << 8) | (buf[off + 1] & 0xff);
	}

	static void putU16(byte[] buf, int off, int value) {
		buf[off] = (byte) (value >>> 8);
		buf[off + 1] = (byte) value;
	}

	static int getI32(byte[] buf, int off) {
		return (getU16(buf, off) << 16) | getU16(buf, off + 2);
	}

	static void putI32(byte[] buf, int off, int value) {
		putU16(buf, off, value >>> 16);
		putU16(buf, off + 2, value);
	}

	static long getU64(byte[] buf, int off) {
		return ((long) getI32(buf, off) << 32) | (getI32(buf, off + 4) & 0xffff_ffffL);
	}

	static void putU64(byte[] buf, int off, long value) {
		putI32(buf, off, (int) (value >>> 32));
		putI32(buf, off + 4, (int) value);
	}

}
