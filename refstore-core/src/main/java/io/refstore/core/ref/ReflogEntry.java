package io.refstore.core.ref;

import java.util.Objects;

/**
 * One entry of a ref's log.
 *
 * @param oldId the value before the update (all-zero for a creation)
 * @param newId the value after the update (all-zero for a deletion)
 * @param who the committer and time
 * @param message the normalised message: one line, no trailing newline, possibly empty
 */
public record ReflogEntry(ObjectId oldId, ObjectId newId, PersonIdent who, String message) {

	public ReflogEntry {
		Objects.requireNonNull(oldId, "oldId");
		Objects.requireNonNull(newId, "newId");
		Objects.requireNonNull(who, "who");
		Objects.requireNonNull(message, "message");
	}

	/**
	 * This entry with another message, or this entry itself if {@code message} is the
	 * same string.
	 */
	public ReflogEntry withMessage(String message) {
		return (message == this.message) ? this : new ReflogEntry(this.oldId, this.newId, this.who, message);
	}

	/**
	 * Normalises a reflog message as git does for both backends: leading whitespace
	 * dropped, every run of whitespace (newlines included) folded to one space, trailing
	 * whitespace removed. Whitespace is git's: space, tab, newline and carriage return; a
	 * form feed or vertical tab is kept as it is.
	 * @return {@code message} itself if it is already normal, {@code ""} for {@code null}
	 */
	public static String normalizeMessage(String message) {
		if (message == null) {
			return "";
		}
		if (isNormal(message)) {
			return message;
		}
		StringBuilder out = new StringBuilder(message.length());
		boolean pendingSpace = false;
		for (int i = 0; i < message.length(); i++) {
			char c = message.charAt(i);
			if (isSpace(c)) {
				pendingSpace = out.length() > 0;
			}
			else {
				if (pendingSpace) {
					out.append(' ');
					pendingSpace = false;
				}
				out.append(c);
			}
		}
		return out.toString();
	}

	/**
	 * No leading or trailing whitespace, and no whitespace but single spaces between
	 * words.
	 */
	private static boolean isNormal(String message) {
		int last = message.length() - 1;
		for (int i = 0; i <= last; i++) {
			char c = message.charAt(i);
			if (isSpace(c) && (c != ' ' || i == 0 || i == last || message.charAt(i + 1) == ' ')) {
				return false;
			}
		}
		return true;
	}

	private static boolean isSpace(char c) {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r';
	}

}
