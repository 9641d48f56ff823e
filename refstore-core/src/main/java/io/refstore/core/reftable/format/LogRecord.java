package io.refstore.core.reftable.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.ReflogEntry;

/**
 * One reflog record of a table. Its key is the ref name, a NUL and the bitwise complement
 * of the update index, so that a ref's entries sort newest first. An update carries old
 * and new id, committer, time, time zone and message; a deletion is a tombstone hiding
 * the entry with the same ref name and update index in older tables.
 *
 * <p>
 * The time zone is stored as git stores it: the {@code ±HHMM} text read as a signed
 * decimal number ({@code +0530} is 530, {@code -0800} is -800), not in minutes as the
 * format document says.
 *
 * <p>
 * Records handed out by a cursor belong to it and are overwritten by its next step. Not
 * thread-safe.
 */
public final class LogRecord extends BlockRecord {

	/** Value type of a log tombstone. */
	public static final int DELETION = 0;

	/** Value type of a log entry. */
	public static final int UPDATE = 1;

	private int valueType;

	private int hashSize;

	private final byte[] oldId = new byte[32];

	private final byte[] newId = new byte[32];

	private byte[] name = new byte[16];

	private int nameLength;

	private byte[] email = new byte[32];

	private int emailLength;

	private long time;

	private short tzOffset;

	private byte[] message = new byte[64];

	private int messageLength;

	/** An empty record for a cursor to fill. */
	LogRecord() {
	}

	/**
	 * A reflog entry of {@code refName} written by the transaction {@code updateIndex}.
	 * @param message the message as the caller has it; the writer cleans it as git does
	 * unless {@link WriteOptions#exactLogMessage()}
	 */
	public static LogRecord update(String refName, long updateIndex, ObjectId oldId, ObjectId newId, PersonIdent who,
			String message) {
		if (oldId.algorithm() != newId.algorithm()) {
			throw new IllegalArgumentException("old and new id of a log entry of " + refName + " use different hashes");
		}
		LogRecord rec = keyed(refName, updateIndex, UPDATE);
		rec.hashSize = oldId.algorithm().rawLength();
		oldId.copyRawTo(rec.oldId, 0);
		newId.copyRawTo(rec.newId, 0);
		rec.name = who.name().getBytes(StandardCharsets.UTF_8);
		rec.nameLength = rec.name.length;
		rec.email = who.email().getBytes(StandardCharsets.UTF_8);
		rec.emailLength = rec.email.length;
		rec.time = who.epochSeconds();
		rec.tzOffset = tz(who.tzOffset());
		rec.message = message.getBytes(StandardCharsets.UTF_8);
		rec.messageLength = rec.message.length;
		return rec;
	}

	/**
	 * The record for a reflog entry; its message gets git's trailing newline from the
	 * writer.
	 */
	public static LogRecord of(String refName, long updateIndex, ReflogEntry entry) {
		return update(refName, updateIndex, entry.oldId(), entry.newId(), entry.who(), entry.message());
	}

	/**
	 * Compares two records' keys, bytewise unsigned: by ref name, then newest first (the
	 * order a writer takes them in).
	 */
	public static int compareKeys(LogRecord a, LogRecord b) {
		return Arrays.compareUnsigned(a.key, 0, a.keyLength, b.key, 0, b.keyLength);
	}

	/**
	 * Cuts the message to its first {@code maxBytes} bytes (possibly inside a UTF-8
	 * sequence), as git's reftable backend cuts every message to half a block before
	 * writing it.
	 * @return this record
	 */
	public LogRecord truncateMessage(int maxBytes) {
		cutMessage(maxBytes);
		return this;
	}

	/**
	 * Cuts the message as {@link #truncateMessage} does.
	 * @return whether it was longer than {@code maxBytes}
	 */
	public boolean cutMessage(int maxBytes) {
		if (this.messageLength <= maxBytes) {
			return false;
		}
		this.messageLength = maxBytes;
		return true;
	}

	/** A tombstone for the entry of {@code refName} at {@code updateIndex}. */
	public static LogRecord deletion(String refName, long updateIndex) {
		return keyed(refName, updateIndex, DELETION);
	}

	private static short tz(int tzOffset) {
		if (tzOffset < Short.MIN_VALUE || tzOffset > Short.MAX_VALUE) {
			throw new IllegalArgumentException("time zone offset does not fit 16 bits: " + tzOffset);
		}
		return (short) tzOffset;
	}

