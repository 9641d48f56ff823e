package io.refstore.core.delete;

import java.util.List;

/**
 * What a deletion would remove, found without changing anything.
 *
 * @param matched how many existing refs are selected
 * @param missing how many listed names name no ref
 * @param sample the first selected names, in git's order
 */
public record DryRun(long matched, long missing, List<String> sample) {

	public DryRun {
		sample = List.copyOf(sample);
	}

}
