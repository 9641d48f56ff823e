package io.refstore.core.reftable.format;

import io.refstore.core.ref.CorruptRefStoreException;

/**
 * An object index record: the first {@code obj_id_len} bytes of an object id and the
 * ascending offsets of the ref blocks holding a ref whose value or peeled value is that
 * id. No offsets means "too many to list: scan all refs".
 */
final class ObjRecord extends BlockRecord {

	long[] positions = new long[4];

	int count;

	@Override
	byte blockType() {
		return ReftableConstants.BLOCK_TYPE_OBJ;
	}

	/**
	 * The count itself when it fits the 3 bits (1..7), otherwise 0 and a varint count
	 * follows.
	 */
	@Override
	int valueType() {
		return (this.count > 0 && this.count < 8) ? this.count : 0;
	}

	@Override
	int encodeValue(byte[] dst, int pos, int limit, int hashSize, long updateIndexBase) {
		if (valueType() == 0) {
			pos = VarInt.encode(this.count, dst, pos, limit);
		}
		long last = 0;
		for (int i = 0; i < this.count && pos >= 0; i++) {
			pos = VarInt.encode(this.positions[i] - last, dst, pos, limit);
			last = this.positions[i];
		}
		return pos;
	}

	@Override
	void decodeValue(int type, BlockReader in) throws CorruptRefStoreException {
		long n = (type == 0) ? in.readVarint() : type;
		// every position takes at least one byte, which bounds the array before it is
		// allocated
		if (Long.compareUnsigned(n, in.remaining()) > 0) {
			throw in.corrupt(
					"obj record claims " + Long.toUnsignedString(n) + " positions in " + in.remaining() + " bytes");
		}
		this.count = (int) n;
		if (this.positions.length < this.count) {
			this.positions = new long[Math.max(this.count, 2 * this.positions.length)];
		}
		long last = 0;
		for (int i = 0; i < this.count; i++) {
			long delta = in.readVarint();
			if (i > 0 && delta == 0) {
				throw in.corrupt("obj record positions are not ascending");
			}
			last += delta;
			this.positions[i] = last;
		}
	}

}
