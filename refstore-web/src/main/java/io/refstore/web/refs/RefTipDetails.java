package io.refstore.web.refs;

/**
 * What one ref's page shows of its commit: the columns of the ref browser, and how it
 * relates to the branch {@code HEAD} names.
 *
 * @param commit the date, author and subject
 * @param base the branch it is judged against, or {@code null} when {@code HEAD} names
 * none with a commit
 * @param merged whether the base reaches it
 * @param ahead commits it has that the base lacks, or -1 when unknown (no base, no
 * commit)
 * @param behind commits the base has that it lacks, or -1 when unknown
 */
public record RefTipDetails(RefCommit commit, String base, boolean merged, int ahead, int behind) {
}
