package io.refstore.core.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.ReflogEntry;

/**
 * A SHA-256 digest over everything a migration must carry: every ref (root refs included) with its value,
 * fully peeled value and symbolic target, and every reflog entry. Two stores with equal digests hold the
 * same refs and logs, whatever their formats.
 *
 * <p>Feed it in the stores' own order ({@link #addRef(RefCursor)} for each ref, then
 * {@link #addReflog(String, List)} for each log in name order). Not thread-safe.
 */
public final class RefDigest {

	private final MessageDigest sha;

	private final ObjectDatabase objects;

	private final byte[] scratch = new byte[64];

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
		RefDigest digest = new RefDigest(objects);
		try (RefCursor cursor = store.refs(RefQuery.ALL.withRootRefs())) {
			while (cursor.next()) {
				digest.addRef(cursor);
			}
		}
		if (withReflogs) {
			for (String name : store.reflogNames()) {
				digest.addReflog(name, store.reflog(name));
			}
		}
		return digest;
	}

	/**
	 * Adds the cursor's current ref.
	 * @return the fully peeled id's raw bytes if the ref is an annotated tag (the digest's own buffer, valid
	 * until the next call), else {@code null}
	 */
	public byte[] addRef(RefCursor cursor) throws IOException {
		this.refs++;
		this.sha.update(cursor.nameBuffer(), 0, cursor.nameLength());
		this.sha.update((byte) 0);
		if (cursor.isSymbolic()) {
			this.sha.update((byte) 'S');
			this.sha.update(cursor.targetBuffer(), 0, cursor.targetLength());
			this.sha.update((byte) '\n');
			return null;
		}
		int length = cursor.hashAlgorithm().rawLength();
		this.sha.update((byte) 'D');
		this.sha.update(cursor.idBuffer(), 0, length);
		byte[] peeled = peeled(cursor, this.objects, this.scratch);
		if (peeled != null) {
			this.sha.update((byte) 'P');
			this.sha.update(peeled, 0, length);
		}
		this.sha.update((byte) '\n');
		return peeled;
	}

	/**
	 * The fully peeled value of the cursor's current direct ref: the store's if it knows, else read from the
	 * objects.
	 * @param scratch receives an id read from the objects (at least as long as the hash's raw length)
	 * @return the peeled id's raw bytes at offset 0 (the cursor's buffer or {@code scratch}), or {@code null} if
	 * the value is not an annotated tag
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

	/** Adds one ref's log, oldest entry first. */
	public void addReflog(String name, List<ReflogEntry> entries) {
		this.sha.update((byte) 'L');
		this.sha.update(name.getBytes(StandardCharsets.UTF_8));
		this.sha.update((byte) 0);
		for (ReflogEntry entry : entries) {
			this.logEntries++;
			this.sha.update(entry.oldId().toRaw());
			this.sha.update(entry.newId().toRaw());
			String line = entry.who().name() + '\0' + entry.who().email() + '\0' + entry.who().epochSeconds() + '\0'
					+ entry.who().tzOffset() + '\0' + entry.message() + '\n';
			this.sha.update(line.getBytes(StandardCharsets.UTF_8));
		}
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
		byte[] hash = this.sha.digest();
		byte[] hex = new byte[hash.length * 2];
		ObjectId.encodeHex(hash, 0, hash.length, hex, 0);
		return new String(hex, StandardCharsets.US_ASCII);
	}

}
