package io.refstore.core.delete;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;

/**
 * Streams the existing refs of a {@link RefSelection} in git's bytewise name order, each
 * once: the prefix and glob matches come from one cursor per
 * {@linkplain RefSelection#scanPrefixes() scan prefix}, the listed names from lookups,
 * merged by name so that a ref both listed and matched comes once. Exclusions are applied
 * to both, then protection: a protected ref is passed over and counted in
 * {@link #kept()}. {@code HEAD} is read once, when the stream is opened. Nothing is kept
 * per ref: the current name is read from the cursor's buffer, and {@link #ref()} copies
 * the current ref only when the caller wants it.
 *
 * <p>
 * Each cursor is one snapshot of its range; a ref changed after its snapshot was taken is
 * still reported with its old value (a deletion then fails its compare-and-swap instead
 * of deleting a newer value).
 *
 * <p>
 * Not thread-safe. Close it to release the open cursor.
 */
final class SelectedRefs implements Closeable {

	private final RefStore store;

	private final RefSelection selection;

	private final List<String> ranges;

	private final byte[][] names;

	private int rangeIndex;

	private RefCursor cursor;

	/** Whether the cursor stands on a selected ref that was not yet returned. */
	private boolean cursorPending;

	private int nameIndex;

	/**
	 * The current ref when it came from a lookup of a listed name; {@code null} when it
	 * is the cursor's.
	 */
	private Ref listed;

	private boolean currentFromCursor;

	private long missing;

	private final ProtectedRefs protection;

	/** The refs {@code HEAD} leads to, if its branch is protected. */
	private final byte[][] headChain;

	private final ProtectedRefs.Tally kept;

	/**
	 * @param sampleSize how many kept refs {@link #kept()} names
	 * @throws IOException if {@code HEAD} cannot be read
	 */
	SelectedRefs(RefStore store, RefSelection selection, int sampleSize) throws IOException {
		this.store = store;
		this.selection = selection;
		this.ranges = selection.scanPrefixes();
		this.names = selection.names();
		this.protection = selection.protection();
		this.headChain = this.protection.protectsHead() ? headChain(store) : new byte[0][];
		this.kept = new ProtectedRefs.Tally(sampleSize);
	}

	/**
	 * The names {@code HEAD} points to, following symbolic refs as far as a resolution
	 * would.
	 */
	private static byte[][] headChain(RefStore store) throws IOException {
		List<byte[]> chain = new ArrayList<>();
		Optional<Ref> ref = store.exactRef("HEAD");
		for (int depth = 0; depth <= RefStore.MAX_SYMREF_DEPTH && ref.isPresent()
				&& ref.get() instanceof SymbolicRef symbolic; depth++) {
			chain.add(symbolic.target().getBytes(StandardCharsets.UTF_8));
			ref = store.exactRef(symbolic.target());
		}
		return chain.toArray(new byte[0][]);
	}

	/**
	 * Moves to the next selected ref that exists.
	 * @return {@code false} when there are no more
	 * @throws IOException if the store cannot be read
	 */
	boolean next() throws IOException {
		this.listed = null;
		if (this.currentFromCursor) {
			this.cursorPending = false;
			this.currentFromCursor = false;
		}
		while (true) {
			boolean fromCursor = advanceCursor();
			byte[] name = nextListedName();
			if (name == null && !fromCursor) {
				return false;
			}
			int order = (name == null) ? 1 : !fromCursor ? -1 : Arrays.compareUnsigned(name, 0, name.length,
					this.cursor.nameBuffer(), 0, this.cursor.nameLength());
			if (order >= 0) {
				// a name both listed and matched is the cursor's ref: take it once
				this.nameIndex += (order == 0) ? 1 : 0;
				this.currentFromCursor = true;
				return true;
			}
			this.nameIndex++;
			Optional<Ref> ref = this.store.exactRef(new String(name, StandardCharsets.UTF_8));
			if (ref.isPresent()) {
				this.listed = ref.get();
				return true;
			}
			this.missing++;
		}
	}

	/**
	 * The current name's bytes, valid in {@code [0, nameLength())} until the next call to
	 * {@link #next()}.
	 */
	byte[] nameBuffer() {
		return this.currentFromCursor ? this.cursor.nameBuffer() : this.names[this.nameIndex - 1];
	}

	/** Length of the current name. */
	int nameLength() {
		return this.currentFromCursor ? this.cursor.nameLength() : this.names[this.nameIndex - 1].length;
	}

	/** A copy of the current ref. */
	Ref ref() {
		return this.currentFromCursor ? this.cursor.ref() : this.listed;
	}

	/** How many listed names were passed over because no such ref exists. */
	long missing() {
		return this.missing;
	}

	/** The selected refs protection kept, so far. */
	ProtectedRefs.Report kept() {
		return this.kept.report(this.protection);
	}

	/**
	 * Makes the cursor stand on the next selected ref unless it already does, opening the
	 * cursors of later ranges as needed.
	 * @return whether it stands on one (the current ref of the cursor is then pending)
	 */
	private boolean advanceCursor() throws IOException {
		if (this.cursorPending) {
			return true;
		}
		while (true) {
			if (this.cursor == null) {
				if (this.rangeIndex == this.ranges.size()) {
					return false;
				}
				this.cursor = this.store.refs(RefQuery.prefix(this.ranges.get(this.rangeIndex++)));
			}
			while (this.cursor.next()) {
				byte[] name = this.cursor.nameBuffer();
				int length = this.cursor.nameLength();
				if (this.selection.matchesPattern(name, length) && !this.selection.excluded(name, length)) {
					String protecting = this.protection.protecting(name, length, this.headChain);
					if (protecting == null) {
						this.cursorPending = true;
						return true;
					}
					this.kept.add(name, length, protecting);
				}
			}
			this.cursor.close();
			this.cursor = null;
		}
	}

	/**
	 * The next listed name that is neither excluded nor protected, without consuming it;
	 * {@code null} when there are none.
	 */
	private byte[] nextListedName() throws IOException {
		while (this.nameIndex < this.names.length) {
			byte[] name = this.names[this.nameIndex];
			if (!this.selection.excluded(name, name.length)) {
				String protecting = this.protection.protecting(name, name.length, this.headChain);
				if (protecting == null) {
					return name;
				}
				keepListed(name, protecting);
			}
			this.nameIndex++;
		}
		return null;
	}

	/**
	 * Counts a protected listed name as kept if it exists, or as missing. One a prefix or
	 * glob matches too is left to the cursor, so that it is counted once.
	 */
	private void keepListed(byte[] name, String protecting) throws IOException {
		if (this.store.exactRef(new String(name, StandardCharsets.UTF_8)).isEmpty()) {
			this.missing++;
		}
		else if (!this.selection.matchesPattern(name, name.length)) {
			this.kept.add(name, name.length, protecting);
		}
	}

	@Override
	public void close() throws IOException {
		if (this.cursor != null) {
			this.cursor.close();
			this.cursor = null;
		}
	}

}
