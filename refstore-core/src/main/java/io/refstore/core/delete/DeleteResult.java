package io.refstore.core.delete;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a deletion did.
 *
 * @param manifest the manifest written
 * @param deleted how many refs were deleted (the refs of committed chunks)
 * @param chunks how many chunks committed
 * @param missing how many listed names named no ref (counted up to where the run stopped)
 * @param sample the first selected names, in git's order
 * @param kept the refs the selection picked but protection kept (counted up to where the
 * run stopped)
 * @param failure why the run stopped early, or {@code null} if every selected ref was
 * deleted
 */
public record DeleteResult(Path manifest, long deleted, int chunks, long missing, List<String> sample,
		ProtectedRefs.Report kept, ChunkFailure failure) {

	public DeleteResult {
		sample = List.copyOf(sample);
		java.util.Objects.requireNonNull(kept, "kept");
	}

	/** The failure, if the run stopped at a chunk that was not applied. */
	public Optional<ChunkFailure> failed() {
		return Optional.ofNullable(this.failure);
	}

}
