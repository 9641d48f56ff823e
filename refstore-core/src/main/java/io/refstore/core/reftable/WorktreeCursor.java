package io.refstore.core.reftable;

import java.io.IOException;
import java.util.Arrays;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.WorktreeRef;

/**
 * The refs a linked worktree sees, in name order: the shared ones from the common stack
 * and the worktree's own from its stack. Each stack's names of the other kind are left
 * out (the common stack also holds the main worktree's own refs), as git's reftable
 * backend merges them.
 */
final class WorktreeCursor extends ForwardingCursor {

	private final RefCursor shared;

	private final RefCursor own;

	private boolean sharedReady;

	private boolean ownReady;

	private boolean started;

	/**
	 * The cursor whose ref is current, or {@code null} before the first and at the end.
	 */
	private RefCursor current;

	WorktreeCursor(RefCursor shared, RefCursor own) {
		this.shared = shared;
		this.own = own;
	}

	@Override
	public boolean next() throws IOException {
		if (!this.started) {
			this.started = true;
			this.sharedReady = advance(this.shared, false);
			this.ownReady = advance(this.own, true);
		}
		else if (this.current == this.shared) {
			this.sharedReady = advance(this.shared, false);
		}
		else if (this.current == this.own) {
			this.ownReady = advance(this.own, true);
		}
		if (this.sharedReady && this.ownReady) {
			int order = Arrays.compareUnsigned(this.shared.nameBuffer(), 0, this.shared.nameLength(),
					this.own.nameBuffer(), 0, this.own.nameLength());
			this.current = (order <= 0) ? this.shared : this.own;
		}
		else {
			this.current = this.sharedReady ? this.shared : (this.ownReady ? this.own : null);
		}
		return this.current != null;
	}

	/** Moves {@code cursor} to its next ref of the wanted kind. */
	private static boolean advance(RefCursor cursor, boolean perWorktree) throws IOException {
		while (cursor.next()) {
			if (WorktreeRef.isPerWorktree(cursor.nameBuffer(), cursor.nameLength()) == perWorktree) {
				return true;
			}
		}
		return false;
	}

	@Override
	protected RefCursor current() {
		return this.current;
	}

	/** Known before the first ref and after the last, as of any cursor. */
	@Override
	public HashAlgorithm hashAlgorithm() {
		return this.shared.hashAlgorithm();
	}

	@Override
	public void close() throws IOException {
		try {
			this.shared.close();
		}
		finally {
			this.own.close();
		}
	}

}
