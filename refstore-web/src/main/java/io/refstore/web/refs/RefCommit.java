package io.refstore.web.refs;

import java.time.Instant;

/**
 * What a ref's row shows of the commit or tag it points to: the creator date (as
 * {@code for-each-ref}'s {@code creatordate}: a commit's committer date, an annotated
 * tag's tagger date), who made it (a commit's author, a tag's tagger) and its subject
 * (the message's first paragraph on one line, git's {@code %(subject)}).
 *
 * @param date the creator date, or {@code null} for a tree, a blob or a missing object
 * @param author the author's (tagger's) name, or {@code null}
 * @param email the author's (tagger's) email without angle brackets, or {@code null}
 * @param subject the subject, or {@code null}
 * @param merged whether the branch the listing judged against reaches it, or {@code null}
 * when it judged none
 */
public record RefCommit(Instant date, String author, String email, String subject, Boolean merged) {

	/** A row for a ref that points to nothing dated (a tree, a blob, no object). */
	public static final RefCommit NONE = new RefCommit(null, null, null, null, null);

}