	private static LogRecord keyed(String refName, long updateIndex, int valueType) {
		Objects.requireNonNull(refName, "refName");
		byte[] bytes = refName.getBytes(StandardCharsets.UTF_8);
		if (bytes.length == 0) {
			throw new IllegalArgumentException("a ref name must not be empty");
		}
		LogRecord rec = new LogRecord();
		rec.setLogKey(bytes, bytes.length, updateIndex);
		rec.valueType = valueType;
		return rec;
	}

	/** Sets the key to {@code refName}, NUL, reversed {@code updateIndex}. */
	void setLogKey(byte[] refName, int length, long updateIndex) {
		ensureKeyCapacity(length + ReftableConstants.LOG_KEY_SUFFIX);
		System.arraycopy(refName, 0, this.key, 0, length);
		this.key[length] = 0;
		ReftableConstants.putU64(this.key, length + 1, ~updateIndex);
		this.keyLength = length + ReftableConstants.LOG_KEY_SUFFIX;
	}

	/** The ref name's bytes, valid in {@code [0, refNameLength())}. */
	public byte[] refNameBuffer() {
		return this.key;
	}

	/** Length of the ref name in {@link #refNameBuffer()}. */
	public int refNameLength() {
		return this.keyLength - ReftableConstants.LOG_KEY_SUFFIX;
	}

	/** The ref name (allocates). */
	public String refName() {
		return new String(this.key, 0, refNameLength(), StandardCharsets.UTF_8);
	}

	/** The update index of the transaction this entry belongs to. */
	public long updateIndex() {
		return ~ReftableConstants.getU64(this.key, this.keyLength - 8);
	}

	/** {@link #UPDATE} or {@link #DELETION}. */
	@Override
	public int valueType() {
		return this.valueType;
	}

	/** Whether this is a tombstone. */
	public boolean isDeletion() {
		return this.valueType == DELETION;
	}

	/** Raw old id at offset 0 (updates only). */
	public byte[] oldIdBuffer() {
		return this.oldId;
	}

	/** Raw new id at offset 0 (updates only). */
	public byte[] newIdBuffer() {
		return this.newId;
	}

	/** The committer name. */
	public String committerName() {
		return new String(this.name, 0, this.nameLength, StandardCharsets.UTF_8);
	}

	/** The committer e-mail, without angle brackets. */
	public String email() {
		return new String(this.email, 0, this.emailLength, StandardCharsets.UTF_8);
	}

	/** Seconds since the epoch. */
	public long time() {
		return this.time;
	}

	/** The time zone as a signed decimal {@code HHMM} number. */
	public int tzOffset() {
		return this.tzOffset;
	}

	/** The message exactly as stored (git's end with a newline). */
	public String message() {
		return new String(this.message, 0, this.messageLength, StandardCharsets.UTF_8);
	}

	/**
	 * Whether this is git's "reflog exists" marker: null ids, empty identity and message,
	 * time 0.
	 */
	public boolean isExistenceMarker() {
		return this.valueType == UPDATE && isZero(this.oldId) && isZero(this.newId) && this.nameLength == 0
				&& this.emailLength == 0 && this.messageLength == 0 && this.time == 0 && this.tzOffset == 0;
	}

