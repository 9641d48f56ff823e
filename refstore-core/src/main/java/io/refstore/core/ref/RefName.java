package io.refstore.core.ref;

import java.nio.charset.StandardCharsets;

/**
 * The rules of {@code git check-ref-format}, applied to the UTF-8 bytes of a name, the
 * classes of special names git knows (root refs, pseudorefs), and the one rule for names
 * that reach refstore from outside ({@link #checkWritable}). As in git, bytes of 0x80 and
 * above are not checked at all, so names need not be valid UTF-8. Stateless and
 * thread-safe.
 */
public final class RefName {

	/**
	 * A rule a name breaks; each names what the rejected name does. All but the last two
	 * are rules of {@code git check-ref-format}; those two belong to
	 * {@link #checkWritable}.
	 */
	public enum Rule {

		/** The name is empty. */
		EMPTY("it is empty"),
		/** A component begins with a dot. */
		COMPONENT_STARTS_WITH_DOT("a component begins with '.'"),
		/** A component ends with {@code .lock}. */
		COMPONENT_ENDS_WITH_LOCK("a component ends with '.lock'"),
		/** Two consecutive dots. */
		DOUBLE_DOT("it contains '..'"),
		/** A byte below 0x20 or DEL. */
		CONTROL_CHARACTER("it contains a control character"),
		/** Space, tilde, caret or colon. */
		FORBIDDEN_CHARACTER("it contains a space, '~', '^' or ':'"),
		/** A glob character other than the asterisk. */
		GLOB_CHARACTER("it contains '?', '[' or '\\'"),
		/** An asterisk. */
		ASTERISK("it contains '*'"),
		/** A leading, trailing or doubled slash. */
		EMPTY_COMPONENT("it has an empty component (leading, trailing or double '/')"),
		/** The name ends with a dot. */
		ENDS_WITH_DOT("it ends with '.'"),
		/** The sequence {@code @{}. */
		AT_BRACE("it contains '@{'"),
		/** The name is the single character {@code @}. */
		SINGLE_AT("it is the single character '@'"),
		/** Only one component where at least two are required. */
		ONE_LEVEL("it has only one component (full names start with 'refs/')"),
		/**
		 * Two or more components, not under {@code refs/}: in the files format such a
		 * name is a path below the git directory that git keeps something else at
		 * ({@code objects/..}, {@code logs/..}).
		 */
		OUTSIDE_REFS("it is not under 'refs/' (only root refs such as HEAD or ORIG_HEAD are outside it)"),
		/**
		 * {@code FETCH_HEAD} or {@code MERGE_HEAD}, which only the commands that make
		 * them write (git 2.55 refuses).
		 */
		PSEUDOREF("it is a pseudoref, which only git's fetch and merge write");

		private final String description;

		Rule(String description) {
			this.description = description;
		}

		/** Why a name breaking this rule is refused. */
		public String description() {
			return this.description;
		}

		/**
		 * Whether this is a rule of {@code git check-ref-format} (not one of
		 * {@link #checkWritable}'s own).
		 */
		public boolean isCheckRefFormat() {
			return this != OUTSIDE_REFS && this != PSEUDOREF;
		}

	}

	/**
	 * The bytes some rule looks at: the separator, {@code .} and <code>{</code> (in
	 * pairs), control characters and the forbidden and glob characters. Measured: the
	 * check of every name of a million-ref {@code packed-refs} was a third of a plain
	 * {@code for-each-ref}'s samples before ordinary bytes were skipped by this table.
	 */
	private static final boolean[] SPECIAL = new boolean[256];

	static {
		for (int c = 0; c < 0x20; c++) {
			SPECIAL[c] = true;
		}
		SPECIAL[0x7f] = true;
		for (char c : "/.{ ~^:?[\\*".toCharArray()) {
			SPECIAL[c] = true;
		}
	}

	private RefName() {
	}

