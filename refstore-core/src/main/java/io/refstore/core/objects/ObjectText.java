package io.refstore.core.objects;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A commit or tag split as git writes them: header lines ({@code key value}, a value
 * continued on lines starting with a space), a blank line, then the message. Parsed
 * leniently, as {@code git for-each-ref} reads them: a missing header is simply absent.
 * Immutable.
 */
public final class ObjectText {

	private final byte[] content;

	private final List<String> keys = new ArrayList<>();

	private final List<String> values = new ArrayList<>();

	private final int messageStart;

	private ObjectText(byte[] content) {
		this.content = content;
		int pos = 0;
		while (pos < content.length && content[pos] != '\n') {
			int end = lineEnd(content, pos);
			int space = indexOf(content, pos, end, (byte) ' ');
			String key = new String(content, pos, ((space < 0) ? end : space) - pos, StandardCharsets.UTF_8);
			StringBuilder value = new StringBuilder(
					(space < 0) ? "" : new String(content, space + 1, end - space - 1, StandardCharsets.UTF_8));
			pos = Math.min(end + 1, content.length);
			// continuation lines (a gpgsig, a mergetag) start with one space
			while (pos < content.length && content[pos] == ' ') {
				end = lineEnd(content, pos);
				value.append('\n').append(new String(content, pos + 1, end - pos - 1, StandardCharsets.UTF_8));
				pos = Math.min(end + 1, content.length);
			}
			this.keys.add(key);
			this.values.add(value.toString());
		}
		this.messageStart = Math.min(pos + 1, content.length);
	}

	/** Splits a commit's or tag's content. */
	public static ObjectText parse(byte[] content) {
		return new ObjectText(content);
	}

	/** The first value of a header, or {@code null}. */
	public String header(String key) {
		int i = this.keys.indexOf(key);
		return (i < 0) ? null : this.values.get(i);
	}

	/** Every value of a header, in order. */
	public List<String> headers(String key) {
		List<String> found = new ArrayList<>();
		for (int i = 0; i < this.keys.size(); i++) {
			if (this.keys.get(i).equals(key)) {
				found.add(this.values.get(i));
			}
		}
		return found;
	}

	/** The message: everything after the blank line that ends the headers. */
	public byte[] message() {
		byte[] message = new byte[this.content.length - this.messageStart];
		System.arraycopy(this.content, this.messageStart, message, 0, message.length);
		return message;
	}

	private static int lineEnd(byte[] b, int from) {
		int nl = indexOf(b, from, b.length, (byte) '\n');
		return (nl < 0) ? b.length : nl;
	}

	private static int indexOf(byte[] b, int from, int to, byte c) {
		for (int i = from; i < to; i++) {
			if (b[i] == c) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * A person line ({@code author}, {@code committer}, {@code tagger}): {@code Name
	 * <email> seconds zone}.
	 *
	 * @param name the name
	 * @param email the email with its angle brackets
	 * @param seconds the time in seconds since the epoch
	 * @param zone the zone as written, such as {@code +0200}, or {@code null} if the line
	 * has no date
	 */
	public record Ident(String name, String email, long seconds, String zone) {

		/** Parses a person line's value, or returns {@code null} if it has no email. */
		public static Ident parse(String value) {
			int lt = value.indexOf('<');
			int gt = (lt < 0) ? -1 : value.indexOf('>', lt);
			if (gt < 0) {
				return null;
			}
			String name = value.substring(0, lt).strip();
			String email = value.substring(lt, gt + 1);
			String[] rest = value.substring(gt + 1).strip().split(" ");
			long seconds = 0;
			String zone = null;
			if (rest.length >= 2) {
				try {
					seconds = Long.parseLong(rest[0]);
					zone = rest[1];
				}
				catch (NumberFormatException ex) {
					zone = null;
				}
			}
			return new Ident(name, email, seconds, zone);
		}

		/** The zone as minutes east of UTC ({@code +0200} is 120). */
		public int zoneMinutes() {
			if (this.zone == null || this.zone.length() != 5) {
				return 0;
			}
			int hhmm = Integer.parseInt(this.zone.substring(1));
			int minutes = (hhmm / 100) * 60 + hhmm % 100;
			return (this.zone.charAt(0) == '-') ? -minutes : minutes;
		}

	}

}
