package io.refstore.core.objects;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A commit or tag split as git writes them: header lines ({@code key value}, a value
 * continued on lines starting with a space), a blank line, then the message. Parsed
 * leniently, as {@code git for-each-ref} reads them: a missing header is simply absent.
 * Immutable. The header lines are only indexed; a value becomes a string when asked for,
 * so that sorting a hundred thousand refs by one date makes one string per ref, not one
 * per header line.
 */
public final class ObjectText {

	private final byte[] content;

	/**
	 * Per header line, from {@code 3 * i}: where its key starts, where the key ends (the
	 * space, or the line end), and where the value ends (the end of its last continuation
	 * line).
	 */
	private int[] lines = new int[3 * 8];

	private int count;

	private final int messageStart;

	private ObjectText(byte[] content) {
		this.content = content;
		int pos = 0;
		while (pos < content.length && content[pos] != '\n') {
			int start = pos;
			int end = lineEnd(content, pos);
			int space = indexOf(content, pos, end, (byte) ' ');
			int keyEnd = (space < 0) ? end : space;
			pos = Math.min(end + 1, content.length);
			// continuation lines (a gpgsig, a mergetag) start with one space
			while (pos < content.length && content[pos] == ' ') {
				end = lineEnd(content, pos);
				pos = Math.min(end + 1, content.length);
			}
			if (3 * this.count == this.lines.length) {
				this.lines = Arrays.copyOf(this.lines, this.lines.length * 2);
			}
			this.lines[3 * this.count] = start;
			this.lines[3 * this.count + 1] = keyEnd;
			this.lines[3 * this.count + 2] = end;
			this.count++;
		}
		this.messageStart = Math.min(pos + 1, content.length);
	}

	/** Splits a commit's or tag's content. */
	public static ObjectText parse(byte[] content) {
		return new ObjectText(content);
	}

	/** The first value of a header, or {@code null}. */
	public String header(String key) {
		for (int i = 0; i < this.count; i++) {
			if (keyIs(i, key)) {
				return value(i);
			}
		}
		return null;
	}

	/** Every value of a header, in order. */
	public List<String> headers(String key) {
		List<String> found = new ArrayList<>();
		for (int i = 0; i < this.count; i++) {
			if (keyIs(i, key)) {
				found.add(value(i));
			}
		}
		return found;
	}

	private boolean keyIs(int line, String key) {
		int start = this.lines[3 * line];
		if (this.lines[3 * line + 1] - start != key.length()) {
			return false;
		}
		for (int i = 0; i < key.length(); i++) {
			if (this.content[start + i] != key.charAt(i)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * A header's value: its continuation lines joined by newlines, without their space.
	 */
	private String value(int line) {
		int keyEnd = this.lines[3 * line + 1];
		int end = this.lines[3 * line + 2];
		if (keyEnd >= end) {
			return "";
		}
		int from = keyEnd + 1;
		boolean keyOnly = this.content[keyEnd] == '\n';
		if (!keyOnly && indexOf(this.content, from, end, (byte) '\n') < 0) {
			return new String(this.content, from, end - from, StandardCharsets.UTF_8);
		}
		StringBuilder value = new StringBuilder();
		// a key with no space has an empty first line
		int at = from;
		if (keyOnly) {
			value.append('\n');
			at = keyEnd + 2;
		}
		while (at <= end) {
			int lineEnd = lineEnd(this.content, at);
			value.append(new String(this.content, at, lineEnd - at, StandardCharsets.UTF_8));
			if (lineEnd < end) {
				value.append('\n');
			}
			// skip the newline and the continuation's leading space
			at = lineEnd + 2;
		}
		return value.toString();
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

		/**
		 * A person line's date.
		 *
		 * @param seconds the time in seconds since the epoch
		 * @param zoneMinutes the recorded zone, minutes east of UTC
		 */
		public record When(long seconds, int zoneMinutes) {
		}

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

		/**
		 * The date of a person line's value as {@link #parse} reads it, or {@code null}
		 * if the line has no email or no date. A line in git's own shape ({@code > },
		 * digits, a space, a sign and four digits at the end) is read in place; others go
		 * through {@link #parse}.
		 */
		public static When when(String value) {
			int lt = value.indexOf('<');
			int gt = (lt < 0) ? -1 : value.indexOf('>', lt);
			if (gt < 0) {
				return null;
			}
			int length = value.length();
			int zoneAt = length - 5;
			int digitsEnd = zoneAt - 1;
			int digits = digitsEnd - (gt + 2);
			if (digits < 1 || digits > 18 || value.charAt(gt + 1) != ' ' || value.charAt(digitsEnd) != ' '
					|| (value.charAt(zoneAt) != '+' && value.charAt(zoneAt) != '-')) {
				return general(value);
			}
			long seconds = digits(value, gt + 2, digitsEnd);
			long hhmm = digits(value, zoneAt + 1, length);
			if (seconds < 0 || hhmm < 0) {
				return general(value);
			}
			return new When(seconds, minutes((int) hhmm, value.charAt(zoneAt) == '-'));
		}

		/**
		 * The number the decimal digits of {@code text[from, to)} make, or -1 if one of
		 * them is not a digit (at most 18 of them, so it never overflows).
		 */
		private static long digits(String text, int from, int to) {
			long value = 0;
			for (int i = from; i < to; i++) {
				int d = text.charAt(i) - '0';
				if (d < 0 || d > 9) {
					return -1;
				}
				value = value * 10 + d;
			}
			return value;
		}

		/** Minutes east of UTC of a zone written as hours times 100 plus minutes. */
		private static int minutes(int hhmm, boolean negative) {
			int minutes = (hhmm / 100) * 60 + hhmm % 100;
			return negative ? -minutes : minutes;
		}

		private static When general(String value) {
			Ident ident = parse(value);
			return (ident == null || ident.zone() == null) ? null : new When(ident.seconds(), ident.zoneMinutes());
		}

		/**
		 * The zone as minutes east of UTC ({@code +0200} is 120), read as git reads it:
		 * the number its sign and leading digits make ({@code +02a0} is 2, {@code +020}
		 * is 20), as hours times 100 plus minutes.
		 */
		public int zoneMinutes() {
			if (this.zone == null) {
				return 0;
			}
			boolean negative = this.zone.startsWith("-");
			int from = (negative || this.zone.startsWith("+")) ? 1 : 0;
			int to = from;
			while (to < this.zone.length() && to - from < 6 && Character.isDigit(this.zone.charAt(to))) {
				to++;
			}
			return minutes((int) digits(this.zone, from, to), negative);
		}

	}

}
