package io.refstore.core.journal;

import java.time.Instant;

/**
 * One ref change in a repository's journal: a line of the journal file (see
 * docs/journal.md).
 *
 * @param transaction the id of the transaction the change belonged to: the same for every
 * change one transaction made, opaque
 * @param time when the change was recorded (after git confirmed it, for the hook)
 * @param oldValue the value before, as the writer reported it: an object id in hex (all
 * zeros for none, or for one git did not know), or {@code ref:<target>} for a symbolic
 * ref
 * @param newValue the value after, in the same form (all zeros for a deletion)
 * @param refName the full ref name
 * @param writer what wrote the change
 * @param identity who made the change, as {@code NAME=value} of the first environment
 * variable of the hook's list that was set (such as {@code GL_USERNAME=alice}), or empty
 */
public record JournalEntry(String transaction, Instant time, String oldValue, String newValue, String refName,
		WriterKind writer, String identity) {

}
