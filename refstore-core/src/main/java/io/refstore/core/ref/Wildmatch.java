package io.refstore.core.ref;

import java.util.Arrays;

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
 * can refuse it first with {@link #problem(byte[])}, and refuse a pattern longer than
 * {@link #MAX_PATTERN_BYTES}. The one glob matcher of refstore: {@code for-each-ref} and
 * {@code show-ref} patterns, mass-deletion selections and the web's ref searches use it
 * alike. Stateless and thread-safe.
 * <p>
 * A match costs at most the pattern's length times the name's, whatever the pattern
 * (git's own wildmatch bounds the backtracking of {@code *} but tries every split of a
 * name among several {@code **}: twenty {@code **}{@code /} took minutes on long names).
 * Since nothing but a slash in the pattern matches a slash in the name, both split into
 * segments at their slashes: a {@code **} segment stands for any number of whole name
 * segments, every other pattern segment for exactly one. So the match is the classic
 * greedy glob match twice over: over segments, with {@code **} as the star, and inside a
 * segment, with {@code *} as the star; each backtracks to its last star only.
 */
public final class Wildmatch {

	/**
	 * The longest pattern, in UTF-8 bytes, the web's inputs accept (ref searches,
	 * deletion selections, schedules and campaigns): 1,024. A match costs the pattern's
	 * length times the name's, so the limit bounds the cost per ref.
	 */
	public static final int MAX_PATTERN_BYTES = 1024;

	private static final int NO_MATCH = -1;

	private static final int MALFORMED = -2;

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

	/**
	 * Why a pattern a user sent is refused: longer than {@link #MAX_PATTERN_BYTES}, or
	 * malformed as {@link #problem(byte[])} says.
	 * @return the problem, or {@code null} if the pattern is accepted
	 */
	public static String inputProblem(byte[] pattern) {
		if (pattern.length > MAX_PATTERN_BYTES) {
			return "it is " + pattern.length + " bytes long; a pattern may have at most " + MAX_PATTERN_BYTES;
		}
		return problem(pattern);
	}

	/**
	 * Whether {@code pattern} matches the whole of {@code text[0 .. length)}, in time
	 * proportional to the pattern's length times the text's in the worst case, without
	 * allocating.
	 */
	public static boolean matches(byte[] pattern, byte[] text, int length) {
		byte[] p = pattern;
		// segment starts; one past the end (p.length + 1, length + 1) once all are used
		int pi = 0;
		int ti = 0;
		// the segment after the last '**' met, and the text segment it resumes at
		int resumeP = -1;
		int resumeT = -1;
		while (true) {
			if (pi <= p.length) {
				int stars = doubleStarEnd(p, pi);
				if (stars == p.length) {
					return ti <= length;
				}
				if (stars >= 0) {
					if (p[stars] == '\\') {
						// '**\/' is '**' then a literal slash: it takes a segment at
						// least
						if (ti > length) {
							return false;
						}
						ti = nextSegment(text, ti, length);
					}
					pi = stars + ((p[stars] == '/') ? 1 : 2);
					resumeP = pi;
					resumeT = ti;
					continue;
				}
				if (ti > length) {
					// every segment left takes one: a '**' taking more leaves fewer
					return false;
				}
				long end = segmentMatch(p, pi, text, ti, length);
				if (end == MALFORMED) {
					return false;
				}
				if (end >= 0) {
					int patternEnd = (int) (end >>> 32);
					pi = (patternEnd == p.length) ? p.length + 1 : patternEnd + ((p[patternEnd] == '/') ? 1 : 2);
					ti = (int) end + 1;
					continue;
				}
			}
			else if (ti > length) {
				return true;
			}
			// the last '**' takes one more segment; an earlier one could do no better,
			// since its resumption matched at the earliest segment it could
			if (resumeP < 0) {
				return false;
			}
			resumeT = nextSegment(text, resumeT, length);
			if (resumeT > length) {
				return false;
			}
			pi = resumeP;
			ti = resumeT;
		}
	}

	/**
	 * The bytes every name {@code pattern} matches ends with: the literal text after its
	 * last glob element ({@code *}, {@code ?}, a bracket expression, an escape), without
	 * a slash that starts it (a {@code **}{@code /} before it also matches no segment:
	 * {@code **}{@code /x} matches {@code x}). A name that does not end with it cannot
	 * match, so a caller matching many names can refuse most of them with
	 * {@link #endsWith} first, whatever the pattern costs; twenty {@code **}{@code /}
	 * then {@code x} costs a comparison of one byte. Empty if the pattern ends with a
	 * glob element or is malformed.
	 */
	public static byte[] requiredSuffix(byte[] pattern) {
		if (problem(pattern) != null) {
			return new byte[0];
		}
		// the offset after the last glob element
		int end = 0;
		for (int i = 0; i < pattern.length; i++) {
			if (pattern[i] == '\\') {
				i++;
				end = i + 1;
			}
			else if (pattern[i] == '[') {
				i = bracketEnd(pattern, i);
				end = i + 1;
			}
			else if (pattern[i] == '*' || pattern[i] == '?') {
				end = i + 1;
			}
		}
		if (end > 0 && end < pattern.length && pattern[end] == '/') {
			end++;
		}
		return Arrays.copyOfRange(pattern, end, pattern.length);
	}

	/** Whether {@code text[0 .. length)} ends with {@code suffix}. */
	public static boolean endsWith(byte[] text, int length, byte[] suffix) {
		return length >= suffix.length && Arrays.equals(text, length - suffix.length, length, suffix, 0, suffix.length);
	}

	/**
	 * If the pattern segment at {@code p[pi]} is a {@code **} that crosses slashes: the
	 * offset after its stars (the slash after it, or the pattern's end); otherwise -1.
	 */
	private static int doubleStarEnd(byte[] p, int pi) {
		if (pi + 1 >= p.length || p[pi] != '*' || p[pi + 1] != '*') {
			return -1;
		}
		int end = pi + 2;
		while (end < p.length && p[end] == '*') {
			end++;
		}
		return isSeparator(p, end) ? end : -1;
	}

	/**
	 * Whether a pattern segment ends at {@code p[pi]}: a slash, an escaped one, the end.
	 */
	private static boolean isSeparator(byte[] p, int pi) {
		return pi == p.length || p[pi] == '/' || (p[pi] == '\\' && pi + 1 < p.length && p[pi + 1] == '/');
	}

	/**
	 * The start of the text segment after the one at {@code t[ti]}, or one past the end.
	 */
	private static int nextSegment(byte[] t, int ti, int length) {
		while (ti < length && t[ti] != '/') {
			ti++;
		}
		return ti + 1;
	}

	/**
	 * Matches the pattern segment at {@code p[ps]} against the whole text segment at
	 * {@code t[ts]}, where a star takes no slash. Backtracks to the last star only (an
	 * earlier star taking more could not do better), so it costs at most the segments'
	 * lengths multiplied.
	 * @return the offsets where both segments end ({@code pattern << 32 | text}),
	 * {@link #NO_MATCH}, or {@link #MALFORMED} if it met a malformed bracket expression
	 * or a trailing backslash
	 */
	private static long segmentMatch(byte[] p, int ps, byte[] t, int ts, int length) {
		int pi = ps;
		int ti = ts;
		int starP = -1;
		int starT = -1;
		while (true) {
			boolean textEnd = ti == length || t[ti] == '/';
			if (isSeparator(p, pi)) {
				if (textEnd) {
					return ((long) pi << 32) | ti;
				}
			}
			else if (p[pi] == '*') {
				do {
					pi++;
				}
				while (pi < p.length && p[pi] == '*');
				if (isSeparator(p, pi)) {
					return ((long) pi << 32) | (nextSegment(t, ti, length) - 1);
				}
				starP = pi;
				starT = ti;
				continue;
			}
			else if (textEnd) {
				// more pattern and no more text: a star taking more cannot help
				return NO_MATCH;
			}
			else {
				int next = matchOne(p, pi, t[ti]);
				if (next >= 0) {
					pi = next;
					ti++;
					continue;
				}
				if (next == MALFORMED) {
					return MALFORMED;
				}
			}
			if (starP < 0 || starT == length || t[starT] == '/') {
				return NO_MATCH;
			}
			pi = starP;
			ti = ++starT;
		}
	}

	/**
	 * Matches the one-byte element at {@code p[pi]} ({@code ?}, a bracket expression, an
	 * escaped or plain byte) against {@code tc}, which is not a slash.
	 * @return the offset after the element, {@link #NO_MATCH} or {@link #MALFORMED}
	 */
	private static int matchOne(byte[] p, int pi, byte tc) {
		byte pc = p[pi];
		if (pc == '?') {
			return pi + 1;
		}
		if (pc == '[') {
			int close = bracketEnd(p, pi);
			if (close < 0) {
				return MALFORMED;
			}
			return bracketMatches(p, pi, tc) ? close + 1 : NO_MATCH;
		}
		if (pc == '\\') {
			if (pi + 1 == p.length) {
				return MALFORMED;
			}
			return (p[pi + 1] == tc) ? pi + 2 : NO_MATCH;
		}
		return (pc == tc) ? pi + 1 : NO_MATCH;
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
		for (int c = 0; c < CLASSES.length; c++) {
			if (isName(CLASSES[c], p, from, to)) {
				return c;
			}
		}
		return -1;
	}

	private static boolean isName(String name, byte[] p, int from, int to) {
		if (name.length() != to - from) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			if (p[from + i] != name.charAt(i)) {
				return false;
			}
		}
		return true;
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
