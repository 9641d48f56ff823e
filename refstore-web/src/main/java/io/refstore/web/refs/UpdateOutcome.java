package io.refstore.web.refs;

/**
 * The result of one update of a batch.
 *
 * @param ref the ref name
 * @param status {@code ok}, or why it was refused: {@code incorrect_old_value},
 * {@code create_exists}, {@code nonexistent_ref}, {@code name_conflict},
 * {@code lock_failure}, {@code missing_object}, {@code invalid_name},
 * {@code duplicate_update}, {@code not_attempted} (fine, but another update was refused),
 * {@code io_error}
 * @param expected the expected old value as sent, or {@code null}
 * @param actual for a refused expectation, the ref's value when the refusal was reported
 * ({@code null} if it did not exist); else {@code null}
 * @param message git's explanation of a refusal, naming the ref (and a conflicting ref);
 * {@code null} if applied
 */
public record UpdateOutcome(String ref, String status, String expected, String actual, String message) {
}
