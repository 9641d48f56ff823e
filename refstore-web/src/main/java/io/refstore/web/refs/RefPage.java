package io.refstore.web.refs;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * One page of a ref listing.
 *
 * @param refs the refs, in bytewise name order
 * @param next the cursor for the next page (the last name of this page, to pass as
 * {@code after}), or {@code null} if this is the last page
 * @param etag an entity tag of this page's content (refs, values, cursor): it changes
 * exactly when the page would change; sent as the {@code ETag} header, not in the body
 */
public record RefPage(List<RefView> refs, String next, @JsonIgnore String etag) {
}
