package io.refstore.core.delete;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.refstore.core.ref.InvalidRefNameException;
import io.refstore.core.ref.RefName;

/**
 * Which refs a mass deletion removes: the union of explicit names, name prefixes and
 * globs, minus the refs matched by exclusions. Only refs under {@code refs/} can be
 * selected; {@code HEAD} and other root refs never are.
 * <ul>
 * <li><b>Names</b> are full ref names ({@code refs/heads/topic}); a name that does not
 * exist is counted as missing and otherwise ignored.</li>
 * <li><b>Prefixes</b> are compared byte for byte: {@code refs/heads/tmp} also selects
 * {@code refs/heads/tmpx}; end a prefix with a slash to select one directory.</li>
 * <li><b>Globs</b> and <b>exclusions</b> are {@code for-each-ref} patterns
 * ({@link RefPattern}): a prefix ending at a slash, or a wildmatch glob such as
 * {@code refs/tags/v1.*} or {@code refs/pull/**}.</li>
 * </ul>
 * Whatever these select, the refs its {@link ProtectedRefs} protect are kept and reported
 * ({@linkplain ProtectedRefs#defaults() the defaults} unless {@link Builder#protect} says
 * otherwise). Every value is checked when it is added; a bad one is refused with an
 * {@link InvalidSelectionException} naming it. Names are kept sorted as UTF-8 byte
 * arrays, so a list of a million names costs their bytes, not a million objects per ref.
 *
 * <p>
 * Immutable and thread-safe once built.
 */
public final class RefSelection {

	/** The namespace every selected ref lives in. */
	static final String REFS = "refs/";

	private final List<String> prefixes;

	private final byte[][] prefixBytes;

	private final List<RefPattern> globs;

	private final List<RefPattern> exclusions;

	private final byte[][] names;

	private final ProtectedRefs protection;

	private RefSelection(Builder builder) {
		this.protection = builder.protection;
		this.prefixes = List.copyOf(builder.prefixes);
		this.prefixBytes = new byte[this.prefixes.size()][];
		for (int i = 0; i < this.prefixBytes.length; i++) {
			this.prefixBytes[i] = this.prefixes.get(i).getBytes(StandardCharsets.UTF_8);
		}
		this.globs = List.copyOf(builder.globs);
		this.exclusions = List.copyOf(builder.exclusions);
		byte[][] sorted = builder.names.toArray(new byte[0][]);
		Arrays.sort(sorted, Arrays::compareUnsigned);
		int unique = 0;
		for (int i = 0; i < sorted.length; i++) {
			if (unique == 0 || !Arrays.equals(sorted[unique - 1], sorted[i])) {
				sorted[unique++] = sorted[i];
			}
		}
		this.names = Arrays.copyOf(sorted, unique);
	}

	/** Starts an empty selection. */
	public static Builder builder() {
		return new Builder();
	}

	/** The prefixes, as given. */
	public List<String> prefixes() {
		return this.prefixes;
	}

	/** The globs, as given. */
	public List<String> globs() {
		return this.globs.stream().map(RefPattern::text).toList();
	}

	/** The exclusions, as given. */
	public List<String> exclusions() {
		return this.exclusions.stream().map(RefPattern::text).toList();
	}

	/** What is kept whatever the selection says. */
	public ProtectedRefs protection() {
		return this.protection;
	}

	/** How many distinct names were listed. */
	public int nameCount() {
		return this.names.length;
	}

	/**
	 * The listed names as UTF-8 bytes, sorted bytewise and distinct; the caller must not
	 * change them.
	 */
	byte[][] names() {
		return this.names;
	}

	/**
	 * The prefixes to scan for prefix and glob matches: sorted bytewise, none a prefix of
	 * another, so the ranges they cover are disjoint and come in name order one after the
	 * other.
	 */
	List<String> scanPrefixes() {
		List<byte[]> all = new ArrayList<>(Arrays.asList(this.prefixBytes));
		for (RefPattern glob : this.globs) {
			String literal = glob.literalPrefix();
			all.add((REFS.startsWith(literal) ? REFS : literal).getBytes(StandardCharsets.UTF_8));
		}
		all.sort(Arrays::compareUnsigned);
		List<String> minimal = new ArrayList<>();
		byte[] last = null;
		for (byte[] prefix : all) {
			if (last == null || !startsWith(prefix, prefix.length, last)) {
				minimal.add(new String(prefix, StandardCharsets.UTF_8));
				last = prefix;
			}
		}
		return minimal;
	}

