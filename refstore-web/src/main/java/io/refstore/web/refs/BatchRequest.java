package io.refstore.web.refs;

import java.util.List;

/**
 * The body of {@code POST .../refs:batch}.
 *
 * @param updates the updates, applied all or none
 * @param message the reflog message (optional)
 */
public record BatchRequest(List<RefUpdateRequest> updates, String message) {
}
