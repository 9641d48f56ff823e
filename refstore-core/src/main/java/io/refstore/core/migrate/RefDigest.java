package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;

/**
 * A SHA-256 digest over everything a migration must carry: every ref (root refs included)
 * with its value, fully peeled value and symbolic target, and every reflog entry. Two
 * stores with equal digests hold the same refs and logs, whatever their formats.
 *
 * <p>
 * Feed it in the stores' own order ({@link #addRef(RefCursor)} for each ref, then
 * {@link #addReflog(String, List)} for each log in name order). Not thread-safe.
 */
public final class RefDigest {

	private final MessageDigest sha;

	private final ObjectDatabase objects;

	private final byte[] scratch = new byte[64];

	/** How many ids' peeled values {@link #remembered} keeps before it starts again. */
	private static final int MAX_PEELS = 4096;

	/** The value {@link #peels} keeps for an id that is no annotated tag. */
	private static final ObjectId NOT_A_TAG = ObjectId.fromRaw(HashAlgorithm.SHA1, new byte[20], 0);

	private final Map<ObjectId, ObjectId> peels = new HashMap<>();

	/**
	 * Bytes not yet given to the digest: a ref adds seven short pieces, and handing each
	 * to {@link MessageDigest} costs more than hashing it, so they are gathered and
	 * hashed 64 KiB at a time. The hashed stream is the same, so is the digest.
	 */
	private final byte[] pending = new byte[1 << 16];

	private int pendingLength;

	private long refs;

	private long logEntries;

	/**
	 * @param objects peels refs whose store does not know whether they peel (loose refs)
	 */
	public RefDigest(ObjectDatabase objects) {
		try {
			this.sha = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is part of every Java platform", ex);
		}
		this.objects = objects;
	}

	/** The digest of a whole store, read through its contract. */
	public static RefDigest of(RefStore store, ObjectDatabase objects, boolean withReflogs) throws IOException {
		return of(store, objects, withReflogs, MigrationProgress.NONE);
	}

	/**
	 * The digest of a whole store, telling {@code progress} how many refs it has read
	 * (every 1,024 and at the end).
	 */
	public static RefDigest of(RefStore store, ObjectDatabase objects, boolean withReflogs, MigrationProgress progress)
			throws IOException {
		return of(store, objects, withReflogs, null, progress);
	}

	/**
	 * The digest of a whole store with the logs of the names given, read in their order
	 * without listing the store's logs (in the files format a log per ref is a directory
	 * to list per ref): for a store just written from those names.
	 */
	static RefDigest of(RefStore store, ObjectDatabase objects, List<String> reflogNames, MigrationProgress progress)
			throws IOException {
		return of(store, objects, true, reflogNames, progress);
	}

	private static RefDigest of(RefStore store, ObjectDatabase objects, boolean withReflogs, List<String> reflogNames,
			MigrationProgress progress) throws IOException {
		RefDigest digest = new RefDigest(objects);
		long count = 0;
		try (RefCursor cursor = store.refs(RefQuery.ALL.withRootRefs())) {
			while (cursor.next()) {
				digest.addRef(cursor);
				if (++count % 1024 == 0) {
					progress.update(count);
				}
			}
		}
		progress.update(count);
		if (withReflogs && reflogNames == null) {
			store.forEachReflog(digest::addReflog);
		}
		else if (withReflogs) {
			store.forEachReflog(reflogNames, digest::addReflog);
		}
		return digest;
	}

	/**
	 * Adds the cursor's current ref.
	 * @return the fully peeled id's raw bytes if the ref is an annotated tag (the
	 * digest's own buffer, valid until the next call), else {@code null}
	 */
	public byte[] addRef(RefCursor cursor) throws IOException {
		this.refs++;
		put(cursor.nameBuffer(), 0, cursor.nameLength());
		put((byte) 0);
		if (cursor.isSymbolic()) {
			put((byte) 'S');
			put(cursor.targetBuffer(), 0, cursor.targetLength());
			put((byte) '\n');
			return null;
		}
		int length = cursor.hashAlgorithm().rawLength();
		put((byte) 'D');
		put(cursor.idBuffer(), 0, length);
		byte[] peeled = cursor.peelKnown() ? peeled(cursor, this.objects, this.scratch) : remembered(cursor);
		if (peeled != null) {
			put((byte) 'P');
			put(peeled, 0, length);
		}
		put((byte) '\n');
		return peeled;
	}

