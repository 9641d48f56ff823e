package io.refstore.web.refs;

import java.util.List;

/**
 * The branches "Delete merged branches" would plan: merged into the branch {@code HEAD}
 * names, less that branch and the protected ones.
 *
 * @param base the branch they are merged into, or {@code null} when {@code HEAD} names
 * none with a commit (then none is merged)
 * @param count how many
 * @param kept how many merged branches stay: {@code HEAD}'s and the protected ones
 * @param sample the first {@value BranchService#MERGED_SAMPLE} of them, in name order
 * @param note why none can be judged merged, or {@code null}
 */
public record MergedBranches(String base, long count, long kept, List<String> sample, String note) {
}