	/**
	 * Whether the name in {@code name[0 .. length)} is matched by a prefix or a glob
	 * (exclusions aside).
	 */
	boolean matchesPattern(byte[] name, int length) {
		for (byte[] prefix : this.prefixBytes) {
			if (startsWith(name, length, prefix)) {
				return true;
			}
		}
		for (RefPattern glob : this.globs) {
			if (glob.matches(name, length)) {
				return true;
			}
		}
		return false;
	}

	/** Whether an exclusion matches the name in {@code name[0 .. length)}. */
	boolean excluded(byte[] name, int length) {
		for (RefPattern exclusion : this.exclusions) {
			if (exclusion.matches(name, length)) {
				return true;
			}
		}
		return false;
	}

	private static boolean startsWith(byte[] name, int length, byte[] prefix) {
		return prefix.length <= length && Arrays.equals(name, 0, prefix.length, prefix, 0, prefix.length);
	}

	/** Collects the parts of a selection, checking each as it comes. Not thread-safe. */
	public static final class Builder {

		private final List<String> prefixes = new ArrayList<>();

		private final List<RefPattern> globs = new ArrayList<>();

		private final List<RefPattern> exclusions = new ArrayList<>();

		private final List<byte[]> names = new ArrayList<>();

		private ProtectedRefs protection = ProtectedRefs.defaults();

		private Builder() {
		}

		/**
		 * Keeps the refs {@code protection} protects instead of
		 * {@linkplain ProtectedRefs#defaults() the defaults};
		 * {@link ProtectedRefs#none()} overrides protection, which the caller must have
		 * allowed.
		 */
		public Builder protect(ProtectedRefs protection) {
			this.protection = java.util.Objects.requireNonNull(protection, "protection");
			return this;
		}

		/**
		 * Selects every ref whose name starts with {@code prefix}.
		 * @throws InvalidSelectionException if it does not start with {@code refs/}
		 */
		public Builder prefix(String prefix) {
			if (!prefix.startsWith(REFS)) {
				throw new InvalidSelectionException("prefix", prefix, "it must start with 'refs/'");
			}
			this.prefixes.add(prefix);
			return this;
		}

		/**
		 * Selects every ref the {@code for-each-ref} pattern matches.
		 * @throws InvalidSelectionException if the pattern is empty, malformed or can
		 * never match
		 */
		public Builder glob(String pattern) {
			this.globs.add(RefPattern.parse("glob", pattern));
			return this;
		}

		/**
		 * Keeps every ref the {@code for-each-ref} pattern matches, whatever else selects
		 * it.
		 * @throws InvalidSelectionException if the pattern is empty, malformed or can
		 * never match
		 */
		public Builder exclude(String pattern) {
			this.exclusions.add(RefPattern.parse("exclude", pattern));
			return this;
		}

		/**
		 * Selects one ref by its full name.
		 * @throws InvalidSelectionException if the name is not a valid ref name under
		 * {@code refs/}
		 */
		public Builder name(String name) {
			RefName.Rule rule = RefName.writableViolation(name);
			if (rule != null) {
				throw new InvalidSelectionException("name", new InvalidRefNameException(name, rule));
			}
			if (!name.startsWith(REFS)) {
				throw new InvalidSelectionException("name", name, "only refs under 'refs/' can be deleted");
			}
			this.names.add(name.getBytes(StandardCharsets.UTF_8));
			return this;
		}

		/**
		 * The selection.
		 * @throws InvalidSelectionException if nothing at all was selected (exclusions
		 * alone select nothing)
		 */
		public RefSelection build() {
			if (this.prefixes.isEmpty() && this.globs.isEmpty() && this.names.isEmpty()) {
				throw new InvalidSelectionException("selection", "", "no prefix, glob or name given");
			}
			return new RefSelection(this);
		}

	}

}
