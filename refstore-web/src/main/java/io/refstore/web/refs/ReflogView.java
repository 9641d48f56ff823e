package io.refstore.web.refs;

/**
 * One reflog entry.
 *
 * @param old the value before the update (all zeros: the ref was created)
 * @param value the value after it (all zeros: the ref was deleted)
 * @param name the committer's name
 * @param email the committer's email
 * @param time the time of the update, ISO-8601 with the committer's offset
 * @param message the reflog message
 */
public record ReflogView(String old, String value, String name, String email, String time, String message) {
}
