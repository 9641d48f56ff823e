package io.refstore.core.reftable.format;

import java.util.ArrayList;
import java.util.List;

/**
 * Test tool: the blocks of a table as they lie in the file (offset, type, length, bytes
 * up to the next block) and the footer fields, found by walking the file with the
 * format's rules.
 */
public final class TableLayout {

	/** The type letter of a ref block, for the tests of the file storage. */
	public static final byte REF_BLOCK = ReftableConstants.BLOCK_TYPE_REF;

	/** The type letter of an index block. */
	public static final byte INDEX_BLOCK = ReftableConstants.BLOCK_TYPE_INDEX;

	/** The type letter of a log block. */
	public static final byte LOG_BLOCK = ReftableConstants.BLOCK_TYPE_LOG;

	public record Block(int offset, byte type, int blockLen, int span) {

		public int end() {
			return this.offset + this.span;
		}

	}

	public final byte[] table;

	public final int version;

	public final int headerSize;

	public final int blockSize;

	public final int dataEnd;

	public final List<Block> blocks = new ArrayList<>();

	public TableLayout(byte[] table) {
		this.table = table;
		this.version = table[4];
		this.headerSize = ReftableConstants.headerSize(this.version);
		this.blockSize = ReftableConstants.getU24(table, 5);
		this.dataEnd = table.length - ReftableConstants.footerSize(this.version);
		int offset = 0;
		while (offset < this.dataEnd) {
			int headerOff = (offset == 0) ? this.headerSize : 0;
			byte type = table[offset + headerOff];
			int blockLen = ReftableConstants.getU24(table, offset + headerOff + 1);
			int span;
			if (type == ReftableConstants.BLOCK_TYPE_LOG) {
				span = Tables.logBlockLength(table, offset, headerOff);
			}
			else if (blockLen < this.blockSize && offset + blockLen < this.dataEnd && table[offset + blockLen] != 0) {
				span = blockLen;
			}
			else {
				span = Math.min(Math.max(blockLen, this.blockSize), this.dataEnd - offset);
			}
			this.blocks.add(new Block(offset, type, blockLen, span));
			offset += span;
		}
	}

	public long footer(int field) {
		return ReftableConstants.getU64(this.table, this.dataEnd + this.headerSize + 8 * field);
	}

	public long refIndexPosition() {
		return footer(0);
	}

	public long objPosition() {
		return footer(1) >>> 5;
	}

	public int objIdLength() {
		return (int) (footer(1) & 0x1f);
	}

	public long objIndexPosition() {
		return footer(2);
	}

	public long logPosition() {
		return footer(3);
	}

	public long logIndexPosition() {
		return footer(4);
	}

	public List<Block> ofType(byte type) {
		return this.blocks.stream().filter(b -> b.type() == type).toList();
	}

	/** The run of blocks of one type starting at {@code offset}. */
	public List<Block> runAt(long offset) {
		List<Block> run = new ArrayList<>();
		for (Block block : this.blocks) {
			if (run.isEmpty()) {
				if (block.offset() == offset) {
					run.add(block);
				}
			}
			else if (block.type() == run.get(0).type()) {
				run.add(block);
			}
			else {
				break;
			}
		}
		return run;
	}

	/** The block starting at {@code offset}. */
	public Block blockAt(long offset) {
		return this.blocks.stream()
			.filter(b -> b.offset() == offset)
			.findFirst()
			.orElseThrow(() -> new AssertionError("no block at " + offset + " in\n" + this));
	}

	/** The block position held by the first record of an index block. */
	public long firstIndexTarget(Block index) {
		int pos = index.offset() + ((index.offset() == 0) ? this.headerSize : 0) + 4;
		pos += VarInt.length(VarInt.decode(this.table, pos));
		long tag = VarInt.decode(this.table, pos);
		pos += VarInt.length(tag) + (int) (tag >>> 3);
		return VarInt.decode(this.table, pos);
	}

	/**
	 * The key of the first record of a block (a restart point, so it is stored whole).
	 */
	public byte[] firstKey(Block block) {
		int pos = block.offset() + ((block.offset() == 0) ? this.headerSize : 0) + 4;
		pos += VarInt.length(VarInt.decode(this.table, pos));
		long tag = VarInt.decode(this.table, pos);
		pos += VarInt.length(tag);
		return java.util.Arrays.copyOfRange(this.table, pos, pos + (int) (tag >>> 3));
	}

	/** Whether the bytes between a block's length and the next block are all zero. */
	public boolean paddingIsZero(Block block) {
		if (block.type() == ReftableConstants.BLOCK_TYPE_LOG) {
			return true;
		}
		for (int i = block.offset() + block.blockLen(); i < block.end(); i++) {
			if (this.table[i] != 0) {
				return false;
			}
		}
		return true;
	}

	@Override
	public String toString() {
		StringBuilder out = new StringBuilder();
		for (Block block : this.blocks) {
			out.append(String.format("%06x %c len=%d span=%d%n", block.offset(), (char) block.type(), block.blockLen(),
					block.span()));
		}
		return out.toString();
	}

}
