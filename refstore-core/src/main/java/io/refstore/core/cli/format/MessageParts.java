package io.refstore.core.cli.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A commit's or tag's message cut as {@code for-each-ref} shows it: the subject (first
 * paragraph), the body (the rest, blank lines after the subject skipped), the signature
 * (a tag's trailing PGP or SSH block) and the trailers (the last paragraph's
 * {@code Key: value} lines). Immutable.
 */
final class MessageParts {

	private static final String[] SIGNATURE_STARTS = { "-----BEGIN PGP SIGNATURE-----", "-----BEGIN PGP MESSAGE-----",
			"-----BEGIN SSH SIGNATURE-----", "-----BEGIN SIGNED MESSAGE-----" };

	final String contents;

	final String subject;

	final String body;

	/**
	 * The body with the signature, which {@code %(body)} shows (unlike
	 * {@code contents:body}).
	 */
	final String signedBody;

	final String signature;

	/** Everything but the signature. */
	final String unsigned;

	MessageParts(byte[] message) {
		this.contents = new String(message, StandardCharsets.UTF_8);
		int sig = signatureStart(this.contents);
		this.signature = this.contents.substring(sig);
		this.unsigned = this.contents.substring(0, sig);
		int pos = 0;
		while (pos < this.unsigned.length() && this.unsigned.charAt(pos) == '\n') {
			pos++;
		}
		int end = this.unsigned.indexOf("\n\n", pos);
		String first = (end < 0) ? this.unsigned.substring(pos) : this.unsigned.substring(pos, end);
		this.subject = first.strip().replace("\r", "").replace('\n', ' ');
		int bodyStart = (end < 0) ? this.unsigned.length() : end;
		while (bodyStart < this.unsigned.length() && this.unsigned.charAt(bodyStart) == '\n') {
			bodyStart++;
		}
		this.body = this.unsigned.substring(bodyStart);
		this.signedBody = this.contents.substring(Math.min(bodyStart, this.contents.length()));
	}

	private static int signatureStart(String text) {
		int found = text.length();
		for (String start : SIGNATURE_STARTS) {
			int at = text.lastIndexOf(start);
			if (at >= 0 && (at == 0 || text.charAt(at - 1) == '\n') && at < found) {
				found = at;
			}
		}
		return found;
	}

	/** git's {@code %(subject:sanitize)}: a subject fit for a file name. */
	String sanitizedSubject() {
		StringBuilder out = new StringBuilder();
		int space = 2;
		String s = this.subject;
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '_') {
				if (space == 1) {
					out.append('-');
				}
				space = 0;
				out.append(c);
				if (c == '.') {
					while (i + 1 < s.length() && s.charAt(i + 1) == '.') {
						i++;
					}
				}
			}
			else {
				space |= 1;
			}
		}
		int len = out.length();
		while (len > 0 && (out.charAt(len - 1) == '.' || out.charAt(len - 1) == '-')) {
			len--;
		}
		return out.substring(0, len);
	}

	/**
	 * The first {@code n} lines of the unsigned message, each indented by four spaces.
	 */
	String lines(int n) {
		StringBuilder out = new StringBuilder();
		String text = this.unsigned.stripTrailing();
		String[] lines = text.isEmpty() ? new String[0] : text.split("\n", -1);
		for (int i = 0; i < Math.min(n, lines.length); i++) {
			if (i > 0) {
				out.append("\n    ");
			}
			out.append(lines[i]);
		}
		return out.toString();
	}

	/**
	 * The lines of the message's trailer block, folded lines joined to the line they
	 * continue: the last paragraph, if its lines are all {@code Key: value} trailers, or
	 * if it has a trailer git itself writes ({@code Signed-off-by:}, {@code (cherry
	 * picked from commit}) and at least a quarter of its lines are trailers. Lines that
	 * are no trailer are kept (for {@code only=no}); {@link #isTrailer} tells them apart.
	 */
	List<String> trailers() {
		List<String> lines = new ArrayList<>();
		String text = this.body.stripTrailing();
		if (text.isEmpty()) {
			return lines;
		}
		int start = text.lastIndexOf("\n\n");
		String paragraph = (start < 0) ? text : text.substring(start + 2);
		int trailers = 0;
		int others = 0;
		boolean recognized = false;
		for (String line : paragraph.split("\n")) {
			if (!line.isEmpty() && Character.isWhitespace(line.charAt(0)) && !lines.isEmpty()) {
				lines.set(lines.size() - 1, lines.get(lines.size() - 1) + "\n" + line);
				continue;
			}
			lines.add(line);
			if (isTrailer(line)) {
				trailers++;
				recognized |= line.startsWith("Signed-off-by: ");
			}
			else {
				recognized |= line.startsWith("(cherry picked from commit ");
				others++;
			}
		}
		boolean block = (trailers > 0 && others == 0) || (recognized && trailers * 3 >= others);
		return block ? lines : new ArrayList<>();
	}

	/** Whether a line of the trailer block is a {@code Key: value} trailer. */
	static boolean isTrailer(String line) {
		int colon = line.indexOf(':');
		return colon > 0 && line.substring(0, colon).strip().matches("[A-Za-z0-9-]+");
	}

}
