package io.refstore.core.reftable.format;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.SymbolicRef;

/**
 * One ref record of a table: a name, the update index of the transaction that wrote it
 * and a value, which is one of a deletion (tombstone), an object id, an object id with
 * its peeled id (an annotated tag), or a symbolic target.
 *
 * <p>
 * Records made by the static factories are for writing. Records handed out by a cursor
 * belong to it and are overwritten by its next step; {@link #copy()} or
 * {@link #toRef(HashAlgorithm)} keep one. Not thread-safe.
 */
public final class RefRecord extends BlockRecord {

	/** Value type of a deletion: no value. */
	public static final int DELETION = 0;

	/** Value type of an object id. */
	public static final int VALUE = 1;

	/** Value type of an object id followed by its fully peeled id. */
	public static final int VALUE_PEELED = 2;

	/** Value type of a symbolic ref: the target name. */
	public static final int SYMREF = 3;

	private long updateIndex;

	private int valueType;

	private int hashSize;

	private byte[] id = new byte[32];

	private byte[] peeled = new byte[32];

	private byte[] target = new byte[32];

	private int targetLength;

	/** An empty record for a cursor to fill. */
	public RefRecord() {
	}

	/** A tombstone: {@code name} is deleted as of {@code updateIndex}. */
	public static RefRecord deletion(String name, long updateIndex) {
		RefRecord rec = named(name, updateIndex, DELETION);
		return rec;
	}

	/** A ref holding {@code id}. */
	public static RefRecord direct(String name, long updateIndex, ObjectId id) {
		RefRecord rec = named(name, updateIndex, VALUE);
		rec.setId(id);
		return rec;
	}

	/**
	 * A ref holding the annotated tag {@code id}, whose fully peeled object is
	 * {@code peeled}.
	 */
	public static RefRecord peeled(String name, long updateIndex, ObjectId id, ObjectId peeled) {
		if (id.algorithm() != peeled.algorithm()) {
			throw new IllegalArgumentException("id and peeled id of " + name + " use different hashes");
		}
		RefRecord rec = named(name, updateIndex, VALUE_PEELED);
		rec.setId(id);
		peeled.copyRawTo(rec.peeled, 0);
		return rec;
	}

	/** A symbolic ref naming {@code target}. */
	public static RefRecord symbolic(String name, long updateIndex, String target) {
		RefRecord rec = named(name, updateIndex, SYMREF);
		byte[] bytes = target.getBytes(StandardCharsets.UTF_8);
		rec.target = bytes;
		rec.targetLength = bytes.length;
		return rec;
	}

	/**
	 * The record for a ref as the writer stores it: a {@link DirectRef} with a peeled id
	 * becomes {@link #VALUE_PEELED}.
	 */
	public static RefRecord of(Ref ref, long updateIndex) {
		if (ref instanceof SymbolicRef sym) {
			return symbolic(sym.name(), updateIndex, sym.target());
		}
		DirectRef direct = (DirectRef) ref;
		return (direct.peeled() != null) ? peeled(direct.name(), updateIndex, direct.id(), direct.peeled())
				: direct(direct.name(), updateIndex, direct.id());
	}

	private static RefRecord named(String name, long updateIndex, int valueType) {
		Objects.requireNonNull(name, "name");
		byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
		if (bytes.length == 0) {
			throw new IllegalArgumentException("a ref name must not be empty");
		}
		RefRecord rec = new RefRecord();
		rec.key = bytes;
		rec.keyLength = bytes.length;
		rec.updateIndex = updateIndex;
		rec.valueType = valueType;
		return rec;
	}

	/**
	 * Refills this record as a direct ref from raw bytes, reusing its buffers (bulk
	 * writers).
	 */
	public void set(byte[] name, int nameLength, long updateIndex, byte[] rawId, byte[] rawPeeled, int hashSize) {
		setKey(name, 0, nameLength);
		this.updateIndex = updateIndex;
		this.valueType = (rawPeeled != null) ? VALUE_PEELED : VALUE;
		this.hashSize = hashSize;
		System.arraycopy(rawId, 0, this.id, 0, hashSize);
		if (rawPeeled != null) {
			System.arraycopy(rawPeeled, 0, this.peeled, 0, hashSize);
		}
		this.targetLength = 0;
	}

	/** Refills this record as a symbolic ref, reusing its buffers (bulk writers). */
	public void setSymbolic(byte[] name, int nameLength, long updateIndex, byte[] target) {
		setKey(name, 0, nameLength);
		this.updateIndex = updateIndex;
		this.valueType = SYMREF;
		this.hashSize = 0;
		this.target = capacity(this.target, target.length);
		System.arraycopy(target, 0, this.target, 0, target.length);
		this.targetLength = target.length;
	}

	private void setId(ObjectId value) {
		this.hashSize = value.algorithm().rawLength();
		value.copyRawTo(this.id, 0);
	}

	/** The ref name as UTF-8 bytes, valid in {@code [0, nameLength())}. */
	public byte[] nameBuffer() {
		return this.key;
	}

