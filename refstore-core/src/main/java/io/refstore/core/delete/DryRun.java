package io.refstore.core.delete;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a deletion would remove, found without changing anything.
 *
 * @param matched how many existing refs are selected (protected ones not counted)
 * @param missing how many listed names name no ref
 * @param sample the first selected names, in git's order
 * @param kept the refs the selection picked but protection keeps
 * ({@link ProtectedRefs.Report#NONE} if none)
 * @param criteria with criteria, how many refs each matched among those the names,
 * prefixes, globs and namespaces picked, in the selection's order (the first entry is
 * that pick itself); empty without criteria
 * @param reasons with criteria, why each ref of the sample was selected (its facts per
 * criterion), by index; empty without criteria
 */
public record DryRun(long matched, long missing, List<String> sample, ProtectedRefs.Report kept,
		Map<String, Long> criteria, List<String> reasons) {

	public DryRun {
		sample = List.copyOf(sample);
		Objects.requireNonNull(kept, "kept");
		criteria = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(criteria));
		reasons = List.copyOf(reasons);
	}

	/** A dry run without criteria. */
	public DryRun(long matched, long missing, List<String> sample, ProtectedRefs.Report kept) {
		this(matched, missing, sample, kept, Map.of(), List.of());
	}

}