	/**
	 * The fully peeled value of the cursor's current direct ref: the store's if it knows,
	 * else read from the objects.
	 * @param scratch receives an id read from the objects (at least as long as the hash's
	 * raw length)
	 * @return the peeled id's raw bytes at offset 0 (the cursor's buffer or
	 * {@code scratch}), or {@code null} if the value is not an annotated tag
	 */
	static byte[] peeled(RefCursor cursor, ObjectDatabase objects, byte[] scratch) throws IOException {
		if (cursor.peelKnown()) {
			return cursor.hasPeeled() ? cursor.peeledBuffer() : null;
		}
		ObjectId id = objects.peel(ObjectId.fromRaw(cursor.hashAlgorithm(), cursor.idBuffer(), 0));
		if (id == null) {
			return null;
		}
		id.copyRawTo(scratch, 0);
		return scratch;
	}

	/**
	 * {@link #peeled} of a ref whose store does not know its peeled value, read from the
	 * objects once per id: refs often name the same objects (a branch and its keep-around
	 * and merge-request refs), and a loose one is a file to open and inflate.
	 */
	private byte[] remembered(RefCursor cursor) throws IOException {
		ObjectId id = ObjectId.fromRaw(cursor.hashAlgorithm(), cursor.idBuffer(), 0);
		ObjectId peeled = this.peels.get(id);
		if (peeled == null) {
			byte[] read = peeled(cursor, this.objects, this.scratch);
			peeled = (read != null) ? ObjectId.fromRaw(cursor.hashAlgorithm(), read, 0) : NOT_A_TAG;
			if (this.peels.size() >= MAX_PEELS) {
				this.peels.clear();
			}
			this.peels.put(id, peeled);
		}
		if (peeled == NOT_A_TAG) {
			return null;
		}
		peeled.copyRawTo(this.scratch, 0);
		return this.scratch;
	}

	/** Adds one ref's log, oldest entry first. */
	public void addReflog(String name, List<ReflogEntry> entries) {
		put((byte) 'L');
		put(name.getBytes(StandardCharsets.UTF_8));
		put((byte) 0);
		for (ReflogEntry entry : entries) {
			this.logEntries++;
			put(entry.oldId().toRaw());
			put(entry.newId().toRaw());
			String line = entry.who().name() + '\0' + entry.who().email() + '\0' + entry.who().epochSeconds() + '\0'
					+ entry.who().tzOffset() + '\0' + entry.message() + '\n';
			put(line.getBytes(StandardCharsets.UTF_8));
		}
	}

	private void put(byte b) {
		if (this.pendingLength == this.pending.length) {
			drain();
		}
		this.pending[this.pendingLength++] = b;
	}

	private void put(byte[] bytes) {
		put(bytes, 0, bytes.length);
	}

	private void put(byte[] bytes, int offset, int length) {
		if (length > this.pending.length - this.pendingLength) {
			drain();
			if (length > this.pending.length) {
				this.sha.update(bytes, offset, length);
				return;
			}
		}
		System.arraycopy(bytes, offset, this.pending, this.pendingLength, length);
		this.pendingLength += length;
	}

	private void drain() {
		this.sha.update(this.pending, 0, this.pendingLength);
		this.pendingLength = 0;
	}

	/** Number of refs added. */
	public long refs() {
		return this.refs;
	}

	/** Number of log entries added. */
	public long logEntries() {
		return this.logEntries;
	}

	/** The digest in hex; ends the digest. */
	public String finish() {
		drain();
		byte[] hash = this.sha.digest();
		byte[] hex = new byte[hash.length * 2];
		ObjectId.encodeHex(hash, 0, hash.length, hex, 0);
		return new String(hex, StandardCharsets.US_ASCII);
	}

}
