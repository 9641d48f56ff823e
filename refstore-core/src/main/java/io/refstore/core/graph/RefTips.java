package io.refstore.core.graph;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;

/**
 * Many refs' names and values in flat arrays, the input of {@link CommitHistory#facts}:
 * names back to back as UTF-8, raw values back to back, no object per ref (a million refs
 * cost their bytes). A symbolic ref is kept with the value it resolves to, as
 * {@code for-each-ref} shows it; one that resolves to nothing gets zeros, which name no
 * object.
 *
 * <p>
 * Not thread-safe while refs are added.
 */
public final class RefTips {

	private final HashAlgorithm hash;

	private final int rawLength;

	private byte[] names = new byte[1 << 12];

	private int[] ends = new int[256];

	private byte[] ids;

	private int count;

	/** Empty, for values of {@code hash}. */
	public RefTips(HashAlgorithm hash) {
		this.hash = hash;
		this.rawLength = hash.rawLength();
		this.ids = new byte[256 * this.rawLength];
	}

	/**
	 * Every ref {@code query} lists in {@code store}, in its order.
	 * @throws IOException if the store cannot be read
	 */
	public static RefTips read(RefStore store, RefQuery query) throws IOException {
		RefTips tips = new RefTips(store.hashAlgorithm());
		try (RefCursor cursor = store.refs(query)) {
			while (cursor.next()) {
				tips.add(store, cursor);
			}
		}
		return tips;
	}

	/**
	 * Adds the cursor's current ref, resolving a symbolic one in {@code store}.
	 * @throws IOException if a symbolic ref cannot be resolved for a read error
	 */
	public void add(RefStore store, RefCursor cursor) throws IOException {
		if (cursor.isSymbolic()) {
			Optional<DirectRef> resolved = store.resolve(cursor.name());
			add(cursor.nameBuffer(), cursor.nameLength(), resolved.map(DirectRef::id).orElse(null));
		}
		else {
			addName(cursor.nameBuffer(), cursor.nameLength());
			System.arraycopy(cursor.idBuffer(), 0, this.ids, this.count * this.rawLength, this.rawLength);
			this.count++;
		}
	}

	/**
	 * Adds a ref.
	 * @param name the buffer holding its name from offset 0
	 * @param length the name's length
	 * @param value its value, or {@code null} for none (zeros)
	 */
	public void add(byte[] name, int length, ObjectId value) {
		addName(name, length);
		if (value != null) {
			value.copyRawTo(this.ids, this.count * this.rawLength);
		}
		else {
			Arrays.fill(this.ids, this.count * this.rawLength, (this.count + 1) * this.rawLength, (byte) 0);
		}
		this.count++;
	}

	private void addName(byte[] name, int length) {
		if (this.count == this.ends.length) {
			this.ends = Arrays.copyOf(this.ends, this.count * 2);
			this.ids = Arrays.copyOf(this.ids, this.count * 2 * this.rawLength);
		}
		int start = nameStart(this.count);
		if (start + length > this.names.length) {
			this.names = Arrays.copyOf(this.names, Math.max(this.names.length * 2, start + length));
		}
		System.arraycopy(name, 0, this.names, start, length);
		this.ends[this.count] = start + length;
	}

	/** How many refs. */
	public int count() {
		return this.count;
	}

	/** Where ref {@code i}'s name starts in {@link #nameBytes()}. */
	public int nameStart(int i) {
		return (i == 0) ? 0 : this.ends[i - 1];
	}

	/** Where ref {@code i}'s name ends in {@link #nameBytes()}. */
	public int nameEnd(int i) {
		return this.ends[i];
	}

	/** The names back to back; the caller must not change them. */
	public byte[] nameBytes() {
		return this.names;
	}

	/** Ref {@code i}'s name. */
	public String name(int i) {
		int start = nameStart(i);
		return new String(this.names, start, this.ends[i] - start, StandardCharsets.UTF_8);
	}

	/** Ref {@code i}'s value (zeros for a symbolic ref that resolves to nothing). */
	public ObjectId id(int i) {
		return ObjectId.fromRaw(this.hash, this.ids, i * this.rawLength);
	}

	/** The raw values back to back; the caller must not change them. */
	public byte[] ids() {
		return this.ids;
	}

	/**
	 * The facts of every ref: {@link CommitHistory#facts} over these values.
	 * @param base the commit to judge against, or {@code null}
	 * @param counts whether to count ahead and behind
	 * @throws IOException if the object database cannot be read
	 */
	public TipFacts facts(CommitHistory history, ObjectId base, boolean counts) throws IOException {
		return history.facts(this.ids, this.count, base, counts);
	}

}
