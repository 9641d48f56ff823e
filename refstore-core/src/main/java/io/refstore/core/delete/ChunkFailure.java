package io.refstore.core.delete;

import io.refstore.core.ref.Rejection;

/**
 * Why a chunk of a deletion or a restore was not applied.
 *
 * @param chunk the chunk's number, from 1
 * @param ref the ref that failed, or {@code null} when no single ref is to blame (an I/O
 * error)
 * @param rejection the kind of failure: a transaction's rejection, or
 * {@link Rejection#IO_ERROR}
 * @param message a git-style explanation naming the ref or file
 * @param inDoubt whether the failure came while committing, so that some of the chunk's
 * refs may have been changed; {@code false} means nothing of the chunk was applied
 */
public record ChunkFailure(int chunk, String ref, Rejection rejection, String message, boolean inDoubt) {

	/** A one-line description: chunk, ref and reason. */
	public String describe() {
		return "chunk " + this.chunk + ((this.ref != null) ? " (ref '" + this.ref + "')" : "") + " failed: "
				+ this.message + (this.inDoubt ? " (some of its refs may have been changed)" : "");
	}

}
