package io.refstore.core.reftable;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;

/**
 * A ref cursor that answers for its current ref with another cursor's: a subclass moves
 * ({@link #next()}, {@link #close()}) and says which cursor is current.
 */
abstract class ForwardingCursor implements RefCursor {

	/** The cursor positioned on the current ref. */
	protected abstract RefCursor current();

	@Override
	public byte[] nameBuffer() {
		return current().nameBuffer();
	}

	@Override
	public int nameLength() {
		return current().nameLength();
	}

	@Override
	public boolean isBroken() {
		return current().isBroken();
	}

	@Override
	public boolean isSymbolic() {
		return current().isSymbolic();
	}

	@Override
	public byte[] idBuffer() {
		return current().idBuffer();
	}

	@Override
	public boolean hasPeeled() {
		return current().hasPeeled();
	}

	@Override
	public boolean peelKnown() {
		return current().peelKnown();
	}

	@Override
	public byte[] peeledBuffer() {
		return current().peeledBuffer();
	}

	@Override
	public byte[] targetBuffer() {
		return current().targetBuffer();
	}

	@Override
	public int targetLength() {
		return current().targetLength();
	}

	@Override
	public HashAlgorithm hashAlgorithm() {
		return current().hashAlgorithm();
	}

}
