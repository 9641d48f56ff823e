package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.file.Path;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;

/**
 * Streams the refs of a staged migration's segments, segment 1 first: the copy wrote them
 * in the source's bytewise order, so the whole run is in order. One segment is in memory
 * at a time. Every ref knows whether it peels. Not thread-safe.
 */
final class SegmentCursor implements RefCursor {

	private final Path work;

	private final HashAlgorithm hash;

	private final int rawLength;

	private int segment;

	private byte[] buf;

	private int pos;

	private int end;

	private byte[] name = new byte[256];

	private int nameLength;

	private final byte[] id;

	private final byte[] peeled;

	private int kind;

	private byte[] target = new byte[256];

	private int targetLength;

	SegmentCursor(Path work, HashAlgorithm hash) {
		this.work = work;
		this.hash = hash;
		this.rawLength = hash.rawLength();
		this.id = new byte[this.rawLength];
		this.peeled = new byte[this.rawLength];
	}

	/** How many segments were read so far. */
	int segments() {
		return this.segment;
	}

	@Override
	public boolean next() throws IOException {
		while (this.buf == null || this.pos >= this.end) {
			byte[] next = RefSegments.read(this.work, this.segment + 1, this.hash);
			if (next == null) {
				return false;
			}
			this.segment++;
			this.buf = next;
			this.pos = RefSegments.RECORDS;
			this.end = next.length - 4;
			// a segment's first name shares nothing
			this.nameLength = 0;
		}
		try {
			this.kind = this.buf[this.pos++];
			int shared = readShort();
			int suffix = readShort();
			if (shared > this.nameLength) {
				throw new MigrationException(
						"staged segment '" + RefSegments.file(this.work, this.segment) + "' is damaged at offset "
								+ this.pos + ": a name shares " + shared + " bytes with one of " + this.nameLength);
			}
			this.name = RefSegments.Names.extend(this.name, shared, shared + suffix);
			System.arraycopy(this.buf, this.pos, this.name, shared, suffix);
			this.nameLength = shared + suffix;
			this.pos += suffix;
			if (this.kind == RefSegments.SYMBOLIC) {
				this.targetLength = readShort();
				this.target = copy(this.target, this.targetLength);
				this.pos += this.targetLength;
			}
			else {
				System.arraycopy(this.buf, this.pos, this.id, 0, this.rawLength);
				this.pos += this.rawLength;
				if (this.kind == RefSegments.PEELED) {
					System.arraycopy(this.buf, this.pos, this.peeled, 0, this.rawLength);
					this.pos += this.rawLength;
				}
			}
		}
		catch (IndexOutOfBoundsException ex) {
			throw new MigrationException("staged segment '" + RefSegments.file(this.work, this.segment)
					+ "' is damaged: a record runs past its end at offset " + this.pos);
		}
		if (this.pos > this.end || this.kind < 0 || this.kind > RefSegments.SYMBOLIC) {
			throw new MigrationException("staged segment '" + RefSegments.file(this.work, this.segment)
					+ "' is damaged at offset " + this.pos);
		}
		return true;
	}

	private int readShort() {
		int value = ((this.buf[this.pos] & 0xff) << 8) | (this.buf[this.pos + 1] & 0xff);
		this.pos += 2;
		return value;
	}

	private byte[] copy(byte[] into, int length) {
		byte[] out = (into.length >= length) ? into : new byte[Math.max(length, into.length * 2)];
		System.arraycopy(this.buf, this.pos, out, 0, length);
		return out;
	}

	@Override
	public byte[] nameBuffer() {
		return this.name;
	}

	@Override
	public int nameLength() {
		return this.nameLength;
	}

	@Override
	public boolean isSymbolic() {
		return this.kind == RefSegments.SYMBOLIC;
	}

	@Override
	public byte[] idBuffer() {
		return this.id;
	}

	@Override
	public boolean hasPeeled() {
		return this.kind == RefSegments.PEELED;
	}

	@Override
	public boolean peelKnown() {
		return true;
	}

	@Override
	public byte[] peeledBuffer() {
		return this.peeled;
	}

	@Override
	public byte[] targetBuffer() {
		return this.target;
	}

	@Override
	public int targetLength() {
		return this.targetLength;
	}

	@Override
	public HashAlgorithm hashAlgorithm() {
		return this.hash;
	}

	@Override
	public void close() {
		this.buf = null;
	}

}
