package io.refstore.core.ref;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Iterates refs in git's order: bytewise by the UTF-8 bytes of the name. The buffers
 * returned by the accessors belong to the cursor and are overwritten by the next call to
 * {@link #next()}, so a caller that streams refs (printing a million of them) allocates
 * nothing per ref; {@link #ref()} makes a copy that stays valid.
 *
 * <p>
 * Not thread-safe. Close it to release files it holds open.
 */
public interface RefCursor extends Closeable {

	/**
	 * Moves to the next ref.
	 * @return {@code false} when there are no more refs
	 * @throws IOException if the store cannot be read
	 */
	boolean next() throws IOException;

	/**
	 * The current name's bytes, valid in {@code [0, nameLength())} until the next call to
	 * {@link #next()}.
	 */
	byte[] nameBuffer();

	/** Length of the current name in {@link #nameBuffer()}. */
	int nameLength();

	/**
	 * Whether the current ref is symbolic; then {@link #targetBuffer()} holds its target.
	 */
	boolean isSymbolic();

	/**
	 * Whether the current ref's stored value cannot be read (an empty or garbled loose
	 * file): only a query that asks for broken refs ({@link RefQuery#includeBroken()})
	 * meets one; its id buffer then holds zeros.
	 */
	default boolean isBroken() {
		return false;
	}

	/** Raw bytes of the current object id at offset 0 (only for a direct ref). */
	byte[] idBuffer();

	/**
	 * Whether the current direct ref carries a peeled value in {@link #peeledBuffer()}.
	 */
	boolean hasPeeled();

	/**
	 * Whether the store knows for sure whether the current ref peels: then
	 * {@link #hasPeeled()} is the answer and no object needs to be read
	 * ({@code packed-refs} with the {@code fully-peeled} trait, a reftable record with a
	 * peeled value). Loose refs carry no peeled value, nor do reftable records of type 1,
	 * which may still be tags, so for them this is {@code false} and a caller wanting the
	 * peeled value reads the object.
	 */
	boolean peelKnown();

	/**
	 * Raw bytes of the current peeled id at offset 0 (only when {@link #hasPeeled()}).
	 */
	byte[] peeledBuffer();

	/**
	 * The symbolic target's bytes (only for a symbolic ref), valid in
	 * {@code [0, targetLength())}.
	 */
	byte[] targetBuffer();

	/** Length of the symbolic target. */
	int targetLength();

	/** The hash of the ids in {@link #idBuffer()} and {@link #peeledBuffer()}. */
	HashAlgorithm hashAlgorithm();

	/** The current name as a string (allocates). */
	default String name() {
		return new String(nameBuffer(), 0, nameLength(), StandardCharsets.UTF_8);
	}

	/** A copy of the current ref that outlives the cursor (allocates). */
	default Ref ref() {
		if (isSymbolic()) {
			return new SymbolicRef(name(), new String(targetBuffer(), 0, targetLength(), StandardCharsets.UTF_8));
		}
		ObjectId id = ObjectId.fromRaw(hashAlgorithm(), idBuffer(), 0);
		ObjectId peeled = hasPeeled() ? ObjectId.fromRaw(hashAlgorithm(), peeledBuffer(), 0) : null;
		return new DirectRef(name(), id, peeled);
	}

}
