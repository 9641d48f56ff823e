package io.refstore.web.journal;

import java.time.Instant;

/**
 * Whether a repository journals its ref changes, and how much of its journal the database
 * holds.
 *
 * @param installed whether the journal's hook is installed where git takes the
 * repository's hooks from ({@code refstore journal install})
 * @param entries the entries ingested
 * @param skipped the damaged lines skipped
 * @param ingestedAt when entries were last ingested, or {@code null} if never
 */
public record JournalStatus(boolean installed, long entries, long skipped, Instant ingestedAt) {

}
