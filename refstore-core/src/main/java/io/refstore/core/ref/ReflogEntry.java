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
	 * Normalises a reflog message as git does for both backends: leading whitespace dropped, every run of
	 * whitespace (newlines included) folded to one space, trailing whitespace removed.
	 */
	public static String normalizeMessage(String message) {
		if (message == null) {
			return "";
		}
		StringBuilder out = new StringBuilder(message.length());
		boolean pendingSpace = false;
		for (int i = 0; i < message.length(); i++) {
			char c = message.charAt(i);
			if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b) {
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

}
