package io.refstore.core.delete;

import java.util.List;
import java.util.Objects;

/**
 * What a deletion would remove, found without changing anything.
 *
 * @param matched how many existing refs are selected (protected ones not counted)
 * @param missing how many listed names name no ref
 * @param sample the first selected names, in git's order
 * @param kept the refs the selection picked but protection keeps
 * ({@link ProtectedRefs.Report#NONE} if none)
 */
public record DryRun(long matched, long missing, List<String> sample, ProtectedRefs.Report kept) {

	public DryRun {
		sample = List.copyOf(sample);
		Objects.requireNonNull(kept, "kept");
	}

}
