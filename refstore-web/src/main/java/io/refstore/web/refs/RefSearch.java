package io.refstore.web.refs;

import java.nio.charset.StandardCharsets;

import io.refstore.core.ref.Wildmatch;

/**
 * The ref browser's search: a name prefix, a glob over the whole name
 * ({@code refs/heads/feature/*}), the keyset cursor (the last name of the previous page)
 * and the page size.
 *
 * @param prefix only names starting with it (empty: all)
 * @param glob only names the glob matches as a whole (empty: all)
 * @param after only names after it (empty: from the first)
 * @param limit refs per page
 */
record RefSearch(String prefix, String glob, String after, int limit) {

	/** The page sizes the browser offers. */
	static final int[] LIMITS = { 50, 100, 500 };

	RefSearch {
		prefix = (prefix == null) ? "" : prefix;
		glob = (glob == null) ? "" : glob;
		after = (after == null) ? "" : after;
	}

	/**
	 * The prefix the store is asked for: the longer of {@link #prefix} and the glob's
	 * literal beginning (the bytes before its first {@code * ? [ \}), when one extends
	 * the other. A glob matches whole names, so every match starts with that literal
	 * beginning, and seeking to it lets a search for {@code refs/tags/v1.*} read only
	 * {@code refs/tags/v1.} instead of every ref: a search stays fast however many refs
	 * the store has.
	 */
	String storePrefix() {
		byte[] pattern = this.glob.getBytes(StandardCharsets.UTF_8);
		int literal = 0;
		while (literal < pattern.length && !Wildmatch.isSpecial(pattern[literal])) {
			literal++;
		}
		String head = new String(pattern, 0, literal, StandardCharsets.UTF_8);
		if (head.startsWith(this.prefix)) {
			return head;
		}
		return this.prefix;
	}

}
