package io.refstore.core.ref;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * Writes a new ref store in bulk ("initial transaction" semantics): the target is new and
 * private to the writer, so nothing is locked or checked for collisions, and refs go
 * straight into their final form (one {@code packed-refs}, or one reftable) instead of
 * one file or table per ref.
 *
 * <p>
 * Call {@link #addDirect} and {@link #addSymbolic} for every ref in bytewise name order
 * (root refs such as {@code HEAD} sort before {@code refs/}), then {@link #addReflog} for
 * every log in name order, then {@link #finish()}. Buffers passed in are read during the
 * call only. Not thread-safe.
 */
public interface InitialRefWriter extends Closeable {

	/**
	 * Adds a ref holding an object id.
	 * @param name the name's bytes, {@code [0, nameLength)}
	 * @param id raw id bytes at offset 0
	 * @param peeled raw bytes of the fully peeled id at offset 0 if the value is an
	 * annotated tag, else {@code null}
	 */
	void addDirect(byte[] name, int nameLength, byte[] id, byte[] peeled) throws IOException;

	/** Adds a symbolic ref. */
	void addSymbolic(byte[] name, int nameLength, String target) throws IOException;

	/**
	 * Adds a ref's log, oldest entry first, each message stored as git's migration stores
	 * it: normalised again ({@link ReflogEntry#normalizeMessage}), and in a reftable cut
	 * to half a block.
	 * @return the entries as the new store will read them back ({@code entries} itself if
	 * no message changed), for the digest that the read-back store is compared with
	 */
	List<ReflogEntry> addReflog(String name, List<ReflogEntry> entries) throws IOException;

	/** Completes the store; nothing is visible as a store before this returns. */
	void finish() throws IOException;

}
