package io.refstore.core.cli;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.ref.Wildmatch;

/**
 * The ref name patterns of {@code show-ref} and {@code for-each-ref}, matched against a
 * cursor's name bytes without allocating.
 *
 * <ul>
 * <li>{@code show-ref} matches a pattern against the tail of a name at a component
 * boundary: {@code main} matches {@code refs/heads/main} and
 * {@code refs/remotes/origin/main}, not {@code refs/heads/domain}.</li>
 * <li>{@code for-each-ref} matches a pattern literally from the start up to a slash
 * ({@code refs/tags} matches {@code refs/tags/v1}, not {@code refs/tagsx}), or as a
 * {@link Wildmatch glob}.</li>
 * </ul>
 *
 * <p>
 * Immutable and thread-safe.
 */
final class RefPatterns {

	private final byte[][] patterns;

	private final boolean[] globs;

	/** {@code for-each-ref --exclude}: names these match are left out. */
	private final RefPatterns excludes;

	/**
	 * {@code --ignore-case}: the patterns in ASCII lower case, else {@code null}. As in
	 * git, only the glob match folds case (each name is folded for it); the prefix match
	 * stays exact.
	 */
	private final byte[][] folded;

	private RefPatterns(byte[][] patterns, RefPatterns excludes) {
		this(patterns, excludes, false);
	}

	private RefPatterns(byte[][] patterns, RefPatterns excludes, boolean ignoreCase) {
		if (ignoreCase) {
			this.folded = new byte[patterns.length][];
			for (int i = 0; i < patterns.length; i++) {
				this.folded[i] = patterns[i].clone();
				foldCase(this.folded[i], this.folded[i].length);
			}
		}
		else {
			this.folded = null;
		}
		this.patterns = patterns;
		this.globs = new boolean[patterns.length];
		for (int i = 0; i < patterns.length; i++) {
			this.globs[i] = Wildmatch.hasGlob(patterns[i]);
		}
		this.excludes = excludes;
	}

	/** The given patterns (UTF-8). */
	static RefPatterns of(List<String> patterns) {
		return new RefPatterns(bytes(patterns), null);
	}

	/**
	 * {@code for-each-ref}'s patterns and {@code --exclude} patterns: a name matches if
	 * it matches the patterns (or there are none) and none of the exclusions, each
	 * matched as a pattern is.
	 */
	static RefPatterns of(List<String> patterns, List<String> excludes) {
		return of(patterns, excludes, false);
	}

	/**
	 * {@link #of(List, List)}, ignoring ASCII case if {@code ignoreCase}
	 * ({@code --ignore-case}).
	 */
	static RefPatterns of(List<String> patterns, List<String> excludes, boolean ignoreCase) {
		return new RefPatterns(bytes(patterns),
				excludes.isEmpty() ? null : new RefPatterns(bytes(excludes), null, ignoreCase), ignoreCase);
	}

	private static void foldCase(byte[] bytes, int length) {
		for (int i = 0; i < length; i++) {
			if (bytes[i] >= 'A' && bytes[i] <= 'Z') {
				bytes[i] += 'a' - 'A';
			}
		}
	}

	private static byte[][] bytes(List<String> patterns) {
		byte[][] bytes = new byte[patterns.size()][];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = patterns.get(i).getBytes(StandardCharsets.UTF_8);
		}
		return bytes;
	}

	/** Whether there are no patterns (everything matches). */
	boolean isEmpty() {
		return this.patterns.length == 0;
	}

	/**
	 * {@code show-ref}: whether some pattern equals the name or its tail after a slash.
	 * @return {@code true} also if there are no patterns
	 */
	boolean matchesTail(byte[] name, int length) {
		if (this.patterns.length == 0) {
			return true;
		}
		for (byte[] p : this.patterns) {
			int start = length - p.length;
			if (start >= 0 && (start == 0 || name[start - 1] == '/')
					&& Arrays.equals(name, start, length, p, 0, p.length)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * {@code for-each-ref}: whether some pattern is a prefix of the name ending at a
	 * slash (or the whole name), or matches it as a glob; and no exclusion does.
	 * @return {@code true} also if there are no patterns (and the name is not excluded)
	 */
	boolean matchesPath(byte[] name, int length) {
		if (this.excludes != null && this.excludes.patterns.length > 0 && this.excludes.matchesPath(name, length)) {
			return false;
		}
		if (this.patterns.length == 0) {
			return true;
		}
		for (int i = 0; i < this.patterns.length; i++) {
			byte[] p = this.patterns[i];
			if (p.length <= length && Arrays.equals(name, 0, p.length, p, 0, p.length)
					&& (p.length == length || name[p.length] == '/' || (p.length > 0 && p[p.length - 1] == '/'))) {
				return true;
			}
			if (this.folded == null && this.globs[i] && Wildmatch.matches(p, name, length)) {
				return true;
			}
		}
		if (this.folded != null) {
			// only --ignore-case pays for a copy per name
			byte[] foldedName = Arrays.copyOf(name, length);
			foldCase(foldedName, length);
			for (byte[] p : this.folded) {
				if (Wildmatch.matches(p, foldedName, length)) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * The longest literal text every {@code for-each-ref} match must start with, for
	 * seeking the ref store: the common prefix of the patterns up to their first glob
	 * character.
	 * @return the prefix (a whole UTF-8 string), or empty if the patterns share none or
	 * case is ignored
	 */
	String commonLiteralPrefix() {
		// a folded prefix could seek past names that differ from it only in case
		if (this.patterns.length == 0 || this.folded != null) {
			return "";
		}
		int common = literalLength(this.patterns[0]);
		for (int i = 1; i < this.patterns.length; i++) {
			int mismatch = Arrays.mismatch(this.patterns[0], 0, common, this.patterns[i], 0,
					literalLength(this.patterns[i]));
			if (mismatch >= 0) {
				common = mismatch;
			}
		}
		byte[] first = this.patterns[0];
		// never cut a multi-byte UTF-8 character in two
		while (common > 0 && common < first.length && (first[common] & 0xc0) == 0x80) {
			common--;
		}
		return new String(first, 0, common, StandardCharsets.UTF_8);
	}

	private static int literalLength(byte[] p) {
		for (int i = 0; i < p.length; i++) {
			if (p[i] == '*' || p[i] == '?' || p[i] == '[' || p[i] == '\\') {
				return i;
			}
		}
		return p.length;
	}

}
