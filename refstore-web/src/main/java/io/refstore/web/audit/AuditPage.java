package io.refstore.web.audit;

import java.util.List;

/**
 * A page of audit entries, newest first.
 *
 * @param entries the entries
 * @param next the cursor of the next page (pass it as {@code before}), or {@code null} on
 * the last page
 */
public record AuditPage(List<AuditEntry> entries, Long next) {
}
