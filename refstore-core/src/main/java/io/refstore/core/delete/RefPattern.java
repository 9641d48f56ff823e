package io.refstore.core.delete;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.refstore.core.ref.Wildmatch;

/**
 * One pattern as {@code git for-each-ref} matches it: a name matches if the pattern is
 * its prefix ending at a slash ({@code refs/tags} matches {@code refs/tags/v1}, not
 * {@code refs/tagsx}; a pattern ending in a slash matches everything below it) or if the
 * pattern matches the whole name as a {@link Wildmatch} glob. Both rules apply to every
 * pattern, as in git. Immutable and thread-safe.
 */
final class RefPattern {

	private final String text;

	private final byte[] pattern;

	private final int literalLength;

	private RefPattern(String text, byte[] pattern) {
		this.text = text;
		this.pattern = pattern;
		int literal = 0;
		while (literal < pattern.length && !Wildmatch.isSpecial(pattern[literal])) {
			literal++;
		}
		// never cut a multi-byte UTF-8 character in two
		while (literal > 0 && literal < pattern.length && (pattern[literal] & 0xc0) == 0x80) {
			literal--;
		}
		this.literalLength = literal;
	}

	/**
	 * Checks and compiles a pattern.
	 * @param parameter what the pattern was given as, for the error ({@code glob},
	 * {@code exclude})
	 * @param text the pattern
	 * @return the pattern
	 * @throws InvalidSelectionException if it is empty, malformed, longer than
	 * {@link Wildmatch#MAX_PATTERN_BYTES}, or can never match a name under {@code refs/}
	 */
	static RefPattern parse(String parameter, String text) {
		if (text.isEmpty()) {
			throw new InvalidSelectionException(parameter, text, "the pattern is empty");
		}
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		String problem = Wildmatch.inputProblem(bytes);
		if (problem != null) {
			throw new InvalidSelectionException(parameter, text, problem);
		}
		RefPattern compiled = new RefPattern(text, bytes);
		String literal = compiled.literalPrefix();
		if (!literal.startsWith(RefSelection.REFS) && !RefSelection.REFS.startsWith(literal)) {
			throw new InvalidSelectionException(parameter, text,
					"it can never match: every ref it may delete starts with 'refs/'");
		}
		return compiled;
	}

	/** The pattern as given. */
	String text() {
		return this.text;
	}

	/**
	 * The text every matching name starts with: the pattern up to its first glob
	 * character (cut back to a whole UTF-8 character).
	 */
	String literalPrefix() {
		return new String(this.pattern, 0, this.literalLength, StandardCharsets.UTF_8);
	}

	/** Whether the name in {@code name[0 .. length)} matches. */
	boolean matches(byte[] name, int length) {
		byte[] p = this.pattern;
		if (p.length <= length && Arrays.equals(name, 0, p.length, p, 0, p.length)
				&& (p.length == length || name[p.length] == '/' || p[p.length - 1] == '/')) {
			return true;
		}
		return Wildmatch.matches(p, name, length);
	}

	@Override
	public String toString() {
		return this.text;
	}

}
