package io.refstore.core.delete;

/**
 * What a restore did.
 *
 * @param chunks how many chunks of the manifest were restored (committed or in-doubt
 * chunks whose refs are all back)
 * @param skippedChunks how many chunks were passed over because nothing of them was
 * deleted (failed, or never ready)
 * @param restored how many refs were recreated
 * @param present how many refs were already there with the manifest's value (never
 * deleted, or restored by an earlier run); their reflogs are completed if they hold a
 * beginning of the saved one
 * @param reflogEntries how many reflog entries were appended
 * @param conflict why nothing was restored: a ref of the manifest exists with another
 * value (found before anything changed), or {@code null}
 * @param failure why the restore stopped at a chunk (the chunks before it are restored,
 * it is not), or {@code null}
 */
public record RestoreResult(int chunks, int skippedChunks, long restored, long present, long reflogEntries,
		ChunkFailure conflict, ChunkFailure failure) {

	/** Whether every deleted ref of the manifest is back. */
	public boolean complete() {
		return this.conflict == null && this.failure == null;
	}

}