	private boolean isZero(byte[] id) {
		for (int i = 0; i < this.hashSize; i++) {
			if (id[i] != 0) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The entry this record describes, with the one trailing newline git stores removed
	 * (allocates).
	 * @return the entry, or {@code null} for a deletion
	 */
	public ReflogEntry toEntry(HashAlgorithm hash) {
		if (isDeletion()) {
			return null;
		}
		int length = this.messageLength;
		if (length > 0 && this.message[length - 1] == '\n') {
			length--;
		}
		PersonIdent who = new PersonIdent(committerName(), email(), this.time, this.tzOffset);
		return new ReflogEntry(ObjectId.fromRaw(hash, this.oldId, 0), ObjectId.fromRaw(hash, this.newId, 0), who,
				new String(this.message, 0, length, StandardCharsets.UTF_8));
	}

	/** An independent copy. */
	public LogRecord copy() {
		LogRecord rec = new LogRecord();
		rec.copyFrom(this);
		return rec;
	}

	/** Makes this record equal to {@code other}, reusing this record's buffers. */
	public void copyFrom(LogRecord other) {
		setKey(other.key, 0, other.keyLength);
		this.valueType = other.valueType;
		this.hashSize = other.hashSize;
		System.arraycopy(other.oldId, 0, this.oldId, 0, other.hashSize);
		System.arraycopy(other.newId, 0, this.newId, 0, other.hashSize);
		this.name = capacity(this.name, other.nameLength);
		System.arraycopy(other.name, 0, this.name, 0, other.nameLength);
		this.nameLength = other.nameLength;
		this.email = capacity(this.email, other.emailLength);
		System.arraycopy(other.email, 0, this.email, 0, other.emailLength);
		this.emailLength = other.emailLength;
		this.time = other.time;
		this.tzOffset = other.tzOffset;
		this.message = capacity(this.message, other.messageLength + 1);
		System.arraycopy(other.message, 0, this.message, 0, other.messageLength);
		this.messageLength = other.messageLength;
	}

	/**
	 * Applies git's message rule: trailing newlines removed, one appended.
	 * @throws IllegalArgumentException if the message has more than one line
	 */
	void cleanMessage() {
		int length = this.messageLength;
		while (length > 0 && this.message[length - 1] == '\n') {
			length--;
		}
		for (int i = 0; i < length; i++) {
			if (this.message[i] == '\n') {
				throw new IllegalArgumentException("log message of " + refName() + " at update index " + updateIndex()
						+ " has more than one line");
			}
		}
		if (this.message.length < length + 1) {
			this.message = java.util.Arrays.copyOf(this.message, length + 1);
		}
		this.message[length] = '\n';
		this.messageLength = length + 1;
	}

	int hashSize() {
		return this.hashSize;
	}

	@Override
	byte blockType() {
		return ReftableConstants.BLOCK_TYPE_LOG;
	}

	@Override
	int encodeValue(byte[] dst, int pos, int limit, int hashSize, long updateIndexBase) {
		if (this.valueType == DELETION) {
			return pos;
		}
		pos = encodeRaw(this.oldId, hashSize, dst, pos, limit);
		pos = (pos < 0) ? -1 : encodeRaw(this.newId, hashSize, dst, pos, limit);
		pos = (pos < 0) ? -1 : encodeString(this.name, this.nameLength, dst, pos, limit);
		pos = (pos < 0) ? -1 : encodeString(this.email, this.emailLength, dst, pos, limit);
		pos = (pos < 0) ? -1 : VarInt.encode(this.time, dst, pos, limit);
		if (pos < 0 || limit - pos < 2) {
			return -1;
		}
		ReftableConstants.putU16(dst, pos, this.tzOffset);
		return encodeString(this.message, this.messageLength, dst, pos + 2, limit);
	}

	@Override
	void decodeValue(int type, BlockReader in) throws CorruptRefStoreException {
		if (this.keyLength < ReftableConstants.LOG_KEY_SUFFIX || this.key[this.keyLength - 9] != 0) {
			throw in.corrupt("log record key does not end with NUL and an update index");
		}
		this.valueType = type;
		if (type == DELETION) {
			this.hashSize = 0;
			this.nameLength = 0;
			this.emailLength = 0;
			this.messageLength = 0;
			this.time = 0;
			this.tzOffset = 0;
			return;
		}
		if (type != UPDATE) {
			throw in.corrupt("log record with unknown value type " + type);
		}
		int size = in.hashSize();
		this.hashSize = size;
		System.arraycopy(in.buffer(), in.take(size), this.oldId, 0, size);
		System.arraycopy(in.buffer(), in.take(size), this.newId, 0, size);
		this.nameLength = in.readLength();
		this.name = capacity(this.name, this.nameLength);
		System.arraycopy(in.buffer(), in.take(this.nameLength), this.name, 0, this.nameLength);
		this.emailLength = in.readLength();
		this.email = capacity(this.email, this.emailLength);
		System.arraycopy(in.buffer(), in.take(this.emailLength), this.email, 0, this.emailLength);
		this.time = in.readVarint();
		this.tzOffset = (short) ReftableConstants.getU16(in.buffer(), in.take(2));
		this.messageLength = in.readLength();
		this.message = capacity(this.message, this.messageLength);
		System.arraycopy(in.buffer(), in.take(this.messageLength), this.message, 0, this.messageLength);
	}

	@Override
	public String toString() {
		return refName() + "@" + updateIndex() + ":" + this.valueType;
	}

}
