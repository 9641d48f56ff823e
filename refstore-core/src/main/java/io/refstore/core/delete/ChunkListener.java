package io.refstore.core.delete;

import java.io.IOException;
import java.util.List;

import io.refstore.core.ref.Ref;

/**
 * Hears about each chunk of a deletion or restore: for progress reports, and for tests that act between the
 * steps. Both methods do nothing by default. Called on the thread running the deletion.
 */
public interface ChunkListener {

	/** Listens to nothing. */
	ChunkListener NONE = new ChunkListener() {
	};

	/**
	 * Called once a chunk is recorded in the manifest, right before its transaction commits.
	 * @param chunk the chunk's number, from 1
	 * @param refs its refs with the values it expects to find
	 * @throws IOException to stop the run; the chunk is then recorded as failed and not applied
	 */
	default void beforeCommit(int chunk, List<Ref> refs) throws IOException {
	}

	/**
	 * Called after a chunk's transaction committed and the manifest says so.
	 * @param chunk the chunk's number, from 1
	 * @param refs its refs
	 */
	default void afterCommit(int chunk, List<Ref> refs) throws IOException {
	}

}