	/**
	 * Checks a name that a client (the API, the console, a job's parameters or manifest)
	 * asks to read or write: it must pass {@code check-ref-format} and lie under
	 * {@code refs/}, or be a root ref made only of capitals and {@code _} (such as
	 * {@code HEAD} or {@code ORIG_HEAD}; any other one-level name breaks
	 * {@link Rule#ONE_LEVEL}). git's own {@code update-ref} also writes {@code foo/bar}
	 * or {@code objects/info/alternates} as files below the git directory; refstore's
	 * command does too, as a drop-in, but nothing else does.
	 * @throws InvalidRefNameException naming the name and the first rule it breaks
	 */
	public static void checkWritable(String name) {
		Rule rule = writableViolation(name);
		if (rule != null) {
			throw new InvalidRefNameException(name, rule);
		}
	}

	/**
	 * The first rule of {@link #checkWritable} that {@code name} breaks, or {@code null}.
	 */
	public static Rule writableViolation(String name) {
		Rule rule = violation(name, true);
		if (rule != null || name.startsWith("refs/")) {
			return rule;
		}
		if (isPseudoRef(name)) {
			return Rule.PSEUDOREF;
		}
		if (name.indexOf('/') >= 0) {
			return Rule.OUTSIDE_REFS;
		}
		// one level: only a root ref that git would also delete again (isSafe refuses
		// '-'); a short name such
		// as "main" or "config" is not a full name
		return (isRootRef(name) && isSafe(name)) ? null : Rule.ONE_LEVEL;
	}

	/**
	 * Checks a name against every rule.
	 * @param name the full ref name
	 * @param allowOneLevel whether a single component (such as {@code HEAD}) is accepted,
	 * as for writes
	 * @throws InvalidRefNameException naming the name and the first rule it breaks
	 */
	public static void check(String name, boolean allowOneLevel) {
		Rule rule = violation(name, allowOneLevel);
		if (rule != null) {
			throw new InvalidRefNameException(name, rule);
		}
	}

	/** Whether {@code name} passes every rule. */
	public static boolean isValid(String name, boolean allowOneLevel) {
		return violation(name, allowOneLevel) == null;
	}

	/**
	 * Returns the first rule {@code name} breaks, or {@code null} if it is valid.
	 */
	public static Rule violation(String name, boolean allowOneLevel) {
		byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
		return violation(bytes, 0, bytes.length, allowOneLevel);
	}

	/**
	 * Returns the first rule the name in {@code buf[offset .. offset + length)} breaks,
	 * or {@code null}.
	 */
	public static Rule violation(byte[] buf, int offset, int length, boolean allowOneLevel) {
		if (length == 0) {
			return Rule.EMPTY;
		}
		if (length == 1 && buf[offset] == '@') {
			return Rule.SINGLE_AT;
		}
		int components = 0;
		int componentStart = offset;
		int end = offset + length;
		int i = offset;
		while (true) {
			// the bytes no rule looks at are skipped in a tight loop (a name is mostly
			// those); every other byte is judged, left to right, with the byte before it
			while (i < end && !SPECIAL[buf[i] & 0xff]) {
				i++;
			}
			byte c = (i == end) ? (byte) '/' : buf[i];
			byte last = (i > offset) ? buf[i - 1] : 0;
			if (c == '/') {
				int componentLength = i - componentStart;
				if (componentLength == 0) {
					return Rule.EMPTY_COMPONENT;
				}
				if (buf[componentStart] == '.') {
					return Rule.COMPONENT_STARTS_WITH_DOT;
				}
				if (componentLength >= 5 && endsWithLock(buf, i)) {
					return Rule.COMPONENT_ENDS_WITH_LOCK;
				}
				components++;
				componentStart = i + 1;
				if (i == end) {
					break;
				}
			}
			else if (c == '.' && last == '.') {
				return Rule.DOUBLE_DOT;
			}
			else if (c == '{' && last == '@') {
				return Rule.AT_BRACE;
			}
			else if ((c >= 0 && c < 0x20) || c == 0x7f) {
				return Rule.CONTROL_CHARACTER;
			}
			else if (c == ' ' || c == '~' || c == '^' || c == ':') {
				return Rule.FORBIDDEN_CHARACTER;
			}
			else if (c == '?' || c == '[' || c == '\\') {
				return Rule.GLOB_CHARACTER;
			}
			else if (c == '*') {
				return Rule.ASTERISK;
			}
			i++;
		}
		if (buf[end - 1] == '.') {
			return Rule.ENDS_WITH_DOT;
		}
		if (components < 2 && !allowOneLevel) {
			return Rule.ONE_LEVEL;
		}
		return null;
	}

