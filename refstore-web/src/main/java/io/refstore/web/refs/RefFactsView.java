package io.refstore.web.refs;

import java.util.ArrayList;
import java.util.List;

/**
 * One ref as the API lists it with {@code facts=true}: the {@link RefView} fields and its
 * commit's columns.
 *
 * @param ref the full name
 * @param object the object it finally points to, or {@code null}
 * @param peeled for an annotated tag, the object it peels to; else {@code null}
 * @param symref for a symbolic ref, the name it points to; else {@code null}
 * @param date the creator date in ISO-8601 UTC (a commit's committer date, an annotated
 * tag's tagger date), or {@code null} for a tree, a blob or a missing object
 * @param author a commit's author or an annotated tag's tagger, or {@code null}
 * @param email that person's email, or {@code null}
 * @param subject the message's subject, or {@code null}
 * @param merged whether the branch {@code HEAD} names reaches it, or {@code null} when
 * {@code HEAD} names no commit
 */
public record RefFactsView(String ref, RefView.ObjectView object, String peeled, String symref, String date,
		String author, String email, String subject, Boolean merged) {

	/**
	 * A page's refs with their columns.
	 *
	 * @param refs the refs, in bytewise name order
	 * @param next the cursor for the next page, or {@code null} on the last
	 */
	public record Page(List<RefFactsView> refs, String next) {

	}

	static Page of(RefPage page, List<RefCommit> commits) {
		List<RefFactsView> refs = new ArrayList<>(page.refs().size());
		for (int i = 0; i < page.refs().size(); i++) {
			RefView view = page.refs().get(i);
			RefCommit commit = commits.get(i);
			refs.add(new RefFactsView(view.ref(), view.object(), view.peeled(), view.symref(),
					(commit.date() != null) ? commit.date().toString() : null, commit.author(), commit.email(),
					commit.subject(), commit.merged()));
		}
		return new Page(refs, page.next());
	}

}
