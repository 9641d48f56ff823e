package io.refstore.core.ref;

/**
 * git's {@code wildmatch} with {@code WM_PATHNAME}, the glob semantics of
 * {@code for-each-ref} patterns, on the UTF-8 bytes of a name.
 * <ul>
 * <li>{@code ?}, {@code *} and bracket expressions never match {@code /}; {@code ?}
 * matches one byte.</li>
 * <li>{@code **} bounded by slashes or the ends of the pattern
 * ({@code refs/**}{@code /x}, {@code **}{@code /x}, {@code refs/**}) matches across
 * slashes, and {@code a/**}{@code /b} also matches {@code a/b}; any other run of stars is
 * one {@code *}.</li>
 * <li>{@code [abc]}, {@code [a-z]}, {@code [!x]} or {@code [^x]}, and classes such as
 * {@code [[:digit:]]}; a {@code ]} right after the opening bracket (or its negation) is a
 * member.</li>
 * <li>A backslash makes the next byte literal. Comparison is exact and bytewise (no case
 * folding).</li>
 * </ul>
 * A malformed pattern matches nothing, as in git; callers that take patterns from users
 * can refuse it first with {@link #problem(byte[])}. The one glob matcher of refstore:
 * {@code for-each-ref} and {@code show-ref} patterns and mass-deletion selections use it
 * alike. Stateless and thread-safe.
 */
public final class Wildmatch {

	private static final int MATCH = 0;

	private static final int NO_MATCH = 1;

	/** The text ran out: a later start of an enclosing star cannot help either. */
	private static final int ABORT_ALL = 2;

	/**
	 * A single star would have to cross a slash: only an enclosing {@code **} can still
	 * help.
	 */
	private static final int ABORT_TO_STARSTAR = 3;

	private static final String[] CLASSES = { "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print",
			"punct", "space", "upper", "xdigit" };

	private Wildmatch() {
	}

	/** Whether {@code b} has a meaning in a glob. */
	public static boolean isSpecial(byte b) {
		return b == '*' || b == '?' || b == '[' || b == '\\';
	}