	private static boolean endsWithLock(byte[] buf, int componentEnd) {
		return buf[componentEnd - 5] == '.' && buf[componentEnd - 4] == 'l' && buf[componentEnd - 3] == 'o'
				&& buf[componentEnd - 2] == 'c' && buf[componentEnd - 1] == 'k';
	}

	/**
	 * Whether {@code name} is a root ref git keeps beside {@code HEAD}: {@code HEAD}
	 * itself, an all-uppercase name ending in {@code _HEAD}, or one of git's irregular
	 * root refs. {@code FETCH_HEAD} and {@code MERGE_HEAD} are pseudorefs, not root refs.
	 */
	public static boolean isRootRef(String name) {
		if (isPseudoRef(name)) {
			return false;
		}
		switch (name) {
			case "HEAD", "AUTO_MERGE", "BISECT_EXPECTED_REV", "NOTES_MERGE_PARTIAL", "NOTES_MERGE_REF",
					"MERGE_AUTOSTASH":
				return true;
			default:
				return name.endsWith("_HEAD") && isRootRefSyntax(name);
		}
	}

	/**
	 * Whether {@code name} is one of git's pseudorefs, which stay plain files in every
	 * format.
	 */
	public static boolean isPseudoRef(String name) {
		return name.equals("FETCH_HEAD") || name.equals("MERGE_HEAD");
	}

	/**
	 * Whether {@code name} is non-empty and every character of it is {@code A-Z},
	 * {@code -} or {@code _}.
	 */
	public static boolean isRootRefSyntax(String name) {
		if (name.isEmpty()) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (!((c >= 'A' && c <= 'Z') || c == '-' || c == '_')) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether a name is safe to use as a path below the git directory, as git requires
	 * before touching the file system (also for deletions of refs with broken names).
	 * Safe are {@code refs/} followed by a path that path normalisation leaves unchanged
	 * (no empty, {@code .} or {@code ..} component, no leading or trailing {@code /}),
	 * and non-empty names made only of {@code A-Z} and {@code _}. {@code refs/foo/../bar}
	 * is not safe even though it stays below {@code refs/}. A name holding NUL is never
	 * safe: no path can carry it.
	 */
	public static boolean isSafe(String name) {
		if (name.indexOf('\0') >= 0) {
			return false;
		}
		if (name.startsWith("refs/")) {
			return isNormalRelativePath(name, 5);
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (!((c >= 'A' && c <= 'Z') || c == '_')) {
				return false;
			}
		}
		return !name.isEmpty();
	}

	/**
	 * Whether {@code name.substring(start)} is a non-empty path without empty, "." or
	 * ".." components.
	 */
	private static boolean isNormalRelativePath(String name, int start) {
		int componentStart = start;
		for (int i = start; i <= name.length(); i++) {
			if (i < name.length() && name.charAt(i) != '/') {
				continue;
			}
			int length = i - componentStart;
			if (length == 0 || isDotOrDotDot(name, componentStart, length)) {
				return false;
			}
			componentStart = i + 1;
		}
		return true;
	}

	private static boolean isDotOrDotDot(String name, int start, int length) {
		return name.charAt(start) == '.' && (length == 1 || (length == 2 && name.charAt(start + 1) == '.'));
	}

	/** The name with control characters escaped, for error messages. */
	public static String printable(String name) {
		StringBuilder out = new StringBuilder(name.length());
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (c < 0x20 || c == 0x7f) {
				out.append(String.format("\\x%02x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

}
