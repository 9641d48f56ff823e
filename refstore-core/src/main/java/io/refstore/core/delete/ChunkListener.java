package io.refstore.core.delete;

import java.io.IOException;
import java.util.List;

import io.refstore.core.ref.Ref;

/**
 * Hears about each chunk of a deletion or restore: for progress reports, and for tests
 * that act between the steps. Both methods do nothing by default. Called on the thread
 * running the deletion.
 */
public interface ChunkListener {

	/** Listens to nothing. */
	ChunkListener NONE = new ChunkListener() {
	};

	/**
	 * Called right before a chunk's transaction takes its locks and commits (for a
	 * deletion, once the chunk is recorded in the manifest).
	 * @param chunk the chunk's number, from 1
	 * @param refs its refs with the values the transaction expects (deletion) or writes
	 * (restore); unmodifiable
	 * @throws IOException to stop the run; the chunk is then recorded as failed and not
	 * applied
	 */
	default void beforeCommit(int chunk, List<Ref> refs) throws IOException {
	}

	/**
	 * Called after a chunk's transaction committed (for a deletion, once the manifest
	 * says so; for a restore, once the chunk's reflogs are back too).
	 * @param chunk the chunk's number, from 1
	 * @param refs its refs
	 */
	default void afterCommit(int chunk, List<Ref> refs) throws IOException {
	}

}