	/**
	 * Whether a pattern contains any glob character (otherwise it can only match
	 * literally).
	 */
	public static boolean hasGlob(byte[] pattern) {
		for (byte b : pattern) {
			if (isSpecial(b)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Why {@code pattern} is malformed: a trailing backslash, a bracket expression
	 * without its {@code ]}, or an unknown {@code [:class:]}.
	 * @return the problem, or {@code null} if the pattern is well formed
	 */
	public static String problem(byte[] pattern) {
		for (int i = 0; i < pattern.length; i++) {
			if (pattern[i] == '\\') {
				if (++i == pattern.length) {
					return "it ends with an unescaped backslash";
				}
			}
			else if (pattern[i] == '[') {
				int end = bracketEnd(pattern, i);
				if (end < 0) {
					return (end == -1) ? "'[' at offset " + i + " has no closing ']'"
							: "unknown character class in the bracket expression at offset " + i;
				}
				i = end;
			}
		}
		return null;
	}

	/** Whether {@code pattern} matches the whole of {@code text[0 .. length)}. */
	public static boolean matches(byte[] pattern, byte[] text, int length) {
		return match(pattern, 0, text, 0, length) == MATCH;
	}

	private static int match(byte[] p, int pi, byte[] t, int ti, int end) {
		for (; pi < p.length; pi++, ti++) {
			byte pc = p[pi];
			if (pc == '*') {
				return star(p, pi, t, ti, end);
			}
			if (ti == end) {
				return ABORT_ALL;
			}
			byte tc = t[ti];
			if (pc == '?') {
				if (tc == '/') {
					return NO_MATCH;
				}
			}
			else if (pc == '[') {
				// a malformed bracket expression matches nothing, as in git
				int close = bracketEnd(p, pi);
				if (close < 0) {
					return ABORT_ALL;
				}
				if (tc == '/' || !bracketMatches(p, pi, tc)) {
					return NO_MATCH;
				}
				pi = close;
			}
			else {
				if (pc == '\\') {
					if (pi + 1 == p.length) {
						// a trailing backslash quotes nothing: git matches nothing
						return ABORT_ALL;
					}
					pc = p[++pi];
				}
				if (pc != tc) {
					return NO_MATCH;
				}
			}
		}
		return (ti == end) ? MATCH : NO_MATCH;
	}

	/** A run of stars at {@code p[pi]}: tries every length of text it can take. */
	private static int star(byte[] p, int pi, byte[] t, int ti, int end) {
		int rest = pi;
		while (rest < p.length && p[rest] == '*') {
			rest++;
		}
		boolean crossesSlashes = rest - pi >= 2 && (pi == 0 || p[pi - 1] == '/') && (rest == p.length || p[rest] == '/'
				|| (p[rest] == '\\' && rest + 1 < p.length && p[rest + 1] == '/'));
		if (crossesSlashes && rest < p.length && p[rest] == '/' && match(p, rest + 1, t, ti, end) == MATCH) {
			// "a/**/b" also matches "a/b": the stars and their slash match no directory
			// at all
			return MATCH;
		}
		if (rest == p.length) {
			return (crossesSlashes || indexOfSlash(t, ti, end) < 0) ? MATCH : ABORT_TO_STARSTAR;
		}
		for (int k = ti; k < end; k++) {
			int result = match(p, rest, t, k, end);
			if (result != NO_MATCH && (!crossesSlashes || result != ABORT_TO_STARSTAR)) {
				return result;
			}
			if (!crossesSlashes && t[k] == '/') {
				return ABORT_TO_STARSTAR;
			}
		}
		return ABORT_ALL;
	}

	private static int indexOfSlash(byte[] t, int from, int end) {
		for (int i = from; i < end; i++) {
			if (t[i] == '/') {
				return i;
			}
		}
		return -1;
	}

	/**
	 * The offset of the {@code ]} closing the bracket expression opened at
	 * {@code p[open]}, or -1 if there is none, -2 if it names an unknown class.
	 */
	private static int bracketEnd(byte[] p, int open) {
		int i = open + 1;
		if (i < p.length && (p[i] == '!' || p[i] == '^')) {
			i++;
		}
		for (boolean first = true; i < p.length; i++, first = false) {
			if (p[i] == ']' && !first) {
				return i;
			}
			if (p[i] == '\\') {
				i++;
			}
			else if (p[i] == '[' && i + 1 < p.length && p[i + 1] == ':') {
				int close = classEnd(p, i);
				if (close == -2) {
					return -2;
				}
				i = (close >= 0) ? close : i;
			}
		}
		return -1;
	}

	/**
	 * For {@code [:} at {@code p[i]}: the offset of the {@code ]} ending
	 * {@code [:name:]}, -2 if the name is not a class, or -3 if the first {@code ]} does
	 * not follow a colon (then the {@code [} is an ordinary member).
	 */
	private static int classEnd(byte[] p, int i) {
		int close = i + 2;
		while (close < p.length && p[close] != ']') {
			close++;
		}
		if (close == p.length || close - 1 < i + 2 || p[close - 1] != ':') {
			return -3;
		}
		return (classIndex(p, i + 2, close - 1) < 0) ? -2 : close;
	}

	private static int classIndex(byte[] p, int from, int to) {
		String name = new String(p, from, to - from, java.nio.charset.StandardCharsets.US_ASCII);
		for (int c = 0; c < CLASSES.length; c++) {
			if (CLASSES[c].equals(name)) {
				return c;
			}
		}
		return -1;
	}

	/**
	 * Whether the bracket expression at {@code p[open]} (well formed) accepts byte
	 * {@code tc}.
	 */
	private static boolean bracketMatches(byte[] p, int open, byte tc) {
		int c = tc & 0xff;
		int i = open + 1;
		boolean negated = p[i] == '!' || p[i] == '^';
		if (negated) {
			i++;
		}
		boolean matched = false;
		int previous = -1;
		for (boolean first = true; first || p[i] != ']'; i++, first = false) {
			int member = p[i] & 0xff;
			if (member == '\\') {
				member = p[++i] & 0xff;
			}
			else if (member == '-' && previous >= 0 && i + 1 < p.length && p[i + 1] != ']') {
				int high = p[++i] & 0xff;
				if (high == '\\') {
					high = p[++i] & 0xff;
				}
				matched |= c >= previous && c <= high;
				previous = -1;
				continue;
			}
			else if (member == '[' && p[i + 1] == ':' && classEnd(p, i) >= 0) {
				int close = classEnd(p, i);
				matched |= inClass(classIndex(p, i + 2, close - 1), c);
				i = close;
				previous = -1;
				continue;
			}
			matched |= c == member;
			previous = member;
		}
		return matched != negated;
	}

	private static boolean inClass(int index, int c) {
		boolean upper = c >= 'A' && c <= 'Z';
		boolean lower = c >= 'a' && c <= 'z';
		boolean digit = c >= '0' && c <= '9';
		boolean graph = c > 0x20 && c < 0x7f;
		return switch (CLASSES[index]) {
			case "alnum" -> upper || lower || digit;
			case "alpha" -> upper || lower;
			case "blank" -> c == ' ' || c == '\t';
			case "cntrl" -> c < 0x20 || c == 0x7f;
			case "digit" -> digit;
			case "graph" -> graph;
			case "lower" -> lower;
			case "print" -> graph || c == ' ';
			case "punct" -> graph && !(upper || lower || digit);
			case "space" -> c == ' ' || (c >= '\t' && c <= '\r');
			case "upper" -> upper;
			default -> digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
		};
	}

}