	/** Length of the name in {@link #nameBuffer()}. */
	public int nameLength() {
		return this.keyLength;
	}

	/** The ref name (allocates). */
	public String name() {
		return new String(this.key, 0, this.keyLength, StandardCharsets.UTF_8);
	}

	/** The update index of the transaction that wrote this record. */
	public long updateIndex() {
		return this.updateIndex;
	}

	/**
	 * One of {@link #DELETION}, {@link #VALUE}, {@link #VALUE_PEELED}, {@link #SYMREF}.
	 */
	@Override
	public int valueType() {
		return this.valueType;
	}

	/** Whether this is a tombstone. */
	public boolean isDeletion() {
		return this.valueType == DELETION;
	}

	/**
	 * Whether this record holds an object id ({@link #VALUE} or {@link #VALUE_PEELED}).
	 */
	public boolean hasId() {
		return this.valueType == VALUE || this.valueType == VALUE_PEELED;
	}

	/** Raw object id bytes at offset 0 (only if {@link #hasId()}). */
	public byte[] idBuffer() {
		return this.id;
	}

	/** Raw peeled id bytes at offset 0 (only for {@link #VALUE_PEELED}). */
	public byte[] peeledBuffer() {
		return this.peeled;
	}

	/**
	 * The symbolic target's bytes, valid in {@code [0, targetLength())} (only for
	 * {@link #SYMREF}).
	 */
	public byte[] targetBuffer() {
		return this.target;
	}

	/** Length of the symbolic target. */
	public int targetLength() {
		return this.targetLength;
	}

	/** Bytes per object id in this record, or 0 if it has none. */
	int hashSize() {
		return this.hashSize;
	}

	/**
	 * The ref this record describes (allocates).
	 * @return the ref, or {@code null} for a deletion
	 */
	public Ref toRef(HashAlgorithm hash) {
		return switch (this.valueType) {
			case DELETION -> null;
			case SYMREF ->
				new SymbolicRef(name(), new String(this.target, 0, this.targetLength, StandardCharsets.UTF_8));
			case VALUE -> new DirectRef(name(), ObjectId.fromRaw(hash, this.id, 0));
			default ->
				new DirectRef(name(), ObjectId.fromRaw(hash, this.id, 0), ObjectId.fromRaw(hash, this.peeled, 0));
		};
	}

	/** An independent copy. */
	public RefRecord copy() {
		RefRecord rec = new RefRecord();
		rec.copyFrom(this);
		return rec;
	}

	/** Makes this record equal to {@code other}, reusing this record's buffers. */
	public void copyFrom(RefRecord other) {
		setKey(other.key, 0, other.keyLength);
		this.updateIndex = other.updateIndex;
		this.valueType = other.valueType;
		this.hashSize = other.hashSize;
		System.arraycopy(other.id, 0, this.id, 0, other.hashSize);
		System.arraycopy(other.peeled, 0, this.peeled, 0, other.hashSize);
		this.target = capacity(this.target, other.targetLength);
		System.arraycopy(other.target, 0, this.target, 0, other.targetLength);
		this.targetLength = other.targetLength;
	}

	@Override
	byte blockType() {
		return ReftableConstants.BLOCK_TYPE_REF;
	}

	@Override
	int encodeValue(byte[] dst, int pos, int limit, int hashSize, long updateIndexBase) {
		pos = VarInt.encode(this.updateIndex - updateIndexBase, dst, pos, limit);
		if (pos < 0) {
			return -1;
		}
		return switch (this.valueType) {
			case DELETION -> pos;
			case VALUE -> encodeRaw(this.id, hashSize, dst, pos, limit);
			case VALUE_PEELED -> {
				pos = encodeRaw(this.id, hashSize, dst, pos, limit);
				yield (pos < 0) ? -1 : encodeRaw(this.peeled, hashSize, dst, pos, limit);
			}
			default -> encodeString(this.target, this.targetLength, dst, pos, limit);
		};
	}

	@Override
	void decodeValue(int type, BlockReader in) throws CorruptRefStoreException {
		this.updateIndex = in.updateIndexBase() + in.readVarint();
		this.valueType = type;
		this.hashSize = 0;
		this.targetLength = 0;
		switch (type) {
			case DELETION -> {
			}
			case VALUE -> readId(in, this.id);
			case VALUE_PEELED -> {
				readId(in, this.id);
				readId(in, this.peeled);
			}
			case SYMREF -> {
				int length = in.readLength();
				this.target = capacity(this.target, length);
				System.arraycopy(in.buffer(), in.take(length), this.target, 0, length);
				this.targetLength = length;
			}
			default -> throw in.corrupt("ref record with unknown value type " + type);
		}
	}

	private void readId(BlockReader in, byte[] dst) throws CorruptRefStoreException {
		int size = in.hashSize();
		System.arraycopy(in.buffer(), in.take(size), dst, 0, size);
		this.hashSize = size;
	}

	@Override
	public String toString() {
		return name() + "@" + this.updateIndex + ":" + this.valueType;
	}

}
