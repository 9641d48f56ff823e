package io.refstore.core.reftable.format;

import io.refstore.core.ref.CorruptRefStoreException;

/**
 * An index record: the last key of a block and that block's file offset. Index blocks
 * hold one record per block of the level below.
 */
final class IndexRecord extends BlockRecord {

	long offset;

	@Override
	byte blockType() {
		return ReftableConstants.BLOCK_TYPE_INDEX;
	}

	@Override
	int valueType() {
		return 0;
	}

	@Override
	int encodeValue(byte[] dst, int pos, int limit, int hashSize, long updateIndexBase) {
		return VarInt.encode(this.offset, dst, pos, limit);
	}

	@Override
	void decodeValue(int type, BlockReader in) throws CorruptRefStoreException {
		if (type != 0) {
			throw in.corrupt("index record with value type " + type + " (must be 0)");
		}
		this.offset = in.readVarint();
	}

}
