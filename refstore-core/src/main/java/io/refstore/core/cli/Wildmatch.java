package io.refstore.core.cli;

import java.nio.charset.StandardCharsets;

/**
 * Glob matching of ref names with git's path semantics ({@code wildmatch} with {@code WM_PATHNAME}), on bytes:
 * {@code ?}, {@code *} and bracket expressions never match {@code /}; {@code **} between slashes (or at either
 * end) matches across them, and {@code a/**}{@code /b} also matches {@code a/b}; {@code [!...]} and
 * {@code [^...]} negate, {@code [a-z]} ranges and {@code [:alpha:]}-style classes work, and a backslash quotes
 * the next character. Comparison is exact (no case folding).
 *
 * <p>Stateless and thread-safe.
 */
final class Wildmatch {

	private static final int MATCH = 0;

	private static final int NO_MATCH = 1;

	/** The text ran out: no later position of an enclosing star can help either. */
	private static final int ABORT_ALL = 2;

	/** A single star would have to cross a slash: only an enclosing {@code **} can still help. */
	private static final int ABORT_TO_STARSTAR = 3;

	private Wildmatch() {
	}

	/** Whether a pattern contains any glob character (otherwise it can only match literally). */
	static boolean hasGlob(byte[] pattern) {
		for (byte b : pattern) {
			if (b == '*' || b == '?' || b == '[' || b == '\\') {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether {@code pattern} matches the whole of {@code text[0 .. textLength)}.
	 */
	static boolean matches(byte[] pattern, byte[] text, int textLength) {
		return match(pattern, 0, text, 0, textLength) == MATCH;
	}

	private static int match(byte[] p, int pi, byte[] t, int ti, int tEnd) {
		for (; pi < p.length; pi++, ti++) {
			byte pc = p[pi];
			if (ti == tEnd && pc != '*') {
				return ABORT_ALL;
			}
			switch (pc) {
				case '\\':
					pi++;
					if (pi == p.length || p[pi] != t[ti]) {
						return NO_MATCH;
					}
					break;
				case '?':
					if (t[ti] == '/') {
						return NO_MATCH;
					}
					break;
				case '*':
					return star(p, pi, t, ti, tEnd);
				case '[': {
					int close = bracket(p, pi + 1, t[ti]);
					if (close < 0) {
						return (close == -1) ? NO_MATCH : ABORT_ALL;
					}
					pi = close;
					break;
				}
				default:
					if (pc != t[ti]) {
						return NO_MATCH;
					}
			}
		}
		return (ti == tEnd) ? MATCH : NO_MATCH;
	}

	private static int star(byte[] p, int pi, byte[] t, int ti, int tEnd) {
		int first = pi;
		while (pi < p.length && p[pi] == '*') {
			pi++;
		}
		boolean crossesSlash = false;
		if (pi - first >= 2 && (first == 0 || p[first - 1] == '/') && (pi == p.length || p[pi] == '/')) {
			crossesSlash = true;
			// "a/**/b" also matches "a/b": try the pattern without "**/" here
			if (pi < p.length && match(p, pi + 1, t, ti, tEnd) == MATCH) {
				return MATCH;
			}
		}
		if (pi == p.length) {
			return (crossesSlash || indexOf(t, (byte) '/', ti, tEnd) < 0) ? MATCH : ABORT_TO_STARSTAR;
		}
		if (!crossesSlash && p[pi] == '/') {
			// a single star before a slash can only end at the text's next slash
			int slash = indexOf(t, (byte) '/', ti, tEnd);
			return (slash < 0) ? ABORT_ALL : match(p, pi, t, slash, tEnd);
		}
		for (;; ti++) {
			int result = match(p, pi, t, ti, tEnd);
			if (result != NO_MATCH && (!crossesSlash || result != ABORT_TO_STARSTAR)) {
				return result;
			}
			if (ti == tEnd) {
				return ABORT_ALL;
			}
			if (!crossesSlash && t[ti] == '/') {
				return ABORT_TO_STARSTAR;
			}
		}
	}

	/**
	 * Matches one byte against the bracket expression starting after its {@code [}.
	 * @return the index of the closing {@code ]} on a match, -1 on no match, -2 if the expression is malformed
	 */
	private static int bracket(byte[] p, int pi, byte c) {
		boolean negate = pi < p.length && (p[pi] == '!' || p[pi] == '^');
		if (negate) {
			pi++;
		}
		boolean matched = false;
		byte previous = 0;
		for (boolean firstChar = true; pi < p.length; firstChar = false, pi++) {
			byte pc = p[pi];
			if (pc == ']' && !firstChar) {
				return (matched != negate && c != '/') ? pi : -1;
			}
			if (pc == '\\') {
				if (++pi == p.length) {
					return -2;
				}
				pc = p[pi];
			}
			else if (pc == '-' && !firstChar && pi + 1 < p.length && p[pi + 1] != ']') {
				byte high = p[++pi];
				if (high == '\\') {
					if (++pi == p.length) {
						return -2;
					}
					high = p[pi];
				}
				matched |= (c & 0xff) >= (previous & 0xff) && (c & 0xff) <= (high & 0xff);
				previous = 0;
				continue;
			}
			else if (pc == '[' && pi + 1 < p.length && p[pi + 1] == ':') {
				int end = classEnd(p, pi + 2);
				if (end < 0) {
					return -2;
				}
				int inClass = inClass(new String(p, pi + 2, end - pi - 2, StandardCharsets.US_ASCII), c);
				if (inClass < 0) {
					return -2;
				}
				matched |= inClass == 1;
				pi = end + 1;
				continue;
			}
			matched |= pc == c;
			previous = pc;
		}
		return -2;
	}

	private static int classEnd(byte[] p, int from) {
		for (int i = from; i + 1 < p.length; i++) {
			if (p[i] == ':' && p[i + 1] == ']') {
				return i;
			}
			if (p[i] == ']') {
				return -1;
			}
		}
		return -1;
	}

	private static int indexOf(byte[] t, byte b, int from, int end) {
		for (int i = from; i < end; i++) {
			if (t[i] == b) {
				return i;
			}
		}
		return -1;
	}

	/** Whether {@code b} is in the POSIX class {@code name} (ASCII only): 1 yes, 0 no, -1 unknown class. */
	private static int inClass(String name, byte b) {
		int c = b & 0xff;
		boolean upper = c >= 'A' && c <= 'Z';
		boolean lower = c >= 'a' && c <= 'z';
		boolean digit = c >= '0' && c <= '9';
		boolean graph = c > 0x20 && c < 0x7f;
		boolean in;
		switch (name) {
			case "alnum" -> in = upper || lower || digit;
			case "alpha" -> in = upper || lower;
			case "blank" -> in = c == ' ' || c == '\t';
			case "cntrl" -> in = c < 0x20 || c == 0x7f;
			case "digit" -> in = digit;
			case "graph" -> in = graph;
			case "lower" -> in = lower;
			case "print" -> in = graph || c == ' ';
			case "punct" -> in = graph && !(upper || lower || digit);
			case "space" -> in = c == ' ' || (c >= '\t' && c <= '\r');
			case "upper" -> in = upper;
			case "xdigit" -> in = digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
			default -> {
				return -1;
			}
		}
		return in ? 1 : 0;
	}

}
