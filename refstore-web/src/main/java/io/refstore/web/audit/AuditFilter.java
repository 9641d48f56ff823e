package io.refstore.web.audit;

import java.time.Instant;

/**
 * What {@link AuditLog#search} returns: every non-null field must match.
 *
 * @param actor the user name
 * @param action the action, such as {@code ref.update}
 * @param repository the repository name
 * @param outcome the outcome
 * @param from only entries at or after this time
 * @param to only entries before this time
 * @param before only entries with a smaller id: the {@code next} cursor of the previous
 * page
 * @param limit the page size (1 to 1000)
 */
public record AuditFilter(String actor, String action, String repository, AuditEntry.Outcome outcome, Instant from,
		Instant to, Long before, int limit) {
}
