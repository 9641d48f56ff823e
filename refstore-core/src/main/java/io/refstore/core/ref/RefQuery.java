package io.refstore.core.ref;

import java.util.Objects;

/**
 * What a ref iteration covers.
 *
 * @param prefix only names starting with these bytes (empty: every name under
 * {@code refs/})
 * @param startAfter only names sorting bytewise after this one (empty: from the start),
 * the cursor of keyset paging
 * @param includeRootRefs whether root refs such as {@code HEAD} and {@code ORIG_HEAD}
 * come too, as with {@code git for-each-ref --include-root-refs}
 * @param includeBroken whether refs whose stored value cannot be read come too, marked
 * ({@link RefCursor#isBroken()}), as git's for-each-ref asks for them to warn of them;
 * otherwise they are left out
 */
public record RefQuery(String prefix, String startAfter, boolean includeRootRefs, boolean includeBroken) {

	/** Every ref under {@code refs/}. */
	public static final RefQuery ALL = new RefQuery("", "", false);

	public RefQuery {
		Objects.requireNonNull(prefix, "prefix");
		Objects.requireNonNull(startAfter, "startAfter");
	}

	/** A query that leaves broken refs out. */
	public RefQuery(String prefix, String startAfter, boolean includeRootRefs) {
		this(prefix, startAfter, includeRootRefs, false);
	}

	/** Refs whose names start with {@code prefix}. */
	public static RefQuery prefix(String prefix) {
		return new RefQuery(prefix, "", false);
	}

	/** This query, starting after {@code name}. */
	public RefQuery after(String name) {
		return new RefQuery(this.prefix, name, this.includeRootRefs, this.includeBroken);
	}

	/** This query, with root refs included. */
	public RefQuery withRootRefs() {
		return new RefQuery(this.prefix, this.startAfter, true, this.includeBroken);
	}

	/** This query, with broken refs included and marked. */
	public RefQuery withBroken() {
		return new RefQuery(this.prefix, this.startAfter, this.includeRootRefs, true);
	}

}
